"""benchmarks/reading_sample.py: labels of the chat readers, agreement, Hold'em's questions."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from cog_tasks.common.files import write_json_atomically
from cog_tasks.egosocial.holdem import ACTION_PROMPT, BELIEF_PROMPT, REASK_PROMPT, STYLE_PROMPT

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
import reading_sample  # noqa: E402


@pytest.mark.parametrize(
    ("read", "label", "agrees"),
    [
        (None, "none", True),
        (None, "ambiguous", True),
        (None, "B", False),
        ("B", "b", True),
        ("B", "ambiguous", False),
        (50, "50.0", True),
        (50, "40", False),
        ("call", "Call", True),
    ],
)
def test_a_field_agrees_with_nothing_where_none_or_ambiguous_else_the_same_answer(
    read: object, label: str, agrees: bool
) -> None:
    assert reading_sample.field_agrees(read, label) is agrees


def test_strata_are_the_value_read_or_the_fields_read() -> None:
    assert reading_sample._stratum({"answer": "C"}) == "C"
    assert reading_sample._stratum({"rating": None}) == "none"
    assert reading_sample._stratum({"prediction": 4, "choice": None}) == "prediction"
    assert reading_sample._stratum({"prediction": None, "choice": None}) == "none"


def test_holdem_prompts_are_told_apart_and_give_their_fields() -> None:
    belief = "Hand 1 of 2.\n\n" + BELIEF_PROMPT.format("x", "y", "z")
    kind, match = reading_sample._holdem_kind(belief)
    assert (kind, match.group("f1")) == ("beliefs", "y")
    kind, match = reading_sample._holdem_kind("news\n\n" + ACTION_PROMPT.format(legal="call, fold"))
    assert (kind, match.group("legal")) == ("action", "call, fold")
    reask = REASK_PROMPT.format(reply="I (maybe) call", legal="call, raise")
    kind, match = reading_sample._holdem_kind(reask)
    assert (kind, match.group("legal")) == ("reask", "call, raise")
    kind, match = reading_sample._holdem_kind(STYLE_PROMPT.format("p", "q", hands=2))
    assert (kind, match.group("f0")) == ("style", "p")


def test_join_counts_reads_where_ambiguous_and_disagreements(tmp_path: Path, monkeypatch) -> None:
    key = {
        "r001": {"model": "m", "sample": "s", "turn": "round1", "stratum": "prediction+choice",
                 "weight": 1.0, "outcome": {"prediction": 40, "choice": 30}},
        "r002": {"model": "m", "sample": "s", "turn": "round2", "stratum": "none",
                 "weight": 2.0, "outcome": {"prediction": None, "choice": None}},
    }  # fmt: skip
    blind = [{"id": "r001", "reply": "Prediction: 40; Choice: 30"}, {"id": "r002", "reply": "?"}]
    labels = {
        "r001": {"label": {"prediction": "40", "choice": "ambiguous"}, "note": "30 or 31"},
        "r002": {"prediction": "none", "choice": "None"},
    }
    for name, value in (("_key", key), ("_blind", blind), ("_labels", labels)):
        write_json_atomically(tmp_path / f"number_guessing{name}.json", value)
    # join reads each reply again from its log; this key has none: its readings stand
    monkeypatch.setattr(
        reading_sample,
        "_read_again",
        lambda key, reader: {i: {**e, "sampled_outcome": e["outcome"]} for i, e in key.items()},
    )
    result = reading_sample.join_reader(
        "number_guessing", tmp_path / "number_guessing_labels.json", tmp_path
    )
    assert result["reads_where_ambiguous"] == 1
    assert [row["id"] for row in result["disagreements"]] == ["r001"]
    assert result["overall"]["value"] == 0.5
    assert result["replies"][0]["note"] == "30 or 31"
