"""Where every benchmark's data comes from: one resolver, one error type.

Each benchmark declares once, as a :class:`DataSource`, where its files come
from. :func:`fetch` resolves one file (``path``, as laid out upstream) in order:

1. ``$COG_TASKS_DATA/<benchmark>/<path>`` (or the ``data_dir`` argument, which
   must then hold the file);
2. the benchmark's Hub setting (:func:`cog_tasks.common.settings.hub_source`):
   a Hub dataset or a folder written by ``cog-tasks data build``, read by the
   benchmark's own :attr:`DataSource.read_hub`. CogLM and EgoSocialArena copies
   are in the built-dataset layout; their readers write the rows back in the
   upstream file's format, so one validator checks every origin;
3. the pinned upstream file, downloaded once by :func:`download` (the only
   network call) into ``cache_dir()/<benchmark>/<commit>/<path>``. Under
   ``HF_HUB_OFFLINE`` a cached file is still read, and a missing one fails at
   once with the ways out.

Every file goes through the same generic checks, whatever its origin: an
empty file (or whitespace only) is refused before the validator sees it, and
where the source pins a file's item count (:attr:`DataSource.item_counts`) the
validator's result must hold that many items: a download or its cached copy
that differs fails, a local or Hub copy that differs gives an
:class:`ItemCountWarning` naming the file. The validator (a hook per benchmark
file) parses and checks the bytes and returns what the loader needs; it calls
:func:`check_unique` (with :func:`record_key`) for duplicate records and ids.

Where the source pins a file's SHA-256 (:attr:`DataSource.pins`: the files
mirrored byte for byte from a pinned commit, which never changes), every read
is checked against it, a cached download's included: a download or a cached
file that differs fails; a local copy that differs, or a Hub copy whose
content (its JSON, whatever the formatting: a Hub copy is rebuilt from rows)
differs, gives a :class:`DataHashWarning` naming the file. What was read, from
where, and how it compares is :attr:`Fetched.provenance`, which :func:`fetch`
also hands to :func:`cog_tasks.common.provenance.record_read` for the run to record.

A download is written to the cache, atomically, only after it passed; a
cached file that fails names itself to delete. Every failure of a source is a
:class:`DataSourceError`; a malformed file under ``COG_TASKS_DATA`` (the
user's own) keeps the validator's error, which names the file and line.
"""

from __future__ import annotations

import hashlib
import http.client
import json
import os
import urllib.request
import warnings
from collections.abc import Callable, Hashable, Iterable, Mapping, Sized
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

from cog_tasks.common.files import DataFileError, parse_json, parse_jsonl, write_atomically
from cog_tasks.common.provenance import Check, Provenance, record_read
from cog_tasks.common.settings import (
    DATA_ENV,
    OFFLINE_ENV,
    HubSource,
    cache_dir,
    commit_like,
    hub_env,
    hub_source,
    local_data_dir,
    offline,
)

if TYPE_CHECKING:
    import datasets

T = TypeVar("T")

GITHUB_RAW = "https://raw.githubusercontent.com/{repo}/{commit}/{path}"
"""``DataSource.url_template`` of a file in a GitHub repository at a commit."""
Origin = Literal["local", "hub", "upstream"]


class DataSourceError(DataFileError):
    """Benchmark data that cannot be fetched or fails its checks.

    The message names the source (file, folder or URL) and the ways out.
    """


class MissingDataFile(DataSourceError, FileNotFoundError):
    """A file the caller's ``data_dir`` argument should hold, or a data folder, that is missing."""


class ItemCountWarning(UserWarning):
    """A local or Hub copy of a file whose item count differs from the pinned upstream file's."""


class DataHashWarning(UserWarning):
    """A local or Hub copy of a file that differs from the pinned upstream file."""


@dataclass(frozen=True)
class Pin:
    """The SHA-256 digests of one pinned upstream file.

    Attributes:
        sha256: Of the file's bytes.
        content: Of its JSON content (:func:`content_sha256`), for copies rebuilt from rows.
    """

    sha256: str
    content: str


