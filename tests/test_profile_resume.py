"""The profile's long steps resume inside the step and report off a terminal."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from cog_tasks.commands import profile
from cog_tasks.commands.profile import ModelSpec


def test_the_coglm_step_caches_requests_beside_its_identity_folder(tmp_path: Path) -> None:
    folder = tmp_path / "coglm_lm_eval-0123456789"
    command = profile._coglm_command(ModelSpec("hf/m", {"model_path": "/w"}), 20, folder)
    cache = command[command.index("--use_cache") + 1]
    assert cache == str(tmp_path / "coglm_lm_eval-0123456789-cache")


def test_a_long_step_names_its_log_and_last_line_every_period(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(profile, "REPORT_EVERY", 0.2)
    log = tmp_path / "step.log"
    script = "import time\nprint('item 3/20', flush=True)\ntime.sleep(1.0)"
    with log.open("w") as sink:
        process = subprocess.Popen([sys.executable, "-c", script], stdout=sink)
        lines: list[str] = []
        assert profile._wait_reporting(process, log, lines.append) == 0
    assert len(lines) >= 2
    assert all(str(log) in line for line in lines)
    assert lines[-1].endswith("item 3/20")


def test_an_inspect_step_off_a_terminal_beats(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    import time

    monkeypatch.setattr(profile, "REPORT_EVERY", 0.1)
    monkeypatch.setattr(profile, "_display", lambda: "none")
    with profile._heartbeat("cogeval", Path("/logs/cogeval-x")):
        time.sleep(0.35)
    beats = capsys.readouterr().err.splitlines()
    assert len(beats) >= 2 and all(
        "cogeval: running for" in b and "/logs/cogeval-x" in b for b in beats
    )
