"""CogLM records, from the local data folder, a Hub copy or the pinned upstream files."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from functools import partial
from typing import Any

from cog_tasks.coglm.abilities import ABILITY_BY_CODE, Ability, resolve_codes
from cog_tasks.common.files import DataFileError, package_json
from cog_tasks.common.settings import HubSource
from cog_tasks.common.sources import (
    Content,
    DataSource,
    DataSourceError,
    Pin,
    check_unique,
    fetch,
    load_hub_split,
    record_key,
)

UPSTREAM_REPO = "WangXinglin/CogLM"
UPSTREAM_COMMIT = "0de1e1971568ed009c0ed7ed507e5486973e9492"
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
# Records the pinned upstream files repeat (later index -> the earlier one it copies).
# They are part of the authors' 1,220 items and kept; any other repeat is refused.
UPSTREAM_REPEATS: dict[str, dict[int, int]] = {
    "early": {43: 38},
    "semio": {90: 80, 91: 81, 92: 82, 93: 83, 94: 84},
}
ABILITY_BY_PATH: dict[str, Ability] = {a.relative_path: a for a in ABILITY_BY_CODE.values()}


class CogLMDataError(DataFileError):
    """A CogLM file or item does not have the expected shape (one line naming the file)."""


@dataclass(frozen=True)
class CogLMRecord:
    """Item ``<ability>-<index>``: choices unstripped, in upstream order; the answer 0-based."""

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
        """Number of distinct candidate texts: the options a guesser really has."""
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
    """Check option texts (at least 2, none blank) and a 0-based answer index, naming ``where``."""
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
    """Validate one raw upstream item and normalize it (``index`` becomes part of the id)."""
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
    record_id = f"{ability.code}-{index:04d}"
    return CogLMRecord(
        record_id, ability.code, ability.stage, question.strip(), tuple(candidates), answer
    )


def parse_file_content(content: Any, ability: Ability, source: str) -> list[CogLMRecord]:
    """Validate a whole upstream file's JSON content (a non-empty list of items)."""
    if not isinstance(content, list):
        raise CogLMDataError(f"{source}: expected a JSON list of items")
    if not content:
        raise CogLMDataError(f"{source}: holds no items (an empty list)")
    return [parse_item(item, ability, index, source) for index, item in enumerate(content)]


def check_content(content: Content, ability: Ability) -> list[CogLMRecord]:
    """Parse and check one ability file (no repeats but :data:`UPSTREAM_REPEATS`, pinned counts)."""
    try:
        data = content.json()
        records = parse_file_content(data, ability, content.source)
        known = UPSTREAM_REPEATS.get(ability.code, {})
        check_unique(
            (
                (f"item {index}", record_key(item))
                for index, item in enumerate(data)
                if not (index in known and data[known[index]] == item)
            ),
            content.source,
        )
    except CogLMDataError:
        raise
    except DataFileError as error:
        raise CogLMDataError(str(error)) from error
    return records


def read_hub_file(hub: HubSource, path: str) -> Content:
    """One ability file from a Hub copy (config: the ability, split ``test``), as upstream JSON."""
    ability = ABILITY_BY_PATH[path]
    items = [
        {"question": row["question"], "candidates": row["choices"], "answer": row["answer"]}
        for row in load_hub_split(hub, ability.code)
    ]
    data = json.dumps(items, ensure_ascii=False).encode("utf-8")
    return Content(data, f"{hub} config {ability.code}", "hub")


#: SHA-256 of each ability file at :data:`UPSTREAM_COMMIT` (its bytes, and its JSON content),
#: from ``upstream_sha256.json`` next to this module.
UPSTREAM_SHA256: dict[str, Pin] = {
    path: Pin(**digests)
    for path, digests in package_json("cog_tasks.coglm", "upstream_sha256.json").items()
}
SOURCE = DataSource(
    benchmark="coglm",
    title="CogLM",
    repo=UPSTREAM_REPO,
    commit=UPSTREAM_COMMIT,
    url_template="https://raw.githubusercontent.com/{repo}/{commit}/dataset/{path}",
    read_hub=read_hub_file,
    hub_copy="a folder written by `cog-tasks data build coglm`",
    describe=lambda path: f"CogLM file {path} (ability {ABILITY_BY_PATH[path].code!r})",
    item_counts={
        ABILITY_BY_CODE[code].relative_path: count for code, count in UPSTREAM_ITEM_COUNTS.items()
    },
    pins=UPSTREAM_SHA256,
)
#: Deprecated alias of :class:`~cog_tasks.common.sources.DataSourceError`, removed in the
#: next release.
CogLMDownloadError = DataSourceError


def fetch_ability(
    ability: Ability, data_dir: str | os.PathLike[str] | None = None, hub: str | None = None
) -> list[CogLMRecord]:
    """Load one ability through :func:`cog_tasks.common.sources.fetch`."""
    validate = partial(check_content, ability=ability)
    return fetch(SOURCE, ability.relative_path, validate, data_dir=data_dir, hub=hub).value


def load_records(
    abilities: str | Sequence[str] | None = None,
    data_dir: str | os.PathLike[str] | None = None,
    hub: str | None = None,
) -> list[CogLMRecord]:
    """Load CogLM records (canonical ability order, then upstream order) through the resolver.

    ``hub`` is ``ORG/NAME[@REVISION]`` or a built folder (default ``$COG_TASKS_COGLM_HUB``).
    """
    return [
        record
        for ability in resolve_codes(abilities)
        for record in fetch_ability(ability, data_dir, hub)
    ]


def records_by_ability(records: Iterable[CogLMRecord]) -> dict[str, list[CogLMRecord]]:
    """Group records by ability code, keeping the canonical ability order."""
    grouped: dict[str, list[CogLMRecord]] = {}
    for record in records:
        grouped.setdefault(record.ability, []).append(record)
    return {code: grouped[code] for code in ABILITY_BY_CODE if code in grouped}