def content_sha256(content: Content, path: str) -> str:
    """SHA-256 of a file's JSON content, whatever its formatting and key order.

    A ``.jsonl`` file counts as the list of its records.

    Raises:
        DataFileError: Naming the source when it is not JSON (Lines).
    """
    value = [record for _, record in content.jsonl()] if path.endswith(".jsonl") else content.json()
    canonical = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def check_not_empty(content: Content) -> None:
    """Refuse a file that is empty or holds only whitespace.

    :func:`fetch` calls it on every file before the validator.

    Raises:
        DataFileError: Naming the file.
    """
    if not content.data.strip():
        raise DataFileError(f"{content.source}: the file is empty")


def record_key(record: Any) -> str:
    """A key equal for equal JSON records, whatever their key order; for :func:`check_unique`."""
    return json.dumps(record, sort_keys=True, ensure_ascii=False, default=str)


def check_unique(keyed: Iterable[tuple[str, Hashable]], source: str, kind: str = "record") -> None:
    """Refuse a repeated record or id: the benchmark validators' duplicate check.

    Call it with ``kind="record"`` and :func:`record_key` for repeated records,
    and with ``kind="id"`` and each item's id for repeated ids, for example
    ``check_unique(((f"line {n}", record_key(r)) for n, r in rows), content.source)``.

    Args:
        keyed: ``(where, key)`` pairs, ``where`` naming the record (``line 12``,
            ``item 3``) in messages.
        source: The file, quoted in messages.
        kind: What the key is (``record``, ``id``); an id is quoted in the message.

    Raises:
        DataFileError: Naming the file, the repeat and the record it repeats.
    """
    first_seen: dict[Hashable, str] = {}
    for where, key in keyed:
        if key in first_seen:
            shown = "" if kind == "record" else f" {key!r}"
            raise DataFileError(
                f"{source}: {where} repeats {first_seen[key]} (the same {kind}{shown})"
            )
        first_seen[key] = where


@dataclass(frozen=True)
class Content:
    """The bytes of one benchmark file, in its upstream format, and where they came from.

    Attributes:
        data: The file's bytes.
        source: The file, URL or Hub config, quoted in errors.
        origin: ``local`` (``COG_TASKS_DATA``), ``hub`` or ``upstream`` (pinned).
        path: The file on disk, when there is one.
    """

    data: bytes
    source: str
    origin: Origin
    path: Path | None = None

    def text(self) -> str:
        """The bytes as UTF-8 text.

        Raises:
            DataFileError: Naming the source when they are not UTF-8.
        """
        try:
            return self.data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise DataFileError(
                f"{self.source}: not UTF-8 text (byte {error.start}: {error.reason})"
            ) from error

    def json(self) -> Any:
        """The text as one JSON value.

        Raises:
            DataFileError: Naming the source (and line) for bad UTF-8 or bad JSON.
        """
        return parse_json(self.text(), self.source)

    def jsonl(self) -> list[tuple[int, dict[str, Any]]]:
        """The text as JSON Lines: ``(line number, object)`` for each non-blank line.

        Raises:
            DataFileError: Naming the source and line of bad JSON or a non-object.
        """
        return list(parse_jsonl(self.text(), self.source))


#: Parses and checks a file's content; returns what the loader needs. It raises
#: ``ValueError`` (``DataFileError`` and the benchmarks' own errors are ones).
Validator = Callable[[Content], T]
#: Reads one file (upstream path) from a benchmark's Hub copy, in the upstream format.
HubReader = Callable[[HubSource, str], Content]


@dataclass(frozen=True)
class Fetched(Generic[T]):
    """What :func:`fetch` found.

    Attributes:
        value: What the validator returned.
        source: The file, cached file or Hub config it came from.
        origin: ``local``, ``hub`` or ``upstream``.
        path: The file on disk, when there is one.
        provenance: Where it came from and how it compares with its pin.
    """

    value: T
    source: str
    origin: Origin
    path: Path | None
    provenance: Provenance


