"""Intervals over the right unit, reports that keep runs apart, references on the same items."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai.log import EvalLog

from cog_tasks.common.logs import run_identity
from cog_tasks.common.results import ResultsError
from cog_tasks.common.scripted import ScriptedReplies, run_chance_model
from cog_tasks.egosocial.inspect import (
    egosocial_holdem,
    egosocial_number_guessing,
    egosocial_static,
    trivial,
)
from cog_tasks.egosocial.inspect.chance import ChanceAnswerer
from cog_tasks.egosocial.inspect.headlines import headlines
from cog_tasks.egosocial.inspect.report import build_report
from cog_tasks.egosocial.paper import PAPER_ROWS
from cog_tasks.egosocial.report import Cell, Report, summary_markdown


class AlwaysLetter(ScriptedReplies):
    """Answers every multiple-choice prompt with one letter."""

    model_name = "mockllm/always"

    def __init__(self, letter: str) -> None:
        self.letter = letter

    def reply_to(self, messages, config) -> str:  # noqa: ANN001
        return f"ANSWER: {self.letter}"


def test_a_proportion_cell_gets_wilson_over_enough_items_and_none_over_few() -> None:
    cell = Cell("t", "row", "all", dict(zip("abcd", (1.0, 0.0, 0.0, 0.0), strict=True)), "item")
    few = cell.interval()
    assert few.format() == "0.250 [no interval: 4 items]"
    values = {f"i{k}": float(k % 4 == 0) for k in range(12)}
    interval = Cell("t", "row", "all", values, "item").interval()
    assert interval.method == "wilson" and interval.n == 12 and interval.value == 0.25
    assert interval.low < 0.25 < interval.high


def test_a_ratio_cell_resamples_matches_not_hands() -> None:
    pairs = {"m0": (1.0, 5.0), "m1": (4.0, 5.0), "m2": (0.0, 0.0)}
    cell = Cell("t", "row", "beliefs", pairs, "match")
    interval = cell.interval()
    assert interval.n == 2 and interval.value == pytest.approx(0.5)
    assert set(cell.counted()) == {"m0", "m1"}  # a match asked nothing adds nothing
    text = summary_markdown(Report(cells=[cell]))
    assert "0.500 [no interval: 2 matches]" in text and "unit: match" in text


def test_paper_rows_use_headline_names() -> None:
    measures = {row.measure for row in PAPER_ROWS}
    assert measures == {f"number_guessing_hit_rate_L{level}" for level in (1, 2, 3)}
    claude = {row.measure: row.value for row in PAPER_ROWS if row.model.startswith("Claude")}
    assert claude["number_guessing_hit_rate_L3"] == 0.4
    assert all(0 <= row.value <= 1 and row.differs for row in PAPER_ROWS)


@pytest.mark.slow
def test_circular_run_and_always_letter_rows_sit_on_the_same_items(tmp_path: Path) -> None:
    logs = [
        run_chance_model(
            egosocial_static(circular=circular), AlwaysLetter("D"), str(tmp_path), limit=12
        )
        for circular in (False, True)
    ]
    report = build_report(logs)
    rows = {cell.row for cell in report.cells if not cell.reference}
    assert len(rows) == 2  # different identities are never one row
    found = {(c.row, c.column): c.interval().value for c in report.cells}
    single = next(r for r in rows if "circular=false" in r)
    circular = next(r for r in rows if "circular=true" in r)
    # an always-D answerer scores what the always-D reference row says, on the same items
    assert found[(single, "all")] == found[(f"{single} · always D", "all")]
    assert found[(circular, "circular all")] == 0.0
    assert found[(circular, "all")] == found[(single, "all")]
    [static] = headlines(logs[1])[1:]
    assert static.measure == "static_circular_accuracy_authors" and static.interval.n == 12
    # a --limit run is partial against the items its arguments declare
    assert static.scale == "raw" and static.coverage.missing == 59 - 12


@pytest.mark.slow
def test_games_are_the_unit_of_number_guessing_and_holdem(tmp_path: Path) -> None:
    def guessing(seed: int) -> EvalLog:
        return run_chance_model(
            egosocial_number_guessing(level=1, rounds=3, games=4),
            ChanceAnswerer(seed=seed),
            str(tmp_path),
            epochs=2,
        )

    first, second = guessing(0), guessing(1)
    [hit, hit_l1] = headlines(first)  # the win rate is no headline
    # four games, two epochs each: four units, each the mean of its epochs
    assert hit.measure == "number_guessing_hit_rate" and hit.interval.n == 4
    assert hit_l1.measure == "number_guessing_hit_rate_L1" and hit_l1.units == hit.units
    assert hit.interval.unit == "game" and len(hit.units) == 4
    assert hit.coverage.epochs == 2 and not hit.coverage.partial
    # four games are below SMALL_N: no interval, and it says why
    assert not hit.interval.defined and hit.interval.reason == "4 games"
    holdem = run_chance_model(
        egosocial_holdem(opponent="aggressive", hands=3, matches=10),
        ChanceAnswerer(seed=0),
        str(tmp_path),
    )
    style, beliefs = headlines(holdem)
    assert style.interval.n == 10 and style.interval.unit == "match"
    assert style.interval.defined  # ten matches: an interval
    assert all(isinstance(value, tuple) for value in beliefs.units.values())
    report = build_report([first, holdem, second])
    # the win rate is flagged by what a constant Choice: 1 wins on the same games
    assert any("a constant 'Prediction: 50; Choice: 1' wins 1.000" in n for n in report.notes)
    # paired gaps per match: model minus ideal observer, model minus majority class
    gaps = {c.column: c for c in report.cells if "−" in c.column}
    assert set(gaps) == {
        f"{q} − {r}" for q in ("holding", "style") for r in ("ideal observer", "majority class")
    }
    assert gaps["holding − ideal observer"].values.keys() == set(s.id for s in holdem.samples)
    gap = gaps["style − ideal observer"].interval()
    assert gap.n == 10 and -1 <= gap.low <= gap.value <= 0  # chance never beats it
    assert not any("uninformative" in note for note in report.notes)  # rules: the default
    rows = {c.row for c in report.cells if c.table.startswith("Number") and not c.reference}
    assert len(rows) == 2  # two seeds: two rows, labelled apart
    pooled = build_report([first, second], pool_seeds=True)
    assert len({c.row for c in pooled.cells if not c.reference}) == 1
    assert "pooled 2 runs" in pooled.notes[0]
    [pooled_hit] = [c for c in pooled.cells if c.column == "L1 hit rate" and not c.reference]
    assert pooled_hit.interval().n == 4 and pooled_hit.coverage.epochs == 4
    assert build_report([first, first]) == build_report([first])  # a copy is read once
    references = {c.row.split(" · ")[-1] for c in report.cells if c.reference}
    assert {"always yes", "always no", "always A", "ideal observer"} <= references
    # the ideal observer and chance sit on the model row's matches and hands
    cells = {(c.row.split(" · ")[-1], c.column): c for c in report.cells if "Hold" in c.table}
    model = next(c for c in report.cells if c.column == "holding" and not c.reference)
    for name in ("ideal observer", "chance (expected)"):
        assert cells[(name, "holding")].values.keys() == model.values.keys()
        assert [v[1] for v in cells[(name, "holding")].values.values()] == [
            v[1] for v in model.values.values()
        ]
    assert cells[("chance (expected)", "holding")].interval().value == pytest.approx(1 / 3)
    assert cells[("chance (expected)", "style")].interval().value == 0.5
    assert cells[("ideal observer", "style")].interval().value >= 0.5
    # the reference games on the same games: 50 hits every round of the Level 1 game that
    # opens with 50 (game 0; games 1-3 open with 70, 67 and 53), 1 wins every round
    found = {(c.row, c.column): c.interval() for c in pooled.cells}
    (row,) = {c.row for c in pooled.cells if not c.reference}
    hits = found[(f"{row} · constant prediction 50", "L1 hit rate")]
    wins = found[(f"{row} · constant lowest choice", "win rate")]
    assert (hits.value, hits.n, wins.value, wins.n) == (0.25, 4, 1.0, 4)
    # choosing 50 ties the 50 of game 0 and wins against the three higher openings
    assert found[(f"{row} · constant prediction 50", "win rate")].value == 0.75
    # the registry's trivial strategies score exactly the model row's units, with the values
    # of the report's reference rows
    name = f"{row} · constant prediction 50"
    reference = next(c for c in pooled.cells if c.row == name and c.column == "hit rate")
    mine = trivial.guess_constant_50(list(hit.units), run_identity(first))
    assert mine["number_guessing_hit_rate"] == dict(reference.values)
    played = trivial.always_call(list(style.units), run_identity(holdem))
    assert played["holdem_style_accuracy"].keys() == style.units.keys()
    assert played["holdem_belief_accuracy"].keys() == style.units.keys()


@pytest.mark.slow
def test_an_errored_match_is_out_of_every_number(tmp_path: Path) -> None:
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import get_model

    def fault(messages, tools, tool_choice, config):  # noqa: ANN001, ANN202
        raise RuntimeError("provider fault")

    (log,) = inspect_eval(
        egosocial_holdem(opponent="aggressive", hands=1, opponents="dqn"),
        model=get_model("mockllm/model", custom_outputs=fault, memoize=False),
        log_dir=str(tmp_path),
        fail_on_error=False,
        display="none",
    )
    # Errored samples are out of every number, as in the log's metrics: nothing is left.
    with pytest.raises(ResultsError, match="every match errored; nothing to score"):
        headlines(log)
