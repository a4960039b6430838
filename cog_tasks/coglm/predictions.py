"""Score CogLM predictions made elsewhere (another harness, an API run).

Each line of a predictions file is a JSON object::

    {"ability": "plan", "choices": ["...", "..."], "answer": 1, "prediction": "B"}

``answer`` is the 0-based index of the correct choice; ``prediction`` is a
0-based index, a letter, or free text that :func:`coerce_prediction` reads.
A prediction that names no single option counts as wrong and as invalid.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cog_tasks.coglm.abilities import ABILITY_BY_CODE
from cog_tasks.coglm.extract import coerce_prediction
from cog_tasks.coglm.records import CogLMDataError, check_options, distinct_options
from cog_tasks.metrics.coglm import ScoredItem

REQUIRED_FIELDS = ("ability", "choices", "answer", "prediction")


def score_prediction(row: Any, where: str) -> ScoredItem:
    """Validate one predictions row and score it.

    Args:
        row: The parsed JSON value of the line.
        where: ``file:line`` quoted in errors.

    Raises:
        CogLMDataError: Naming ``where`` when a field is missing or invalid.
    """
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
    chosen = coerce_prediction(row["prediction"], choices)
    return ScoredItem(
        ability=ability,
        num_choices=distinct_options(choices),
        correct=chosen == answer,
        valid=chosen is not None,
    )


def read_predictions(path: Path) -> list[ScoredItem]:
    """Read and score a predictions JSONL file (blank lines are skipped).

    Raises:
        FileNotFoundError: If the file does not exist.
        CogLMDataError: Naming the file and line of the first malformed line, or
            when the file holds no predictions.
    """
    items = []
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            where = f"{path}:{number}"
            try:
                row = json.loads(line)
            except json.JSONDecodeError as error:
                raise CogLMDataError(f"{where}: not valid JSON ({error.msg})") from error
            items.append(score_prediction(row, where))
    if not items:
        raise CogLMDataError(f"{path}: no predictions")
    return items