@dataclass(frozen=True)
class DataSource:
    """Where one benchmark's files come from, declared once in its loader module.

    Attributes:
        benchmark: Folder under ``COG_TASKS_DATA`` and the cache; names the Hub setting.
        title: The benchmark's name in messages.
        repo: The upstream repository (GitHub ``ORG/NAME`` or Hub dataset).
        commit: The pinned upstream commit.
        url_template: Upstream URL of a file, with ``{repo}``, ``{commit}`` and ``{path}``.
        hub_copy: What a Hub copy is, for the ways out.
        read_hub: Reads one file from a Hub copy (see :data:`HubReader`); None
            where a Hub copy never holds the benchmark's files of this source
            (the authors' scripts and prompts), which a Hub setting then refuses.
        commit_env: A setting that overrides :attr:`commit`, if any.
        more_ways_out: Ways out specific to the benchmark, appended to the others.
        describe: Names a file in messages (default ``<title> file <path>``).
        item_counts: Upstream path -> item count of the pinned file, where upstream
            pins one; the validator's result (a sized value) is checked against it.
        pins: Upstream path -> the pinned file's digests (:class:`Pin`), for the
            files mirrored byte for byte from :attr:`commit`.
    """

    benchmark: str
    title: str
    repo: str
    commit: str
    url_template: str
    hub_copy: str
    read_hub: HubReader | None = None
    commit_env: str | None = None
    more_ways_out: tuple[str, ...] = ()
    describe: Callable[[str], str] | None = None
    item_counts: Mapping[str, int] = field(default_factory=dict, hash=False)
    pins: Mapping[str, Pin] = field(default_factory=dict, hash=False)

    def label(self, path: str) -> str:
        """How messages name the file ``path``."""
        return self.describe(path) if self.describe else f"{self.title} file {path}"

    @property
    def hub_env(self) -> str:
        """The name of the benchmark's Hub setting."""
        return hub_env(self.benchmark)

    def pinned(self, commit: str | None = None) -> str:
        """The upstream commit to read: the argument, :attr:`commit_env`, then the pin.

        Raises:
            SettingError: Naming the argument or setting when it is not a commit
                (:func:`~cog_tasks.common.settings.commit_like`).
        """
        if commit:
            return commit_like(commit, "revision")
        from_env = os.environ.get(self.commit_env) if self.commit_env else None
        return commit_like(from_env, str(self.commit_env)) if from_env else self.commit

    def url(self, path: str, commit: str | None = None) -> str:
        """The upstream URL of ``path`` at the pinned (or given) commit."""
        return self.url_template.format(repo=self.repo, commit=self.pinned(commit), path=path)

    def cached(self, path: str, commit: str | None = None) -> Path:
        """Where the checked download of ``path`` is cached."""
        return cache_dir() / self.benchmark / self.pinned(commit) / path

    def ways_out(self, path: str, reason: str, commit: str | None = None) -> str:
        """The message of a failed upstream fetch: what, why, and the ways out."""
        local = f"{self.benchmark}/{path}"
        root = os.environ.get(DATA_ENV)
        missing = f"; {DATA_ENV}={root} has no such file" if root else ""
        ways = [
            f"put the file at ${DATA_ENV}/{local} ({DATA_ENV}: a folder laid out as "
            f"<benchmark>/<upstream path>{missing})"
        ]
        if self.read_hub is not None:
            ways.append(
                f"set {self.hub_env}=ORG/NAME[@REVISION] to a Hub copy, or to {self.hub_copy}"
            )
        ways += [f"allow network access ({OFFLINE_ENV} unset)", *self.more_ways_out]
        numbered = "; ".join(f"({number}) {way}" for number, way in enumerate(ways, start=1))
        return (
            f"could not fetch the {self.label(path)} from {self.url(path, commit)} ({self.repo} at "
            f"commit {self.pinned(commit)}): {reason}. Ways out: {numbered}."
        )


