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


def test_an_inspect_step_off_a_terminal_beats(
    monkeypatch: pytest.MonkeyPatch, capsys, tmp_path: Path
) -> None:
    import time
    import zipfile

    monkeypatch.setattr(profile, "REPORT_EVERY", 0.1)
    monkeypatch.setattr(profile, "_display", lambda: "none")
    with zipfile.ZipFile(tmp_path / "run.eval", "w") as log:  # an Inspect log being written
        for name in ("_journal/start.json", "samples/a_epoch_1.json", "samples/b_epoch_1.json"):
            log.writestr(name, "{}")
        log.writestr("samples/a_epoch_1.json", "{}")  # a retried sample, written again
    opened: list[zipfile.ZipFile] = []

    class Recorded(zipfile.ZipFile):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            opened.append(self)  # (kept alive, so only an explicit close closes it)

    monkeypatch.setattr(zipfile, "ZipFile", Recorded)
    with profile._heartbeat("cogeval", tmp_path, 9):
        time.sleep(0.35)
    beats = capsys.readouterr().err.splitlines()
    assert len(beats) >= 2 and all(
        "cogeval: 2 of 9 samples, running for" in b and str(tmp_path) in b for b in beats
    )
    assert opened and all(log.fp is None for log in opened)  # each beat closed the log it read
    with profile._heartbeat("cogeval", Path("/logs/cogeval-x"), 9):  # no log yet
        time.sleep(0.15)
    assert "cogeval: running for" in capsys.readouterr().err


@pytest.mark.slow
def test_a_step_folder_of_another_task_version_is_refused_in_one_line(tmp_path: Path) -> None:
    """A new task version never resumes on, or writes into, the logs of an earlier one."""
    from inspect_ai.log import read_eval_log, write_eval_log

    from cog_tasks.common.scripted import run_chance_model
    from cog_tasks.egosocial.inspect import egosocial_static
    from cog_tasks.egosocial.inspect.chance import ChanceAnswerer

    task = egosocial_static()
    log = run_chance_model(task, ChanceAnswerer(0), str(tmp_path / "a"), 1, 1)
    profile._refuse_other_versions("egosocial_static", task.version, tmp_path / "a")
    profile._refuse_other_versions("egosocial_static", task.version, tmp_path / "none")
    old = read_eval_log(log.location)
    old.eval.task_version = "0.0.1"
    write_eval_log(old, str(tmp_path / "b" / "old.eval"))
    with pytest.raises(profile.ProfileStepError) as refused:
        profile._refuse_other_versions("egosocial_static", task.version, tmp_path / "b")
    assert str(refused.value) == (
        f"{tmp_path / 'b'} holds egosocial_static@0.0.1 logs; the code runs egosocial_static@"
        f"{task.version}: move that folder away to re-run the step (it is never written over)"
    )


@pytest.mark.parametrize(
    ("suite", "task", "sent"),
    [("cogeval", "cogeval", None), ("egosocial", "egosocial_static", 0.0)],
)
def test_a_profile_temperature_skips_a_benchmark_whose_samples_set_their_own(
    suite: str, task: str, sent: float | None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """CogEval refuses a global temperature (each sample sets its own): the step sends none."""
    import inspect_ai

    from cog_tasks.common.spec import Step

    calls: list[dict] = []
    monkeypatch.setattr(inspect_ai, "eval_set", lambda *a, **k: calls.append(k) or (False, []))
    model = ModelSpec("llamacpp/q", temperature=0.0)
    with pytest.raises(KeyboardInterrupt):  # the fake eval_set returns no log
        profile._run_inspect(Step(suite, task, {}), model, tmp_path)
    assert calls[0]["temperature"] == sent
