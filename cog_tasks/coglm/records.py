"""CogLM records and the data resolver.

The resolver tries, in order:

1. a local directory (argument, or ``$COG_TASKS_DATA``) holding
   ``coglm/<stage>/<file>.json`` exactly as upstream;
2. a Hub-shaped copy (argument, or ``$COG_TASKS_COGLM_HUB``): ``ORG/NAME``,
   ``ORG/NAME@REVISION`` or a folder written by ``cog-tasks data build coglm``;
3. the upstream files of WangXinglin/CogLM at a pinned commit, downloaded once
   into the cache. A download enters the cache only after it parsed and held
   the pinned file's item count; under ``HF_HUB_OFFLINE=1`` this step fails at
   once with the ways out instead of trying the network.

Duplicated distractors: 39 upstream items (38 in ``plan``, 1 in ``induc``) list
the same wrong option twice (32 items show 3 distinct texts among 4 options, 7
show 2). They are kept as published. :attr:`CogLMRecord.num_choices` is ``len(choices)``;
:attr:`CogLMRecord.num_distinct_choices` counts the distinct texts, the options
a guesser really has, and is what every frontend passes to the chance
correction (see :mod:`cog_tasks.coglm.metrics`).
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from cog_tasks.coglm.abilities import ABILITY_BY_CODE, Ability, resolve_codes
from cog_tasks.common.files import DataFileError, read_json, write_atomically
from cog_tasks.common.settings import (
    DATA_ENV,
    HubSource,
    cache_dir,
    hub_env,
    hub_source,
    local_data_dir,
    offline,
    parse_hub,
)

UPSTREAM_REPO = "WangXinglin/CogLM"
UPSTREAM_COMMIT = "0de1e1971568ed009c0ed7ed507e5486973e9492"
UPSTREAM_URL = f"https://raw.githubusercontent.com/{UPSTREAM_REPO}/{UPSTREAM_COMMIT}/dataset"
HUB_ENV = hub_env("coglm")
# Items per ability file at UPSTREAM_COMMIT; a download must match before it is cached.
UPSTREAM_ITEM_COUNTS: dict[str, int] = {
    "const": 50,
    "early": 100,
    "semio": 100,
    "empat": 100,
    "rever": 100,
    "conse": 110,
    "induc": 100,
    "deduc": 250,
    "propo": 100,
    "plan": 210,
}


class CogLMDataError(ValueError):
    """A CogLM file or item does not have the expected shape."""


@dataclass(frozen=True)
class CogLMRecord:
    """One normalized CogLM question.

    Attributes:
        id: Stable id ``<ability>-<index>`` (0-based position in the upstream file).
        ability: Ability code.
        stage: Piaget stage 1-4.
        question: Question text.
        choices: Candidate answers, in upstream order.
        answer: 0-based index of the correct choice.
    """

    id: str
    ability: str
    stage: int
    question: str
    choices: tuple[str, ...]
    answer: int

    @property
    def num_choices(self) -> int:
        """Number of candidate answers as listed, duplicates included."""
        return len(self.choices)

    @property
    def num_distinct_choices(self) -> int:
        """Number of distinct candidate texts: the options a guesser really has.

        It is what the chance correction uses. It is below ``num_choices`` for
        the 39 items with a duplicated distractor (module docstring).
        """
        return distinct_options(self.choices)

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict (choices as a list, both option counts included)."""
        row = asdict(self)
        row["choices"] = list(self.choices)
        row["num_choices"] = self.num_choices
        row["num_distinct_choices"] = self.num_distinct_choices
        return row


def distinct_options(options: Sequence[str]) -> int:
    """Number of distinct option texts (after stripping): the chance level is one over it."""
    return len({option.strip() for option in options})


def check_options(options: Any, answer: Any, where: str, field: str) -> None:
    """Check a list of option texts and a 0-based answer index into it.

    Args:
        options: The options (a list of at least 2 strings, none blank after stripping).
        answer: The index of the correct option.
        where: File and item (or line) quoted in errors.
        field: Name of the options' field, quoted in errors.

    Raises:
        CogLMDataError: Naming ``where`` when the options or the index are invalid.
    """
    if not isinstance(options, list) or not all(isinstance(c, str) for c in options):
        raise CogLMDataError(f"{where}: '{field}' must be a list of strings")
    if len(options) < 2:
        raise CogLMDataError(f"{where}: needs at least 2 {field}, has {len(options)}")
    blank = [index for index, option in enumerate(options) if not option.strip()]
    if blank:
        raise CogLMDataError(f"{where}: {field} {blank} are blank (0-based positions)")
    if isinstance(answer, bool) or not isinstance(answer, int):
        raise CogLMDataError(f"{where}: 'answer' must be an integer index, got {answer!r}")
    if not 0 <= answer < len(options):
        raise CogLMDataError(
            f"{where}: answer index {answer} out of range for {len(options)} {field}"
        )