def download(url: str) -> bytes:
    """Fetch a URL: the resolver's only network call (tests replace it).

    Raises:
        OSError: On a network or HTTP error.
        http.client.HTTPException: On a broken response.
    """
    with urllib.request.urlopen(url, timeout=60) as response:  # noqa: S310 (pinned https URL)
        return response.read()


def load_hub_split(hub: HubSource, config: str) -> datasets.Dataset:
    """The ``test`` split of one config of a Hub copy in the built-dataset layout.

    A local folder is always read afresh: ``datasets`` caches a folder under its
    name whatever its content, so a folder rebuilt in place would read stale rows.
    """
    import datasets

    return datasets.load_dataset(
        hub.location,
        config,
        split="test",
        revision=hub.revision,
        download_mode="force_redownload" if hub.is_folder else None,
    )


def fetch(
    benchmark: DataSource,
    path: str,
    validate: Validator[T],
    *,
    data_dir: str | os.PathLike[str] | None = None,
    hub: str | None = None,
    commit: str | None = None,
    local: bool = True,
) -> Fetched[T]:
    """Resolve, check and return one benchmark file (see the module docstring).

    Args:
        benchmark: The benchmark's declared source.
        path: The file, as laid out upstream (``first_stage/exist.json``).
        validate: Parses and checks the content; its result is :attr:`Fetched.value`.
        data_dir: A local data root read instead of ``$COG_TASKS_DATA``; it must hold the file.
        hub: A Hub copy used instead of the benchmark's Hub setting.
        commit: An upstream commit read instead of the pinned one.
        local: False to skip the local data root.

    Returns:
        The validated value and where it came from.

    Raises:
        DataSourceError: When no source can provide the file, or a Hub copy, a
            download or a cached download fails its checks; the message names
            the source and the ways out (the cached file to delete, for a bad cache).
        ValueError: The validator's own error, for a bad file under the local data root.
    """
    pin = benchmark.pins.get(path) if benchmark.pinned(commit) == benchmark.commit else None
    check = _checked(benchmark, path, validate, pin)
    if local:
        try:
            root = local_data_dir(data_dir)
        except FileNotFoundError as error:  # a data folder setting that names no folder
            raise MissingDataFile(str(error)) from error
        if root is not None:
            file = root / benchmark.benchmark / path
            if file.is_file():
                content = Content(file.read_bytes(), str(file), "local", file)
                return check(content, "local", str(root / benchmark.benchmark))
            if data_dir is not None:
                raise MissingDataFile(f"{benchmark.label(path)} not found: {file}")
    source = hub_source(benchmark.benchmark, hub)
    if source is not None:
        return _from_hub(benchmark, source, path, check)
    return _from_upstream(benchmark, path, check, commit)


#: Checks one file's content read from an origin (``local``, ``hub``, ``cache``,
#: ``upstream``) at a location (:attr:`Provenance.location`) and returns what
#: :func:`fetch` returns.
Checker = Callable[[Content, str, str], Fetched[T]]


def _checked(
    benchmark: DataSource, path: str, validate: Validator[T], pin: Pin | None
) -> Checker[T]:
    """``validate`` with the generic checks every file goes through (module docstring)."""
    expected = benchmark.item_counts.get(path)

    def checked(content: Content, origin: str, location: str) -> Fetched[T]:
        check_not_empty(content)
        value = validate(content)
        if expected is not None and isinstance(value, Sized) and len(value) != expected:
            message = (
                f"{content.source}: holds {len(value)} items, the pinned upstream file {expected}"
            )
            if content.origin == "upstream":
                raise DataFileError(message)
            warnings.warn(message, ItemCountWarning, stacklevel=2)
        provenance = _provenance(content, path, origin, location, pin)
        record_read(provenance)
        return Fetched(value, content.source, content.origin, content.path, provenance)

    return checked


