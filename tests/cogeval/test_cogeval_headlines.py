"""CogEval profile interface: headlines of a chance run, the paper's rows, checked parameters."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cog_tasks.cogeval.inspect.chance import ChanceAnswerer, chance_answerer
from cog_tasks.cogeval.inspect.cogeval import cogeval, parse_temperatures
from cog_tasks.cogeval.paper import PAPER_ROWS, TABLE3_MEANS, condition_measure
from cog_tasks.common.generation import sampling_settings
from cog_tasks.common.scripted import run_chance_model


def test_paper_rows_are_fractions_with_their_source() -> None:
    assert len(PAPER_ROWS) == 132  # 15 conditions x 9 LLMs, 3 empty cells of Bard
    gpt4 = {row.measure: row.value for row in PAPER_ROWS if row.model == "gpt-4-32k"}
    assert gpt4["success_1steppath"] == 0.99
    assert gpt4["success_policyreval"] == 0.21
    for row in PAPER_ROWS:
        assert 0.0 <= row.value <= 1.0
        assert re.fullmatch(r"[a-z0-9_]+", row.measure)
        assert row.source == "CogEval Table 3" and row.protocol and row.differs
    assert {condition_measure(name) for name in TABLE3_MEANS} == {r.measure for r in PAPER_ROWS}


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"temperatures": "x"}, "'x' is not a number; valid: numbers from 0 to 2"),
        ({"temperatures": "3"}, "3 is out of range"),
        ({"temperatures": "0,0"}, "is empty or repeats"),
        ({"cot": "bfss"}, "valid: none, bfs, dfs"),
        ({"seed": "x"}, "valid: an integer >= 0"),
        ({"seed": -1}, "valid: an integer >= 0"),
        ({"max_tokens": 0}, "valid: an integer >= 1, or unset"),
        ({"design": "tabl2"}, "valid: all, paper"),
        ({"graphs": "n8line"}, "valid:"),
    ],
)
def test_bad_parameters_are_refused_when_the_task_is_built(
    arguments: dict[str, object], message: str
) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        cogeval(**arguments)


def test_temperatures_parse_from_every_form() -> None:
    assert parse_temperatures(None) == [0.0, 0.5, 1.0]
    assert parse_temperatures(0) == [0.0]
    assert parse_temperatures("0, 1") == [0.0, 1.0]


def test_temperature_zero_is_greedy_on_every_provider() -> None:
    assert sampling_settings(0.0, "hf") == {"top_k": 1}  # hf samples at temperature 0
    assert sampling_settings(0.0, "openai") == {"temperature": 0.0}
    assert sampling_settings(0.5, "hf") == {"temperature": 0.5}


@pytest.mark.slow
def test_headlines_of_a_chance_run_carry_intervals_and_task_units(tmp_path: Path) -> None:
    from cog_tasks.cogeval.inspect.headlines import headlines

    arguments = {"graphs": "n7line", "domains": "ordRooms,socialTies", "temperatures": "0,1"}
    answerer = chance_answerer(arguments, seed=3)
    assert isinstance(answerer, ChanceAnswerer) and answerer.seed == 3
    log = run_chance_model(cogeval(**arguments), answerer, str(tmp_path))
    rows = {headline.measure: headline for headline in headlines(log)}
    overall = rows["success"]
    tasks = {sample.metadata["task"] for sample in log.samples}  # the paper's 9 per domain
    assert len(tasks) == 18 and len(log.samples) == 2 * 38  # 38 items, two temperatures
    assert overall.interval.unit == "task" and overall.interval.n == 18 == len(overall.units)
    assert overall.interval.low < overall.interval.value < overall.interval.high
    assert sum(dialogs for _, dialogs in overall.units.values()) == len(log.samples)
    successes = sum(num for num, _ in overall.units.values())
    assert successes / len(log.samples) == pytest.approx(overall.interval.value)
    assert "n7line.ordRooms.valuePath" in overall.units  # a published task (the default)
    # one condition has two tasks here: below 10 units there is no interval, and it says why
    by_condition = rows["success_valuepath"].interval
    assert by_condition.n == 2 and by_condition.method == "none"
    assert by_condition.bounds_text() == "[no interval: 2 tasks]"
    assert dict(overall.run.arguments)["temperatures"] == "0,1"
    metrics = log.results.scores[0].metrics
    assert {"success", "success_ci_low", "success_ci_high", "no_answer_ci_high"} <= set(metrics)
    assert next(iter(metrics)) == "success"
    assert metrics["success"].value == pytest.approx(overall.interval.value)


@pytest.mark.slow
def test_report_keeps_cot_runs_apart_and_puts_chance_on_the_same_tasks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from inspect_ai import eval as inspect_eval

    from cog_tasks.cli import main
    from cog_tasks.common.scripted import scripted_output

    logs = tmp_path / "logs"
    for cot in ("none", "bfs"):
        arguments = {
            "graphs": "n7line",
            "domains": "ordRooms",
            "temperatures": "0",
            "cot": cot,
            "source": "generated",
        }
        run_chance_model(cogeval(**arguments), chance_answerer(arguments, seed=1), str(logs))
    model_task = cogeval(
        graphs="n7line",
        domains="ordRooms",
        conditions="valuePath",
        temperatures=0,
        source="generated",
    )
    inspect_eval(
        model_task,
        model="mockllm/model",
        model_args={"custom_outputs": [scripted_output("Answer: room 2")]},
        log_dir=str(logs),
        display="none",
    )
    assert main(["cogeval", "report", "--log", str(logs), "--out", str(tmp_path), "--json"]) == 0
    rows = {row["run"]: row for row in json.loads(capsys.readouterr().out)["rows"]}
    chance_rows = [run for run in rows if run.startswith("mockllm/chance")]
    assert len(chance_rows) == 2 and {rows[run]["cot"] for run in chance_rows} == {"none", "bfs"}
    [model] = [row for row in rows.values() if row["model"] == "mockllm/model"]
    assert model["success"] == 1.0 and model["tasks"] == 1
    assert model["chance"]["tasks"] == model["chance"]["of_tasks"] == 1  # valuePath alone
    assert "cot=none" in model["chance"]["run"]
    # One task solved in every dialog: below 10 tasks no interval, never a point.
    assert model["success_ci"] == [None, None]
    assert all(
        low is None or low <= rows[run]["success"] <= high
        for run in chance_rows
        for low, high in [rows[run]["success_ci"]]
    )
    assert (tmp_path / "success_by_run.png").is_file()


def test_runs_of_two_seeds_stay_apart_unless_pooled_and_then_say_so() -> None:
    from cog_tasks.cogeval.headlines import (
        Declared,
        TaskFacts,
        checked_runs,
        dialog_key,
        dialog_record,
        run_results,
    )
    from cog_tasks.common.runs import RunIdentity

    facts = TaskFacts("n7line", "ordRooms", "valuePath")
    declared = Declared.of([("i1", "t1", facts, 0.0), ("i2", "t1", facts, 0.0)])
    runs = []
    for seed, score in ((0, 1.0), (1, 0.0)):
        records = [
            dialog_record("t1", dialog_key(item, 0.0), "valuePath", score=score, failure_mode=None)
            for item in ("i1", "i2")
        ]
        identity = RunIdentity.of("cogeval@4.0.0", "m", seed=seed)
        runs.append((run_results(identity, records, declared, f"log{seed}", ""), declared))
    apart = checked_runs(runs)
    assert [run.label for run in apart] == ["m seed=0", "m seed=1"]
    assert [run.rate().value for run in apart] == [1.0, 0.0]
    (pooled,) = checked_runs(runs, pool_seeds=True)
    assert pooled.rate().value == 0.5 and pooled.coverage.epochs == 2
    assert pooled.note().startswith("pooled 2 runs of one identity (seeds: 0, 1)")