def parse_item(item: Any, ability: Ability, index: int, source: str) -> CogLMRecord:
    """Validate one raw upstream item and normalize it.

    Args:
        item: The raw JSON object (``question``, ``candidates``, ``answer``).
        ability: Ability the file belongs to.
        index: 0-based position in the file; becomes part of the id.
        source: File name or URL, quoted in errors.

    Returns:
        The normalized record.

    Raises:
        CogLMDataError: Naming the source and item when a field is missing or invalid.
    """
    where = f"{source}, item {index}"
    if not isinstance(item, dict):
        raise CogLMDataError(f"{where}: expected an object, got {type(item).__name__}")
    missing = [key for key in ("question", "candidates", "answer") if key not in item]
    if missing:
        raise CogLMDataError(f"{where}: missing field(s) {missing}")
    question, candidates, answer = item["question"], item["candidates"], item["answer"]
    if not isinstance(question, str) or not question.strip():
        raise CogLMDataError(f"{where}: 'question' must be a non-empty string")
    check_options(candidates, answer, where, "candidates")
    return CogLMRecord(
        id=f"{ability.code}-{index:04d}",
        ability=ability.code,
        stage=ability.stage,
        question=question.strip(),
        choices=tuple(c.strip() for c in candidates),
        answer=answer,
    )


def parse_file_content(content: Any, ability: Ability, source: str) -> list[CogLMRecord]:
    """Validate a whole upstream file's JSON content.

    Raises:
        CogLMDataError: When the content is not a non-empty list or an item is invalid.
    """
    if not isinstance(content, list):
        raise CogLMDataError(f"{source}: expected a JSON list of items")
    if not content:
        raise CogLMDataError(f"{source}: holds no items (an empty list)")
    return [parse_item(item, ability, index, source) for index, item in enumerate(content)]


def _parse_path(path: Path, ability: Ability) -> list[CogLMRecord]:
    try:
        content = read_json(path)
    except DataFileError as error:
        raise CogLMDataError(str(error)) from error
    return parse_file_content(content, ability, str(path))


def load_local(ability: Ability, data_dir: Path) -> list[CogLMRecord]:
    """Load one ability from a local directory holding ``coglm/<stage>/<file>.json``."""
    path = data_dir / "coglm" / ability.relative_path
    if not path.is_file():
        raise FileNotFoundError(f"CogLM file for ability {ability.code!r} not found: {path}")
    return _parse_path(path, ability)


class CogLMDownloadError(OSError):
    """The pinned upstream file could not be fetched (offline, network error, bad content)."""


def _ways_out(url: str, reason: str) -> str:
    return (
        f"could not fetch the CogLM file {url} ({UPSTREAM_REPO} at commit {UPSTREAM_COMMIT}): "
        f"{reason}. Ways out: (1) set {DATA_ENV} to a folder holding "
        f"coglm/<stage_folder>/<file>.json as in the upstream dataset/ folder (for example "
        f"coglm/first_stage/exist.json); (2) set {HUB_ENV}=ORG/NAME[@REVISION] to a Hub copy, "
        "or to a folder written by `cog-tasks data build coglm`; (3) allow network access "
        "(HF_HUB_OFFLINE unset)."
    )


def download_upstream(ability: Ability) -> bytes:
    """Fetch one ability's file from the pinned commit and check it.

    The bytes must be UTF-8 JSON whose items all validate and whose count is
    :data:`UPSTREAM_ITEM_COUNTS` (an HTML error page or a truncated file fails).

    Raises:
        CogLMDownloadError: Offline, on a network error or on bad content; the
            message names the URL, the commit and the ways out.
    """
    url = f"{UPSTREAM_URL}/{ability.relative_path}"
    if offline():
        raise CogLMDownloadError(_ways_out(url, "HF_HUB_OFFLINE is set, so no download was tried"))
    try:
        with urllib.request.urlopen(url, timeout=60) as response:  # noqa: S310 (fixed https URL)
            payload = response.read()
    except (urllib.error.URLError, OSError) as error:
        raise CogLMDownloadError(_ways_out(url, f"{type(error).__name__}: {error}")) from error
    try:
        records = parse_file_content(json.loads(payload.decode("utf-8")), ability, url)
    except (UnicodeDecodeError, ValueError) as error:
        reason = f"the download is not the expected JSON ({error})"
        raise CogLMDownloadError(_ways_out(url, reason)) from error
    expected = UPSTREAM_ITEM_COUNTS[ability.code]
    if len(records) != expected:
        reason = f"the download holds {len(records)} items, the pinned file {expected}"
        raise CogLMDownloadError(_ways_out(url, reason))
    return payload


