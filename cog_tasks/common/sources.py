"""Where every benchmark's data comes from (local, Hub copy, pinned upstream): one resolver."""

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
"""A GitHub file at a commit."""
Origin = Literal["local", "hub", "upstream"]


class DataSourceError(DataFileError):
    """Benchmark data that cannot be fetched or fails its checks (the message says the ways out)."""


class MissingDataFile(DataSourceError, FileNotFoundError):
    """A file the caller's ``data_dir`` argument should hold, or a data folder, that is missing."""


class ItemCountWarning(UserWarning):
    """A local or Hub copy of a file whose item count differs from the pinned upstream file's."""


class DataHashWarning(UserWarning):
    """A local or Hub copy of a file that differs from the pinned upstream file."""


@dataclass(frozen=True)
class Pin:
    """The SHA-256 digests of one pinned upstream file: its bytes and its JSON ``content``."""

    sha256: str
    content: str


def content_sha256(content: Content, path: str) -> str:
    """SHA-256 of a file's JSON content (a ``.jsonl`` as its list of records), formatting aside."""
    value = [record for _, record in content.jsonl()] if path.endswith(".jsonl") else content.json()
    canonical = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def record_key(record: Any) -> str:
    """A key equal for equal JSON records, whatever their key order; for :func:`check_unique`."""
    return json.dumps(record, sort_keys=True, ensure_ascii=False, default=str)


def check_unique(keyed: Iterable[tuple[str, Hashable]], source: str, kind: str = "record") -> None:
    """Refuse a repeated record or id: the validators' duplicate check of ``(where, key)``."""
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
    """The bytes of one benchmark file, in its upstream format, and where they came from."""

    data: bytes
    source: str
    origin: Origin
    path: Path | None = None

    def text(self) -> str:
        """The bytes as UTF-8 text (:class:`DataFileError` naming the source otherwise)."""
        try:
            return self.data.decode("utf-8")
        except UnicodeDecodeError as error:
            raise DataFileError(
                f"{self.source}: not UTF-8 text (byte {error.start}: {error.reason})"
            ) from error

    def json(self) -> Any:
        """The text as one JSON value (:class:`DataFileError` naming source and line otherwise)."""
        return parse_json(self.text(), self.source)

    def jsonl(self) -> list[tuple[int, dict[str, Any]]]:
        """The text as JSON Lines: ``(line number, object)`` for each non-blank line."""
        return list(parse_jsonl(self.text(), self.source))


#: Parses and checks a file's content; returns what the loader needs. It raises
#: ``ValueError`` (``DataFileError`` and the benchmarks' own errors are ones).
Validator = Callable[[Content], T]
#: Reads one file (upstream path) from a benchmark's Hub copy, in the upstream format.
HubReader = Callable[[HubSource, str], Content]


@dataclass(frozen=True)
class Fetched(Generic[T]):
    """What :func:`fetch` found: the validator's value, where it came from, its provenance."""

    value: T
    source: str
    origin: Origin
    path: Path | None
    provenance: Provenance


@dataclass(frozen=True)
class DataSource:
    """Where one benchmark's files come from, with the pinned files' item counts and digests."""

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
        """The upstream commit to read: the argument, :attr:`commit_env`, then the pin."""
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
    """Fetch a URL: the resolver's only network call (tests replace it)."""
    with urllib.request.urlopen(url, timeout=60) as response:  # noqa: S310 (pinned https URL)
        return response.read()


def load_hub_split(hub: HubSource, config: str) -> datasets.Dataset:
    """The ``test`` split of one config of a Hub copy (a local folder is always read afresh)."""
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
    """Resolve, check and return one benchmark file: local root, Hub copy, then pinned upstream."""
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
        if not content.data.strip():
            raise DataFileError(f"{content.source}: the file is empty")
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
    """How ``content`` compares with ``pin``; refuses a download or cache that differs."""
    digest = hashlib.sha256(content.data).hexdigest()
    if pin is None:
        check: Check = "unverified"
    elif digest == pin.sha256:
        check = "pinned"
    elif content.origin == "hub" and content_sha256(content, path) == pin.content:
        check = "same content"
    else:
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
