"""Experiment 2 (the paper's Fig. 3): the task selection, the summary and the exp2 command."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from cog_tasks.cli import main
from cog_tasks.cogeval.experiment2 import QUESTIONS, experiment2_summary
from cog_tasks.cogeval.generator import generate_items
from cog_tasks.cogeval.headlines import CogEvalRun, checked_runs
from cog_tasks.cogeval.inspect.cogeval import cogeval
from cog_tasks.cogeval.paper import EXPERIMENT2_FINDINGS
from cog_tasks.cogeval.published import select_published
from cog_tasks.cogeval.results import score_table_runs


def test_experiment_2_selects_the_nine_items_under_every_instruction() -> None:
    tasks = select_published(experiment=2)
    assert len(tasks) == 9
    assert {(task.condition, task.cot) for task in tasks} == {
        (question, cot) for question in QUESTIONS for cot in ("none", "bfs", "dfs")
    }
    assert len(select_published(experiment=1, unscorable=True)) == 1485  # the prompts of 240 tasks
    assert len(select_published(experiment=1)) == 1467  # less the audit's 18 unscorable items
    assert not any(task.family == "Experiment2" for task in select_published(experiment=1))
    generated = generate_items(graphs=["n15star"], domains=["ordRooms"], experiment=2)
    assert len(generated) == 9 and {item.cot for item in generated} == {"none", "bfs", "dfs"}
    with pytest.raises(ValueError, match="experiment=2, which runs every variant"):
        select_published(experiment=2, cot="bfs")
    with pytest.raises(ValueError, match="experiment: 3 is not valid"):
        cogeval(experiment=3)


def _runs(folder: Path, successes: dict[tuple[str, str], list[float]]) -> list[CogEvalRun]:
    """The checked runs of a score table of Experiment 2 replies, each value one repeat."""
    rows = [
        {
            "run": "model-a",
            "task": f"n15star.ordRooms.{question}.{cot}",
            "model": "model-a",
            "graph": "n15star",
            "domain": "ordRooms",
            "condition": question,
            "temperature": 0.0,
            "cot": cot,
            "score": value,
            "max_score": 1.0,
        }
        for (question, cot), values in successes.items()
        for value in values
    ]
    path = folder / "exp2.csv"
    pd.DataFrame(rows).to_csv(path, index=False)
    return checked_runs(score_table_runs(path))


def test_summary_cells_are_over_replies_and_pooled_rows_over_tasks(tmp_path: Path) -> None:
    cells = {(q, c): [1.0, 0.0, 0.0, 1.0] for q in QUESTIONS for c in ("none", "bfs")}
    summary = experiment2_summary(_runs(tmp_path, cells))
    first = summary[0]
    assert (first["question"], first["cot"], first["replies"]) == (QUESTIONS[0], "none", 4)
    assert first["success"] == 0.5 and first["unit"] == "reply" and first["method"] == "none"
    pooled = [row for row in summary if row["question"] == "all"]
    assert [row["cot"] for row in pooled] == ["none", "bfs"]
    assert all(row["unit"] == "task" and row["tasks"] == 3 for row in pooled)
    assert all(row["invalid"] == row["error"] == row["truncated"] == 0 for row in summary)
    assert {finding.measure for finding in EXPERIMENT2_FINDINGS} == {
        f"success_{question.lower()}" for question in QUESTIONS
    }


def test_exp2_refuses_a_missing_log_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["cogeval", "exp2", "--log", str(tmp_path / "missing")]) == 2
    error = capsys.readouterr().err.strip().splitlines()
    assert (
        error[-1]
        == f"cog-tasks cogeval exp2: error: {tmp_path / 'missing'}: no such log folder or file"
    )


@pytest.mark.slow
def test_exp2_reads_a_chance_run_of_the_nine_items(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    logs = tmp_path / "logs"
    chance = ["cogeval", "chance", "-T", "experiment=2", "-T", "temperatures=0"]
    assert main([*chance, "--seed", "0", "--epochs", "2", "--log-dir", str(logs)]) == 0
    capsys.readouterr()
    assert main(["cogeval", "exp2", "--log", str(logs), "--out", str(tmp_path / "out")]) == 0
    output = capsys.readouterr().out
    assert "Analysis of deviance" in output and "cot:question" in output
    result = json.loads((tmp_path / "out" / "experiment2.json").read_text())
    cells = [row for row in result["rows"] if row["question"] != "all"]
    assert len(cells) == 9 and all(row["replies"] == 2 for row in cells)
    assert all(row["run"] == "mockllm/chance" for row in result["rows"])
    assert [term["term"] for term in result["deviance"]][:2] == ["LLM", "cot"]
    assert len(result["paper"]) == 3
    assert (tmp_path / "out" / "experiment2.png").stat().st_size > 0
