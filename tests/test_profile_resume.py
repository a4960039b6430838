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


def test_each_task_version_has_its_own_step_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A new task version never resumes on, or writes into, the logs of an earlier one."""
    from types import SimpleNamespace

    from cog_tasks.common.spec import Step

    folders: list[Path] = []

    def run(step: Step, task: object, model: ModelSpec, log_dir: Path) -> None:
        folders.append(log_dir)
        raise KeyboardInterrupt

    monkeypatch.setattr(profile, "_run_inspect", run)
    step, model = Step("egosocial", "egosocial_static", {}, limit=1), ModelSpec("llamacpp/q")
    for version in ("1.0.0", "1.0.0", "1.0.1"):
        task = SimpleNamespace(version=version, config=SimpleNamespace(max_tokens=None))
        monkeypatch.setattr(profile, "_task", lambda _, t=task: t)
        with pytest.raises(KeyboardInterrupt):
            profile._step_rows(step, model, tmp_path, lm_eval=False)
    assert folders[0] == folders[1] != folders[2]
    assert folders[2].parent == tmp_path / "logs"


@pytest.mark.parametrize(
    ("suite", "task", "args", "sent"),
    [
        ("cogeval", "cogeval", {"max_tokens": 1024}, (None, None)),
        ("egosocial", "egosocial_static", {}, (0.0, 256)),
    ],
)
def test_a_profile_setting_skips_a_step_that_sets_its_own(
    suite: str,
    task: str,
    args: dict,
    sent: tuple,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    """CogEval's samples set their temperatures, and its task its token cap (an eval-level
    cap would override the task's): the step sends neither."""
    import inspect_ai

    from cog_tasks.common.spec import Step

    calls: list[dict] = []
    monkeypatch.setattr(inspect_ai, "eval_set", lambda *a, **k: calls.append(k) or (False, []))
    model = ModelSpec("llamacpp/q", temperature=0.0, max_tokens=256)
    with pytest.raises(KeyboardInterrupt):  # the fake eval_set returns no log
        step = Step(suite, task, args)
        profile._run_inspect(step, profile._task(step), model, tmp_path)
    assert (calls[0]["temperature"], calls[0]["max_tokens"]) == sent
