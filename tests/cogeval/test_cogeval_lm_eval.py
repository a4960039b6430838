"""A real lm-eval run of the CogEval family with SmolLM2, and the dataset hook."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from lm_eval import simple_evaluate
from lm_eval.tasks import TaskManager

from cog_tasks.cli import tasks_path
from cog_tasks.cogeval.lm_eval.utils import load_cogeval, process_results
from cog_tasks.cogeval.published import PublishedTask, select_published
from cog_tasks.cogeval.scoring import FAILURE_MODES

FAMILY = tasks_path() / "cogeval" / "lm_eval"


def test_dataset_hook_filters_by_graph_and_family() -> None:
    split = load_cogeval(graphs="n15star", families="Traversal", source="generated")["test"]
    assert len(split) == 4 * 5  # four domains x five traversal conditions
    assert set(split["graph"]) == {"n15star"} and set(split["family"]) == {"Traversal"}
    doc = split[0]
    assert process_results(doc, [doc["expected"][0]])["acc"] == 1.0
    missed = process_results(doc, ["I cannot tell."])
    assert missed["acc"] == 0.0 and missed["no_answer"] == 1.0
    assert json.loads(doc["graph_context"])["kind"] == "path"


def test_the_default_dataset_is_the_published_tasks_flattened() -> None:
    split = load_cogeval(version=4.1)["test"]
    assert len(split) == len(select_published()) == 1476
    assert set(split["source"]) == {"published"}
    task = select_published(graphs=["n21star"], domains=["ordRooms"], conditions=["valuePath"])[0]
    conversation = task.load()
    [doc] = [doc for doc in split if doc["id"] == task.id]
    # The system message, then each user turn, blank lines between, no reply between turns.
    assert doc["prompt"] == "\n\n".join([conversation.system, *conversation.turns])
    assert process_results(doc, [doc["expected"][0]])["acc"] == 1.0
    unread = next(doc for doc in split if json.loads(doc["graph_context"]) is None)
    assert process_results(unread, [unread["expected"][0]])["acc"] == 1.0
    assert process_results(unread, ["I cannot tell."])["no_answer"] == 1.0
    experiment2 = load_cogeval(families="Experiment2", experiment=2)["test"]
    assert sorted(experiment2["cot"]) == ["bfs"] * 3 + ["dfs"] * 3 + ["none"] * 3


def test_a_family_task_reads_only_its_own_published_tasks(monkeypatch: pytest.MonkeyPatch) -> None:
    read: list[str] = []
    to_record = PublishedTask.to_record

    def recorded(task: PublishedTask) -> dict:
        read.append(task.id)
        return to_record(task)

    monkeypatch.setattr(PublishedTask, "to_record", recorded)
    split = load_cogeval(families="Detour")["test"]
    assert sorted(read) == sorted(split["id"])  # so a report on the whole family reads each once


@pytest.mark.slow
def test_lm_eval_runs_cogeval_on_smollm2(smollm2_path: Path) -> None:
    results = simple_evaluate(
        model="hf",
        model_args=f"pretrained={smollm2_path},dtype=float32",
        tasks=["cogeval_n7line"],
        limit=1,
        gen_kwargs="max_gen_toks=16",
        task_manager=TaskManager(include_path=str(tasks_path())),
        apply_chat_template=True,
        device="cpu",
        log_samples=True,
    )
    metrics = results["results"]["cogeval_n7line"]
    assert {"acc,none", *(f"{mode},none" for mode in FAILURE_MODES)} <= set(metrics)
    assert metrics["acc,none"] + sum(metrics[f"{mode},none"] for mode in FAILURE_MODES) == 1.0
    # The version reaches lm-eval's results from the family's one declaration.
    declared = yaml.safe_load((FAMILY / "_cogeval_version.yaml").read_text())["metadata"]
    assert results["versions"]["cogeval_n7line"] == declared["version"]
    [sample] = results["samples"]["cogeval_n7line"]
    assert sample["doc"]["graph"] == "n7line"
    assert isinstance(sample["filtered_resps"][0], str)


@pytest.mark.slow
def test_report_reads_lm_eval_samples_and_keeps_settings_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from cog_tasks.cli import main

    for temperature in ("0.0", "0.7"):
        code = main(
            [
                "lm-eval",
                "--model",
                "dummy",
                "--tasks",
                "cogeval_n7line",
                "--limit",
                "3",
                "--gen_kwargs",
                f"temperature={temperature}",
                "--output_path",
                str(tmp_path / "out"),
                "--log_samples",
            ]
        )
        assert code == 0
    capsys.readouterr()
    report = ["--out", str(tmp_path / "report")]  # never the log folder, nor the working one
    assert main(["cogeval", "report", "--log", str(tmp_path / "out"), "--json", *report]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert len(rows) == 2  # one row per generation setting, never pooled
    assert {row["run"].split("generate.temperature=")[1] for row in rows} == {"0.0", "0.7"}
    # the first three documents are prompts of one task, n7line's 1stepPath on numbered rooms
    assert all(row["no_answer"] == 1.0 and row["tasks"] == 1 for row in rows)


def test_every_repeat_is_scored_by_process_results() -> None:
    doc = load_cogeval(graphs="n15star", families="Traversal")["test"][0]
    scores = process_results(doc, [[doc["expected"][0], "I cannot tell.", doc["expected"][0]]])
    assert scores["acc"] == pytest.approx(2 / 3) and scores["no_answer"] == pytest.approx(1 / 3)


@pytest.mark.slow
def test_sampled_task_repeats_and_analyze_reads_every_reply(tmp_path: Path) -> None:
    from cog_tasks.cli import main
    from cog_tasks.cogeval.headlines import checked_runs
    from cog_tasks.cogeval.lm_eval.samples import read_lm_eval_runs

    out = tmp_path / "out"
    arguments = ["lm-eval", "--model", "dummy", "--tasks", "cogeval_sampled", "--limit", "2"]
    assert main([*arguments, "--output_path", str(out), "--log_samples"]) == 0
    (run,) = checked_runs(read_lm_eval_runs(out))
    dialogs = run.dialogs()
    assert len(dialogs) == 2 * 10 and sorted({row["epoch"] for row in dialogs}) == list(
        range(1, 11)
    )
    assert {row["temperature"] for row in dialogs} == {1.0}
    # ten repeats are epochs of two dialogs; --limit 2 leaves the run partial
    assert run.coverage.epochs == 10 and run.coverage.partial
    assert main(["cogeval", "analyze", "--log", str(out), "--json"]) == 0


def test_a_run_of_greedy_and_sampled_tasks_labels_each_row_with_its_temperature() -> None:
    from cog_tasks.cogeval.lm_eval.samples import task_temperature

    configs = {
        "cogeval_n7line": {"generation_kwargs": {"do_sample": False, "temperature": 0.0}},
        "cogeval_sampled": {"generation_kwargs": {"do_sample": True, "temperature": 1.0}},
    }
    results = {"config": {"model": "dummy", "gen_kwargs": {}}, "configs": configs}
    assert [task_temperature(results, task) for task in configs] == [0.0, 1.0]  # was 1.0, 1.0
    results["config"]["gen_kwargs"] = {"temperature": 0.5}  # --gen_kwargs applies to every task
    assert {task_temperature(results, task) for task in configs} == {0.5}
