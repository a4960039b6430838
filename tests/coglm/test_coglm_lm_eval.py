"""The lm-eval family: configuration, and real runs through lm-eval's own CLI."""

import json
from pathlib import Path
from statistics import fmean

import pytest
import yaml

from cog_tasks.cli import main, only_our_tasks, tasks_path
from cog_tasks.coglm.abilities import ABILITIES, STAGES

FAMILY = tasks_path() / "coglm" / "lm_eval" / "coglm"
METRICS = ("acc_authors", "calibrated_acc_authors", "calibrated_acc_per_item")
SIZES = {"const": 50, "early": 100, "semio": 100, "empat": 100, "rever": 100}
SIZES |= {"conse": 110, "induc": 100, "deduc": 250, "propo": 100, "plan": 210}


def _yaml(name: str) -> dict:
    # The template holds !function tags; the group and task files do not.
    return yaml.safe_load((FAMILY / name).read_text())


def test_family_files_follow_the_ability_table() -> None:
    for ability in ABILITIES:
        task = _yaml(f"coglm_{ability.code}.yaml")
        assert task["include"] == "_coglm_template.yaml"
        assert task["task"] == f"coglm_{ability.code}"
        assert task["dataset_kwargs"] == {"ability": ability.code}
    for stage in STAGES:
        group = _yaml(f"coglm_stage{stage}.yaml")
        assert group["task"] == [f"coglm_{a.code}" for a in ABILITIES if a.stage == stage]
        assert group["include"] == "_coglm_version.yaml" and "metadata" not in group
        assert {(m["metric"], m["weight_by_size"]) for m in group["aggregate_metric_list"]} == {
            (metric, False) for metric in METRICS
        }
    top = _yaml("coglm.yaml")
    assert top["task"] == [f"coglm_stage{stage}" for stage in STAGES]
    assert top["include"] == "_coglm_version.yaml" and "metadata" not in top
    assert all(m["weight_by_size"] is False for m in top["aggregate_metric_list"])
    template = (FAMILY / "_coglm_template.yaml").read_text()
    assert "include: _coglm_version.yaml\n" in template and "metadata" not in template
    assert "class: !function utils.CogLMTask" in template
    for metric in METRICS:
        assert f"metric: {metric}\n" in template


def test_lm_eval_index_is_skipped_only_when_every_task_is_ours() -> None:
    assert only_our_tasks(["--model", "hf", "--tasks", "coglm,coglm_plan", "--limit", "2"])
    assert only_our_tasks(["-t", "coglm_stage1", "--tasks=coglm_gen"])
    assert not only_our_tasks(["--tasks", "coglm,hellaswag"])  # a built-in task needs the index
    assert not only_our_tasks(["--tasks", "tasks/my_task.yaml"])
    assert not only_our_tasks(["--model", "hf"])


def _results(output: Path) -> dict:
    (path,) = sorted(output.rglob("results_*.json"))
    return json.loads(path.read_text())


@pytest.mark.slow
def test_dummy_model_scores_every_document(tmp_path: Path, shared_data: Path) -> None:
    """lm-eval's random-log-likelihood model over all 1,220 documents: none is dropped."""
    main(["lm-eval", "--model", "dummy", "--tasks", "coglm", "--output_path", str(tmp_path)])
    data = _results(tmp_path)
    for ability in ABILITIES:
        task = f"coglm_{ability.code}"
        assert data["n-samples"][task] == {
            "original": SIZES[ability.code],
            "effective": SIZES[ability.code],
        }
    assert data["results"]["coglm"]["sample_len"] == 1220
    # Random choices land near chance: the calibrated score sits near 0.
    assert abs(data["results"]["coglm"]["calibrated_acc_authors,none"]) < 0.1


