"""Real generation: ``inspect eval cog_tasks/coglm_chat`` with SmolLM2, then its report."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

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
    assert len(log.samples) == len(ABILITIES)
    assert all(sample.output.completion.strip() for sample in log.samples)
    (score,) = log.results.scores
    values = {name: metric.value for name, metric in score.metrics.items()}
    calibrated = [f"{ability.code}_calibrated_acc" for ability in ABILITIES]
    calibrated += [f"stage{stage}_calibrated_acc" for stage in (1, 2, 3, 4)]
    calibrated.append("calibrated_acc")
    for name in calibrated:
        assert -1.0 <= values[name] <= 1.0, name
    for name in ("acc", "invalid"):
        assert 0.0 <= values[name] <= 1.0

    report = subprocess.run(
        [str(Path(sys.executable).with_name("cog-tasks")), "coglm", "report", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert report.returncode == 0, report.stderr[-3000:]
    assert "CogLM report: hf/smollm2 (Base)" in report.stdout
    assert "PARTIAL: 1210 of 1220 items missing" in report.stdout
    assert (tmp_path / "coglm_report.png").read_bytes()[:4] == b"\x89PNG"
    assert isinstance(values["cognitive_age"], float)
