"""Our own models' real replies, labelled blind, kept as fixtures of the readers.

Each ``benchmarks/results/<reader>_reading_random.json`` holds replies of our runs with their
hand labels. A reply the reader read as its label must still read so, and no reply may read
as an answer where its label says ambiguous (readers that need only the reply).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cog_tasks.cogbench.parsing import parse_rating_answer
from cog_tasks.cogeval.parsing import read_final_answer
from cog_tasks.egosocial.beliefs import parse_grade
from cog_tasks.egosocial.number_guessing import parse_round_reply

RESULTS = Path(__file__).resolve().parents[1] / "benchmarks" / "results"
sys.path.insert(0, str(RESULTS.parent))
import reading_sample  # noqa: E402


def _guess(reply: str) -> dict[str, Any]:
    read = parse_round_reply(reply)
    return {"prediction": read.prediction, "choice": read.choice}


def _grade(reply: str) -> dict[str, Any]:
    grade = parse_grade(reply)
    return {"grade": None if grade is None else "C" if grade else "I"}


READ: dict[str, Callable[[str], dict[str, Any]]] = {
    "number_guessing": _guess,
    "cogbench_rating": lambda reply: {"rating": parse_rating_answer(reply).rating},
    "blackjack_grade": _grade,
}


def _replies(name: str) -> list[dict[str, Any]]:
    """The labelled replies of every sample of the reader (``<name>_reading_random*.json``)."""
    files = sorted(RESULTS.glob(f"{name}_reading_random*.json"))
    return [row for path in files for row in json.loads(path.read_text("utf-8"))["replies"]]


@pytest.mark.parametrize("name", [name for name in READ if _replies(name)])
def test_labelled_replies_still_read_as_labelled(name: str) -> None:
    rows = _replies(name)
    assert len(rows) >= 20
    changed, misread = [], []
    for row in rows:
        read = READ[name](row["reply"])
        label = row["label"]
        if row["agree"] and not all(reading_sample.field_agrees(read[f], label[f]) for f in label):
            changed.append(row["id"])
        if any(label[f] == "ambiguous" and read[f] is not None for f in label):
            misread.append(row["id"])
    assert (changed, misread) == ([], [])


def test_cogeval_labelled_replies_still_read_as_labelled() -> None:
    changed, misread = [], []
    for row in _replies("cogeval"):
        found = read_final_answer(row["reply"])
        read = found.text if found.problem is None else None
        if row["label"] != "one":
            agrees = read is None
        else:
            answer = reading_sample.normalise(row["label_answer"])
            agrees = read is not None and reading_sample.normalise(read) == answer
        if row["agree"] and not agrees:
            changed.append(row["id"])
        if row["label"] == "ambiguous" and read is not None:
            misread.append(row["id"])
    assert (changed, misread) == ([], [])
