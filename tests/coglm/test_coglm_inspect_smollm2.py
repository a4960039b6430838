"""Real generation: ``inspect eval cog_tasks/coglm_chat`` with SmolLM2, then its report."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from statistics import mean

import pytest
from inspect_ai.log import list_eval_logs, read_eval_log

from cog_tasks.coglm.abilities import ABILITIES


@pytest.mark.slow
def test_inspect_eval_cli_with_smollm2(
    tmp_path: Path, smollm2_path: Path, shared_data: Path
) -> None:
    inspect_cli = Path(sys.executable).with_name("inspect")
    command = [
        str(inspect_cli),
        "eval",
        "cog_tasks/coglm_chat",
        "-T",
        "per_ability=1",
        "--model",
        "hf/smollm2",
        "-M",
        f"model_path={smollm2_path}",
        "-M",
        "do_sample=false",
        "--max-tokens",
        "12",
        "--log-dir",
        str(tmp_path),
        "--display",
        "none",
    ]
    completed = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert completed.returncode == 0, completed.stderr[-3000:]

    (info,) = list_eval_logs(str(tmp_path))
    log = read_eval_log(info)
    assert log.status == "success"
    assert sorted(sample.metadata["ability"] for sample in log.samples) == sorted(
        ability.code for ability in ABILITIES
    )
    assert all(sample.output.completion.strip() for sample in log.samples)
    (score,) = log.results.scores
    values = {name: metric.value for name, metric in score.metrics.items()}

    # Every headline is recomputed from the per-sample scores: an ability's calibrated
    # accuracy is (acc - 1/k) / (1 - 1/k) over its k listed options (an invalid reply is
    # wrong), a stage's the mean of its abilities', the overall one the mean of all ten.
    calibrated = {}
    for sample in log.samples:
        chance = 1 / sample.metadata["chance_options"]
        right = sample.scores["coglm_scorer"].value["acc"]
        calibrated[sample.metadata["ability"]] = (right - chance) / (1 - chance)
    for code, value in calibrated.items():
        assert values[f"{code}_calibrated_acc"] == pytest.approx(value), code
    for stage in (1, 2, 3, 4):
        of_stage = [calibrated[a.code] for a in ABILITIES if a.stage == stage]
        assert values[f"stage{stage}"] == pytest.approx(mean(of_stage))
    assert values["overall"] == pytest.approx(mean(calibrated.values()))
    replies = [sample.scores["coglm_scorer"].value for sample in log.samples]
    assert values["acc"] == pytest.approx(mean(reply["acc"] for reply in replies))
    assert values["invalid"] == pytest.approx(mean(reply["invalid"] for reply in replies))
    assert values["partial_run"] == 1

    chart = tmp_path / "coglm_report.png"
    report = subprocess.run(
        [
            str(Path(sys.executable).with_name("cog-tasks")),
            *("coglm", "report", str(tmp_path), "--out", str(chart)),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert report.returncode == 0, report.stderr[-3000:]
    assert "CogLM report: hf/smollm2 (Base)" in report.stdout
    assert "PARTIAL: 1210 of 1220 items missing" in report.stdout
    rows = re.findall(r"^\d\s+(\w+)\s.+?\s1\s+-?\d+\.\d\s+(-?\d+\.\d)\s", report.stdout, re.M)
    assert dict(rows) == {code: f"{100 * value:.1f}" for code, value in calibrated.items()}
    overall = re.search(r"^overall \(mean of abilities\)\s+(-?\d+\.\d)", report.stdout, re.M)
    assert overall and overall[1] == f"{100 * values['overall']:.1f}", report.stdout
    assert chart.read_bytes()[:4] == b"\x89PNG"
