import json
from pathlib import Path

import pytest
from inspect_ai.log import list_eval_logs, read_eval_log

from cog_tasks.cli import main
from cog_tasks.cogbench.evaluation import answered_items, copy_previous_kappa, score_method
from cog_tasks.cogbench.loader import load_records, load_trajectories, sample_dir
from cog_tasks.cogbench.rationality import judge_agreement
from cog_tasks.metrics.cogbench import cohen_kappa

EVAL_A = sample_dir() / "english" / "eval_cogbench_a.json"


def test_evaluate_matches_hand_computation(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cogbench", "evaluate", str(EVAL_A), "--method", "Example"]) == 0
    out = capsys.readouterr().out
    records = load_records(EVAL_A)
    first = [item for r in records if r.iteration == 0 for item in r.questionnaire]
    kappa = cohen_kappa(
        [i.human_rating for i in first], [i.answers["Example"].rating for i in first]
    )
    assert f"0th {kappa:.3f}" in out
    scores = score_method("Example", answered_items(records, "Example"))
    assert f"avg(1-3) {scores.authenticity.average:.3f}" in out
    assert "======= Example on eval_cogbench_a.json" in out
    assert "invalid ratings 0" in out


def test_evaluate_counts_missing_answers_and_rejects_unknown_method(tmp_path: Path) -> None:
    records = json.loads(EVAL_A.read_text())
    del records[5]["questionnaire"][0]["answer"]["Example"]
    records[6]["questionnaire"][1]["answer"]["Example"]["rating"] = "no idea"
    records[7]["questionnaire"][2]["answer"]["Example"]["rationality"] = -1
    path = tmp_path / "eval.json"
    path.write_text(json.dumps(records))
    scores = score_method("Example", answered_items(load_records(path), "Example"))
    assert (scores.missing, scores.invalid, scores.rationality_unset) == (1, 2, 2)
    with pytest.raises(ValueError, match="methods found: \\['Example'\\]"):
        answered_items(load_records(path), "CogGPT")


def test_judge_agreement_with_humans() -> None:
    agreement = judge_agreement([4, 3, None, 5, 2], [4, 3, 5, None, 1])
    assert agreement.pairs == 3 and agreement.judge_invalid == 1
    assert agreement.kappa == pytest.approx(cohen_kappa([4, 3, 2], [4, 3, 1]))
    assert agreement.spearman == pytest.approx(1.0)


def test_chance_report_and_export_round_trip(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    task_args = ["-T", "agent=cot", "-T", "source=sample", "-T", "subset=v", "-T", "iterations=2"]
    assert main(["cogbench", "chance", *task_args, "--log-dir", str(tmp_path)]) == 0
    [log] = [read_eval_log(info) for info in list_eval_logs(str(tmp_path))]
    assert log.eval.model == "mockllm/chance" and log.eval.task_args["iterations"] == 2
    metrics = {name: m.value for name, m in log.results.scores[0].metrics.items()}
    assert metrics["invalid_rate"] == 0.0 and 1.0 <= metrics["rationality_avg"] <= 5.0

    assert main(["cogbench", "report", str(tmp_path), "--out", str(tmp_path / "report")]) == 0
    out = capsys.readouterr().out
    png = tmp_path / "report" / "cogbench_v_english.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    curves = json.loads((tmp_path / "report" / "cogbench_curves.json").read_text())
    assert curves[0]["agent"] == "cot" and sorted(curves[0]["authenticity"]) == ["0", "1", "2"]
    assert f"{metrics['authenticity_avg']:.3f}" in out
    trajectories, _ = load_trajectories("v", source="sample", max_iteration=2)
    reference = copy_previous_kappa(trajectories)
    copy_row = next(line for line in out.splitlines() if "copy previous human rating" in line)
    assert f"{(reference[1] + reference[2]) / 2:.3f}" in copy_row
    assert curves[-1]["agent"] == "copy-previous"

    exported = tmp_path / "exported.json"
    assert main(["cogbench", "export", log.location, "-o", str(exported)]) == 0
    records = load_records(exported, require_profile=True)
    assert len(records) == 4 * 3
    scores = score_method("CoT", answered_items(records, "CoT"))
    assert scores.authenticity.average == pytest.approx(metrics["authenticity_avg"])
    assert scores.authenticity.at(0) == pytest.approx(metrics["authenticity_t0"])


def test_report_without_logs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cogbench", "report", str(tmp_path)]) == 1
    assert "no successful CogBench logs" in capsys.readouterr().out


def test_copy_previous_reference_by_hand() -> None:
    trajectories, _ = load_trajectories("a", source="sample", max_iteration=3)
    reference = copy_previous_kappa(trajectories)
    assert sorted(reference) == [1, 2, 3]
    for iteration in (1, 2, 3):
        human = [r for t in trajectories for r in t.steps[iteration].human_ratings]
        copied = [r for t in trajectories for r in t.steps[iteration - 1].human_ratings]
        assert reference[iteration] == pytest.approx(cohen_kappa(human, copied))