@pytest.mark.slow
def test_a_changed_context_is_refused(
    tmp_path: Path, shared_data: Path, smollm2_path: Path, capsys: pytest.CaptureFixture
) -> None:
    """The context request of acc_authors is exact only for the plain zero-shot context."""
    dummy = ["--model", "dummy"]
    smollm2 = ["--model", "hf", "--model_args", f"pretrained={smollm2_path}"]  # has a template
    for model, change in (
        (dummy, ["--system_instruction", "Be brief."]),
        (smollm2, ["--apply_chat_template"]),
    ):
        arguments = [*model, "--tasks", "coglm_const", "--limit", "1"]
        code = main(["lm-eval", *arguments, *change, "--output_path", str(tmp_path)])
        assert code == 2
        # The last line is ours; earlier lines may be logging noise from handlers that an
        # earlier test bound to a closed capture stream (a pytest artefact, not the CLI's).
        error = capsys.readouterr().err.strip().splitlines()[-1]
        assert error.startswith("cog-tasks lm-eval: error: ")
        assert "plain zero-shot context" in error and "coglm_gen" in error
        assert "coglm_chat" in error


@pytest.mark.slow
def test_smollm2_run_carries_calibrated_metrics_at_every_level(
    tmp_path: Path, smollm2_path: Path, shared_data: Path, capsys: pytest.CaptureFixture
) -> None:
    arguments = ["--model", "hf", "--model_args", f"pretrained={smollm2_path}"]
    arguments += ["--tasks", "coglm", "--batch_size", "8", "--limit", "2"]
    main(["lm-eval", *arguments, "--output_path", str(tmp_path), "--log_samples"])
    table = capsys.readouterr().out
    assert "calibrated_acc_authors" in table and "stage 4 (formal operational)" in table
    # The main job ends with the CogLM summary: intervals, flags, the report's command.
    summary = table[table.index("CogLM smollm2") :]
    assert "overall" in summary and "cognitive age" in summary and "95 % interval" in summary
    assert "FLAG: PARTIAL: 1200 of 1220 items missing" in summary
    assert f"cog-tasks coglm report {tmp_path}" in summary

    results = _results(tmp_path)["results"]
    abilities = {a.code: results[f"coglm_{a.code}"] for a in ABILITIES}
    for row in [*abilities.values(), *(results[f"coglm_stage{s}"] for s in STAGES)]:
        for metric in ("calibrated_acc_authors", "calibrated_acc_per_item"):
            assert -1.0 <= row[f"{metric},none"] <= 1.0
    # Groups are macro averages: a stage over its abilities, coglm over all ten.
    for metric in METRICS:
        key = f"{metric},none"
        for stage in STAGES:
            expected = fmean(abilities[a.code][key] for a in ABILITIES if a.stage == stage)
            assert results[f"coglm_stage{stage}"][key] == pytest.approx(expected)
        assert results["coglm"][key] == pytest.approx(fmean(r[key] for r in abilities.values()))

    # The model's tokenizer was found from --model_args, so lengths are in tokens.
    (samples_file,) = tmp_path.rglob("samples_coglm_plan_*.jsonl")
    samples = [json.loads(line) for line in samples_file.read_text().splitlines()]
    assert [s["doc"]["id"] for s in samples] == ["plan-0000", "plan-0001"]
    assert {s["doc"]["length_unit"] for s in samples} == {"token"}
    context = samples[0]["arguments"]["gen_args_0"]["arg_0"]
    assert context.endswith("\nThe answer is:")
    # After the candidates, one request for the context's own tokens after the first.
    doc, arguments = samples[0]["doc"], samples[0]["arguments"]
    assert len(arguments) == doc["num_choices"] + 1 == len(samples[0]["filtered_resps"])
    last = arguments[f"gen_args_{doc['num_choices']}"]
    assert last["arg_0"] == doc["context_head"] and last["arg_0"] + last["arg_1"] == context

    # The report reads the same folder.
    chart = tmp_path / "coglm_report.png"
    assert main(["coglm", "report", str(tmp_path), "--out", str(chart)]) == 0
    report = capsys.readouterr().out
    # The coverage line of the results model: the declared 1,220 items against the 20 run.
    assert "PARTIAL: 1200 of 1220 items missing" in report
    assert report.count("PARTIAL") == 1  # flagged once
    assert "cognitive age" in report
    assert chart.read_bytes()[:4] == b"\x89PNG"
