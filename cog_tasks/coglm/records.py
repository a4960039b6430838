"""CogLM records and the data resolver.

The resolver tries, in order:

1. a local directory (argument, or ``$COG_TASKS_DATA``) holding
   ``coglm/<stage>/<file>.json`` exactly as upstream;
2. a Hugging Face Hub dataset (argument, or ``$COG_TASKS_COGLM_HUB`` as
   ``ORG/NAME`` or ``ORG/NAME@REVISION``) built by :mod:`cog_tasks.hf_datasets`;
3. the upstream files of WangXinglin/CogLM at a pinned commit, downloaded once
   into the cache.
"""

from __future__ import annotations

import json
import os
import urllib.request
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from cog_tasks.coglm.abilities import ABILITY_BY_CODE, Ability, resolve_codes
from cog_tasks.files import write_atomically
from cog_tasks.settings import cache_dir, local_data_dir

UPSTREAM_REPO = "WangXinglin/CogLM"
UPSTREAM_COMMIT = "0de1e1971568ed009c0ed7ed507e5486973e9492"
UPSTREAM_URL = f"https://raw.githubusercontent.com/{UPSTREAM_REPO}/{UPSTREAM_COMMIT}/dataset"
HUB_ENV = "COG_TASKS_COGLM_HUB"


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
        """Number of candidate answers."""
        return len(self.choices)

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict (choices as a list, ``num_choices`` included)."""
        row = asdict(self)
        row["choices"] = list(self.choices)
        row["num_choices"] = self.num_choices
        return row


def check_options(options: Any, answer: Any, where: str, field: str) -> None:
    """Check a list of option texts and a 0-based answer index into it.

    Args:
        options: The options (must be a list of at least 2 strings).
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
        CogLMDataError: When the content is not a list or an item is invalid.
    """
    if not isinstance(content, list):
        raise CogLMDataError(f"{source}: expected a JSON list of items")
    return [parse_item(item, ability, index, source) for index, item in enumerate(content)]


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise CogLMDataError(f"{path}: not valid JSON ({error})") from error


def load_local(ability: Ability, data_dir: Path) -> list[CogLMRecord]:
    """Load one ability from a local directory holding ``coglm/<stage>/<file>.json``."""
    path = data_dir / "coglm" / ability.relative_path
    if not path.is_file():
        raise FileNotFoundError(f"CogLM file for ability {ability.code!r} not found: {path}")
    return parse_file_content(_read_json(path), ability, str(path))


def load_upstream(ability: Ability) -> list[CogLMRecord]:
    """Load one ability from the pinned upstream commit, caching the file."""
    cached = cache_dir() / "coglm" / UPSTREAM_COMMIT / ability.relative_path
    if not cached.is_file():
        url = f"{UPSTREAM_URL}/{ability.relative_path}"
        with urllib.request.urlopen(url, timeout=60) as response:  # noqa: S310 (fixed https URL)
            payload = response.read()
        cached.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(cached, payload)
    return parse_file_content(_read_json(cached), ability, str(cached))


def load_hub(ability: Ability, hub: str) -> list[CogLMRecord]:
    """Load one ability's split from a Hub dataset made by ``cog-tasks data push``.

    Args:
        ability: The ability (its code is the split name).
        hub: ``ORG/NAME`` or ``ORG/NAME@REVISION``.
    """
    import datasets

    repo_id, _, revision = hub.partition("@")
    split = datasets.load_dataset(repo_id, split=ability.code, revision=revision or None)
    records = []
    for index, row in enumerate(split):
        record = parse_item(
            {"question": row["question"], "candidates": row["choices"], "answer": row["answer"]},
            ability,
            index,
            f"{hub} split {ability.code}",
        )
        records.append(record)
    return records


def load_records(
    abilities: str | Sequence[str] | None = None,
    data_dir: str | os.PathLike[str] | None = None,
    hub: str | None = None,
) -> list[CogLMRecord]:
    """Load CogLM records through the resolver (local dir, Hub, pinned upstream).

    Args:
        abilities: Ability codes to load (comma-separated or a list); all by default.
        data_dir: Local data directory; defaults to ``$COG_TASKS_DATA``.
        hub: Hub dataset ``ORG/NAME[@REVISION]``; defaults to ``$COG_TASKS_COGLM_HUB``.

    Returns:
        Records in canonical ability order, then upstream order.
    """
    selected = resolve_codes(abilities)
    local = local_data_dir(data_dir)
    hub = hub or os.environ.get(HUB_ENV) or None
    records: list[CogLMRecord] = []
    for ability in selected:
        if local is not None:
            records.extend(load_local(ability, local))
        elif hub:
            records.extend(load_hub(ability, hub))
        else:
            records.extend(load_upstream(ability))
    return records


def records_by_ability(records: Iterable[CogLMRecord]) -> dict[str, list[CogLMRecord]]:
    """Group records by ability code, keeping the canonical ability order."""
    grouped: dict[str, list[CogLMRecord]] = {}
    for record in records:
        grouped.setdefault(record.ability, []).append(record)
    return {code: grouped[code] for code in ABILITY_BY_CODE if code in grouped}
