"""Score CogLM predictions made elsewhere: JSONL rows or the authors' raw outputs."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from cog_tasks.coglm.abilities import ABILITY_BY_CODE
from cog_tasks.coglm.extract import DEFAULT_EXTRACTOR, LETTERS, coerce_prediction
from cog_tasks.coglm.headlines import BENCHMARK, UNIT, declared_benchmark, item_record
from cog_tasks.coglm.metrics import ScoredItem, chance_count
from cog_tasks.coglm.records import CogLMDataError, check_options
from cog_tasks.coglm.rules import DEFAULT_CHANCE
from cog_tasks.common.files import iter_jsonl, read_json
from cog_tasks.common.results import RunResults
from cog_tasks.common.runs import RunIdentity, refuse_repeated_rows

REQUIRED_FIELDS = ("ability", "choices", "answer", "prediction")
RECORD_ID = re.compile(r"[a-z]{4,5}-\d{4}")
"""A CogLM record id (``plan-0007`` style: the ability code and a number)."""


def score_prediction(
    row: Any, where: str, extractor: str = DEFAULT_EXTRACTOR, chance: str = DEFAULT_CHANCE
) -> ScoredItem:
    """Validate one predictions row (``where``: ``file:line`` for errors) and score it."""
    if not isinstance(row, dict):
        raise CogLMDataError(f"{where}: expected a JSON object, got {type(row).__name__}")
    missing = [field for field in REQUIRED_FIELDS if field not in row]
    if missing:
        raise CogLMDataError(f"{where}: missing field(s) {missing}")
    ability, choices, answer = row["ability"], row["choices"], row["answer"]
    if ability not in ABILITY_BY_CODE:
        raise CogLMDataError(
            f"{where}: unknown ability {ability!r}; known: {', '.join(ABILITY_BY_CODE)}"
        )
    check_options(choices, answer, where, "choices")
    chosen = coerce_prediction(row["prediction"], choices, extractor)
    item_id = str(row.get("id") or f"line {where.rsplit(':', 1)[-1]}")
    return ScoredItem(
        ability, chance_count(choices, chance), chosen == answer, chosen is not None, item_id
    )


def predictions_run(
    items: Sequence[ScoredItem], source: Path, extractor: str, chance: str
) -> RunResults:
    """Scored predictions as an unchecked run (all record ids: the benchmark)."""
    ids = {item.id: item.ability for item in items}
    benchmark = declared_benchmark() if all(RECORD_ID.fullmatch(i) for i in ids) else {}
    declared = benchmark if set(ids) <= set(benchmark) else ids
    identity = RunIdentity.of(
        f"coglm predictions@{source.name}",
        "predictions",
        arguments={"extractor": extractor, "chance": chance},
    )
    protocol = f"predictions scored by the {extractor} extractor, chance {chance}"
    return RunResults(
        BENCHMARK,
        identity,
        UNIT,
        tuple(item_record(item) for item in items),
        declared,
        str(source),
        protocol,
    )


def _row_key(row: dict[str, Any]) -> tuple[str, str] | None:
    """What makes a predictions row one item: its ``id``, else its ``question`` (else unknown)."""
    if row.get("id"):
        return ("id", str(row["id"]))
    if isinstance(row.get("question"), str):
        return ("question", row["question"])
    return None


def read_predictions(
    path: Path, extractor: str = DEFAULT_EXTRACTOR, chance: str = DEFAULT_CHANCE
) -> list[ScoredItem]:
    """Read and score a predictions JSONL file; a bad, missing or repeated row names its lines."""
    rows = list(iter_jsonl(path, require_object=False))
    items = [score_prediction(row, f"{path}:{number}", extractor, chance) for number, row in rows]
    keys = ((f"{path}:{number}", _row_key(row)) for number, row in rows)
    refuse_repeated_rows(((where, key) for where, key in keys if key), str(path), "item")
    if not items:
        raise CogLMDataError(f"{path}: no predictions")
    return items


def is_authors_layout(data: object) -> bool:
    """Whether parsed JSON has the authors' outputs' shape (stage -> ability file -> items)."""
    return (
        isinstance(data, dict)
        and bool(data)
        and all(
            isinstance(abilities, dict)
            and all(isinstance(rows, list) for rows in abilities.values())
            for abilities in data.values()
        )
    )


def iter_authors_outputs(path: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """Yield ``(where, prediction row)`` per item of a raw-output file in the authors' layout."""
    by_stem = {ability.file_stem: ability.code for ability in ABILITY_BY_CODE.values()}
    data = read_json(path)
    if not isinstance(data, dict):
        raise CogLMDataError(f"{path}: expected an object of stages, got {type(data).__name__}")
    count = 0
    for stage, abilities in data.items():
        for stem, rows in (abilities or {}).items():
            if stem not in by_stem:
                raise CogLMDataError(f"{path}: {stage}/{stem} is not a CogLM ability file")
            for number, row in enumerate(rows):
                where = f"{path}: {stage}/{stem} item {number}"
                if not isinstance(row, dict) or str(row.get("answer", "")) not in LETTERS:
                    raise CogLMDataError(f"{where}: expected an answer letter")
                count += 1
                yield (
                    where,
                    {
                        "ability": by_stem[stem],
                        "choices": row.get("candidates"),
                        "answer": LETTERS.index(row["answer"]),
                        "prediction": row.get("predict"),
                        "id": f"{by_stem[stem]}-{number:04d}",
                        "question": str(row.get("question") or ""),
                    },
                )
    if not count:
        raise CogLMDataError(f"{path}: no items")


def read_authors_outputs(
    path: Path, extractor: str = DEFAULT_EXTRACTOR, chance: str = DEFAULT_CHANCE
) -> list[ScoredItem]:
    """Score a raw-output file in the authors' layout (their ``result/<model>/result.json``)."""
    return [
        score_prediction(prediction, where, extractor, chance)
        for where, prediction in iter_authors_outputs(path)
    ]