def _provenance(
    content: Content, path: str, origin: str, location: str, pin: Pin | None
) -> Provenance:
    """How ``content`` compares with ``pin``; refuses a download or cache that differs.

    Raises:
        DataFileError: Naming the source, for an upstream file that is not the pinned one.
    """
    digest = hashlib.sha256(content.data).hexdigest()
    check: Check = "unverified"
    if pin is not None and digest == pin.sha256:
        check = "pinned"
    elif (
        pin is not None and content.origin == "hub" and content_sha256(content, path) == pin.content
    ):
        check = "same content"
    elif pin is not None:
        check = "differs"
        message = (
            f"{content.source}: SHA-256 {digest} is not the pinned upstream file's {pin.sha256}"
        )
        if content.origin == "upstream":
            raise DataFileError(message)
        warnings.warn(
            f"{message}; scores may differ from the benchmark's", DataHashWarning, stacklevel=3
        )
    return Provenance(path, origin, content.source, digest, check, location)


def _from_hub(benchmark: DataSource, source: HubSource, path: str, check: Checker[T]) -> Fetched[T]:
    if benchmark.read_hub is None:
        raise DataSourceError(
            f"the Hub copy {source} (from {source.setting}) cannot hold the "
            f"{benchmark.label(path)}: a Hub copy holds {benchmark.hub_copy}. Ways out: unset "
            f"{benchmark.hub_env}, or set {DATA_ENV} to a folder holding "
            f"{benchmark.benchmark}/{path}."
        )
    try:
        content = benchmark.read_hub(source, path)
    except Exception as error:  # any Hub or cache failure gets the same advice
        note = f" ({OFFLINE_ENV} is set: only the local cache was read)" if offline() else ""
        raise DataSourceError(
            f"could not read the {benchmark.label(path)} from the Hub copy {source} "
            f"(from {source.setting}){note}: {type(error).__name__}: {error}. Ways out: point "
            f"{benchmark.hub_env} at {benchmark.hub_copy}, or unset it and set {DATA_ENV} to a "
            f"folder holding {benchmark.benchmark}/{path}."
        ) from error
    try:
        return check(content, "hub", str(source))
    except ValueError as error:
        cached = (
            f", or delete the cached {content.path} to fetch it anew"
            if content.path is not None and not source.is_folder
            else ""
        )
        raise DataSourceError(
            f"{error}. The Hub copy {source} (from {source.setting}) is not a valid copy: "
            f"rebuild it ({benchmark.hub_copy}){cached}."
        ) from error


def _from_upstream(
    benchmark: DataSource, path: str, check: Checker[T], commit: str | None
) -> Fetched[T]:
    cached = benchmark.cached(path, commit)
    location = f"{benchmark.repo}@{benchmark.pinned(commit)}"
    if cached.is_file():
        try:
            content = Content(cached.read_bytes(), str(cached), "upstream", cached)
            return check(content, "cache", location)
        except ValueError as error:
            raise DataSourceError(
                f"{error}. The cached download is damaged: delete {cached} and run again "
                "to fetch it anew."
            ) from error
    if offline():
        reason = f"{OFFLINE_ENV} is set, so no download was tried"
        raise DataSourceError(benchmark.ways_out(path, reason, commit))
    url = benchmark.url(path, commit)
    try:
        payload = download(url)
    except (OSError, http.client.HTTPException) as error:
        reason = f"{type(error).__name__}: {error}"
        raise DataSourceError(benchmark.ways_out(path, reason, commit)) from error
    try:
        fetched = check(Content(payload, url, "upstream"), "upstream", location)
    except ValueError as error:
        reason = f"the download is not the expected file, so it was not cached ({error})"
        raise DataSourceError(benchmark.ways_out(path, reason, commit)) from error
    cached.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(cached, payload, replace=True)  # the cache is the package's own
    return replace(fetched, source=str(cached), path=cached)