def load_upstream(ability: Ability) -> list[CogLMRecord]:
    """Load one ability from the pinned upstream commit, caching the checked file."""
    cached = cache_dir() / "coglm" / UPSTREAM_COMMIT / ability.relative_path
    if not cached.is_file():
        payload = download_upstream(ability)
        cached.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(cached, payload)
    try:
        return _parse_path(cached, ability)
    except CogLMDataError as error:
        raise CogLMDataError(
            f"{error}. The cached download is damaged: delete {cached} (or the whole "
            f"{cached.parents[1]} folder) and run again to fetch it anew."
        ) from error


def load_hub(ability: Ability, hub: HubSource | str) -> list[CogLMRecord]:
    """Load one ability from a Hub copy made by ``cog-tasks data build|push coglm``.

    Args:
        ability: The ability (its code is the config name; the split is ``test``).
        hub: A :class:`~cog_tasks.common.settings.HubSource`, or its text
            (``ORG/NAME[@REVISION]`` or a local folder).
    """
    import datasets

    source = hub if isinstance(hub, HubSource) else parse_hub(hub, "argument")
    # datasets caches a local folder under its name whatever its content, so a folder
    # rebuilt in place would read stale rows: folders are always read afresh.
    fresh = "force_redownload" if source.is_folder else None
    try:  # under HF_HUB_OFFLINE, datasets reads its cache only and never the network
        split = datasets.load_dataset(
            source.location,
            ability.code,
            split="test",
            revision=source.revision,
            download_mode=fresh,
        )
    except Exception as error:  # any Hub or cache failure gets the same advice
        offline_note = (
            " (HF_HUB_OFFLINE is set: only the local cache was read)" if offline() else ""
        )
        raise CogLMDownloadError(
            f"could not load config {ability.code!r}, split 'test' of the CogLM Hub copy "
            f"{source} (from {source.setting}){offline_note}: {type(error).__name__}: "
            f"{error}. Ways out: point {HUB_ENV} at a folder written by `cog-tasks data "
            f"build coglm`, or unset it and set {DATA_ENV} to a folder holding "
            "coglm/<stage_folder>/<file>.json."
        ) from error
    return [
        parse_item(
            {"question": row["question"], "candidates": row["choices"], "answer": row["answer"]},
            ability,
            index,
            f"{source} config {ability.code}",
        )
        for index, row in enumerate(split)
    ]


def load_records(
    abilities: str | Sequence[str] | None = None,
    data_dir: str | os.PathLike[str] | None = None,
    hub: str | None = None,
) -> list[CogLMRecord]:
    """Load CogLM records through the resolver (local dir, Hub, pinned upstream).

    Args:
        abilities: Ability codes to load (comma-separated or a list); all by default.
        data_dir: Local data directory; defaults to ``$COG_TASKS_DATA``.
        hub: Hub copy ``ORG/NAME[@REVISION]`` or a folder from ``cog-tasks data build
            coglm``; defaults to ``$COG_TASKS_COGLM_HUB``.

    Returns:
        Records in canonical ability order, then upstream order.
    """
    selected = resolve_codes(abilities)
    local = local_data_dir(data_dir)
    source = hub_source("coglm", hub)
    records: list[CogLMRecord] = []
    for ability in selected:
        if local is not None:
            records.extend(load_local(ability, local))
        elif source is not None:
            records.extend(load_hub(ability, source))
        else:
            records.extend(load_upstream(ability))
    return records


def records_by_ability(records: Iterable[CogLMRecord]) -> dict[str, list[CogLMRecord]]:
    """Group records by ability code, keeping the canonical ability order."""
    grouped: dict[str, list[CogLMRecord]] = {}
    for record in records:
        grouped.setdefault(record.ability, []).append(record)
    return {code: grouped[code] for code in ABILITY_BY_CODE if code in grouped}
