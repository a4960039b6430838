"""Issue 47's reliability table: every bad or doubtful input, and what it must give.

Each row is an input (a ``cog-tasks`` command line over files it sets up) and
its expected outcome:

- ``clear``: exit code 2 and one line on stderr naming the file, row or
  option (the :data:`NAMES` it must hold), no traceback;
- ``handled``: the command does the right thing (exit code as given, default 0)
  and its ``check`` says what that is (a copy counted once with a warning, a
  row marked, a secret not written).

The bad-input probes of issues 27 and #34-#42 (``test_bad_input_probes.PROBES``)
are rows of this table too, as ``clear``. Rows run in-process; those that
evaluate a model or start a process are ``slow``. :func:`test_the_table_has_no_silent_or_opaque_row`
counts the table, so the counts are a test, not a manual check.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import signal
from collections import Counter
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from coglm_lm_eval_files import write_lm_eval_run
from test_bad_input_probes import (
    COGEVAL_ROW,
    COGLM_ROW,
    PROBES,
    error_lines,
    eval_records,
    profile_row,
    write,
)

from cog_tasks.cli import main

OUTCOMES = ("clear", "handled")
FAKE = "hf_CANARY0123456789"
"""A secret no output may hold."""

Check = Callable[[Path, str, str], None]
"""A handled row's check: ``(tmp, stdout, stderr)``; it asserts."""


@dataclass(frozen=True)
class Case:
    """One row: an input and its expected outcome.

    Attributes:
        id: Short id.
        argv: The ``cog-tasks`` arguments (``{tmp}`` is the row's folder).
        outcome: ``clear`` or ``handled``.
        names: What the one error line (clear) or the output (handled) holds.
        setup: Writes the row's files under ``{tmp}``.
        check: A handled row's further check.
        code: A handled row's exit code.
        env: Environment settings (``{tmp}`` formatted).
        data: Point ``COG_TASKS_DATA`` at ``{tmp}/data``.
        source: Where the case comes from (``#47``, ``#27 probe``).
    """

    id: str
    argv: tuple[str, ...]
    outcome: str
    names: tuple[str, ...] = ()
    setup: Callable[[Path], Any] | None = None
    check: Check | None = None
    code: int = 0
    env: dict[str, str] = field(default_factory=dict)
    data: bool = False
    source: str = "#47"


def case(id: str, argv: str, outcome: str, *names: str, slow: bool = False, **options: Any) -> Any:
    """A :class:`Case` as a ``pytest.param`` (command line split on spaces)."""
    marks = [pytest.mark.slow] if slow else []
    return pytest.param(
        Case(id, tuple(argv.split()), outcome, names, **options), id=id, marks=marks
    )


# ----------------------------------------------------------------------------- set-ups


def copy_of(name: str, copy: str) -> Callable[[Path], None]:
    """After another set-up: copy ``tmp/name`` to ``tmp/copy`` byte for byte."""

    def setup(tmp: Path) -> None:
        (tmp / copy).parent.mkdir(parents=True, exist_ok=True)
        (tmp / copy).write_bytes((tmp / name).read_bytes())

    return setup


def both(*setups: Callable[[Path], Any]) -> Callable[[Path], None]:
    """Run set-ups in order."""

    def setup(tmp: Path) -> None:
        for step in setups:
            step(tmp)

    return setup


def rater_file(tmp: Path) -> None:
    write(tmp / "a.json", json.dumps(eval_records()))


def predictions(rows: list[dict[str, Any]]) -> Callable[[Path], None]:
    return lambda tmp: write(tmp / "p.jsonl", "".join(json.dumps(row) + "\n" for row in rows))


def lm_eval_run(tmp: Path) -> None:
    write_lm_eval_run(tmp / "runs" / "m", {"const": [True, False, True]})


def flip_answer(tmp: Path) -> None:
    """Flip one document's answer and target in the samples file: the hashes no longer match."""
    lm_eval_run(tmp)
    [samples] = (tmp / "runs" / "m").glob("samples_*.jsonl")
    rows = [json.loads(line) for line in samples.read_text().splitlines()]
    rows[1]["doc"]["answer"] = rows[1]["target"] = 1
    samples.write_text("".join(json.dumps(row) + "\n" for row in rows))


def symlink_loop(tmp: Path) -> None:
    os.symlink(tmp / "loop", tmp / "loop")


def existing(name: str) -> Callable[[Path], None]:
    return lambda tmp: write(tmp / name, "keep me\n")


COGEVAL_UNREADABLE = {**COGEVAL_ROW, "expected": ["Answer: ,"], "id": "u1"}
"""A row whose expected answer names no place: it cannot be read."""


# ----------------------------------------------------------------------------- checks


def written(*names: str, absent: tuple[str, ...] = ()) -> Check:
    def check(tmp: Path, out: str, err: str) -> None:
        for name in names:
            assert (tmp / name).is_file(), name
        for name in absent:
            assert not (tmp / name).exists(), name

    return check


def unchanged(name: str) -> Check:
    def check(tmp: Path, out: str, err: str) -> None:
        assert (tmp / name).read_text() == "keep me\n"

    return check


def one_warning(*words: str) -> Check:
    def check(tmp: Path, out: str, err: str) -> None:
        warnings = [line for line in err.splitlines() if "warning" in line]
        assert len(warnings) == 1, err
        for word in words:
            assert word.format(tmp=tmp) in warnings[0]

    return check


def both_checks(*checks: Check) -> Check:
    def check(tmp: Path, out: str, err: str) -> None:
        for step in checks:
            step(tmp, out, err)

    return check


def gold_marked(tmp: Path, out: str, err: str) -> None:
    rows = [json.loads(line) for line in (tmp / "o.jsonl").read_text().splitlines()]
    assert [row.get("gold_unreadable", False) for row in rows] == [False, True]
    assert rows[0]["score"] == 1 and rows[1]["score"] is None
    one_warning("gold_unreadable", "lines 2")(tmp, out, err)


# ----------------------------------------------------------------------------- the table

ISSUE_47 = [
    # --- counted twice: the same content given twice
    case(
        "agreement-copy-of-a-rater",
        "cogbench agreement {tmp}/a.json {tmp}/b/copy.json",
        "clear",
        "{tmp}/b/copy.json",
        "{tmp}/a.json",
        setup=both(rater_file, copy_of("a.json", "b/copy.json")),
    ),
    case(
        "compare-a-profile-with-its-copy",
        "profile compare {tmp}/a.json {tmp}/copy.json",
        "clear",
        "{tmp}/copy.json",
        "same content",
        setup=both(profile_row(), copy_of("a.json", "copy.json")),
    ),
    case(
        "coglm-score-every-row-twice",
        "coglm score {tmp}/p.jsonl",
        "clear",
        "{tmp}/p.jsonl:2",
        "repeats",
        setup=predictions([{**COGLM_ROW, "id": "const-0001"}] * 2),
    ),
    case(
        "coglm-score-one-question-two-golds",
        "coglm score {tmp}/p.jsonl",
        "clear",
        "{tmp}/p.jsonl:2",
        "'q'",
        setup=predictions(
            [{**COGLM_ROW, "question": "q"}, {**COGLM_ROW, "question": "q", "answer": 1}]
        ),
    ),
    case(
        "coglm-report-an-lm-eval-folder-and-its-copy",
        "coglm report {tmp}/runs {tmp}/copy",
        "handled",
        "CogLM report: tiny",
        setup=both(lm_eval_run, lambda tmp: shutil.copytree(tmp / "runs", tmp / "copy")),
        check=both_checks(
            one_warning("{tmp}/copy/m/results_", "{tmp}/runs/m/results_", "counted once"),
            lambda tmp, out, err: out.count("CogLM report:") == 1 or pytest.fail(out),
        ),
    ),
    # --- edited inputs
    case(
        "lm-eval-samples-answer-flipped",
        "coglm report {tmp}/runs",
        "clear",
        "samples_coglm_const_",
        ".jsonl:2",
        "doc_hash",
        setup=flip_answer,
    ),
    # --- overwritten or destroyed
    case(
        "export-over-its-input",
        "cogbench export {tmp}/in.eval --out {tmp}/in.eval",
        "clear",
        "{tmp}/in.eval",
        "input",
        setup=existing("in.eval"),
    ),
    case(
        "export-over-an-existing-file",
        "cogbench export {tmp}/in.eval --out {tmp}/out.json",
        "clear",
        "{tmp}/out.json",
        "--force",
        setup=both(existing("in.eval"), existing("out.json")),
    ),
    case(
        "coglm-report-over-an-existing-chart",
        "coglm report {tmp}/runs --out {tmp}/chart.png",
        "clear",
        "{tmp}/chart.png",
        "--force",
        setup=both(lm_eval_run, existing("chart.png")),
    ),
    case(
        "coglm-report-chart-with-force",
        "coglm report {tmp}/runs --out {tmp}/chart.png --force",
        "handled",
        "chart written",
        setup=both(lm_eval_run, existing("chart.png")),
        check=written("chart.png"),
    ),
    case(
        "coglm-report-chart-over-its-input",
        "coglm report {tmp}/runs/m/results_2026-01-01T00-00-00.000001.json --out "
        "{tmp}/runs/m/results_2026-01-01T00-00-00.000001.json --force",
        "clear",
        "results_2026",
        "input",
        setup=lm_eval_run,
    ),
    case(
        "data-build-over-an-existing-card",
        "data build cogbench --out {tmp}/out",
        "clear",
        "{tmp}/out/",
        "--force",
        setup=existing("out/README.md"),
    ),
    case(
        "cogeval-score-over-its-input",
        "cogeval score {tmp}/r.jsonl --out {tmp}/r.jsonl --force",
        "clear",
        "{tmp}/r.jsonl",
        "input",
        setup=lambda tmp: write(tmp / "r.jsonl", json.dumps(COGEVAL_ROW) + "\n"),
    ),
    # --- opaque before
    case(
        "data-push-repo-id-dots",
        "data push coglm --repo-id ../../x",
        "clear",
        "--repo-id",
        "'../../x'",
    ),
    case(
        "data-push-repo-id-no-org", "data push coglm --repo-id x", "clear", "--repo-id", "ORG/NAME"
    ),
    case(
        "data-folder-symlink-loop",
        "data build coglm --out {tmp}/out",
        "clear",
        "{tmp}/loop",
        "COG_TASKS_DATA",
        setup=symlink_loop,
        env={"COG_TASKS_DATA": "{tmp}/loop"},
    ),
    case("lm-eval-unknown-task", "lm-eval run --tasks coglm_nope", "clear", "coglm_nope"),
    case(
        "lm-eval-negative-limit", "lm-eval run --tasks coglm --limit -1", "clear", "--limit", "'-1'"
    ),
    case(
        "coglm-report-a-file-that-is-no-log",
        "coglm report {tmp}/x.eval",
        "clear",
        "{tmp}/x.eval",
        setup=existing("x.eval"),
    ),
    # --- silent before
    case(
        "cogeval-generate-duplicate-graphs",
        "cogeval generate --graphs n7line,n7line --out {tmp}/g.jsonl",
        "clear",
        "n7line given twice",
    ),
    case(
        "cogbench-chance-a-billion-iterations",
        "cogbench chance -T source=sample -T iterations=1000000000 --log-dir {tmp}/logs",
        "clear",
        "iterations must be at most",
    ),
    case(
        "profile-negative-price",
        "profile run --model chance --out {tmp}/p --dry-run --price-in -3",
        "clear",
        "--price-in",
        "'-3'",
    ),
    case(
        "profile-nan-price",
        "profile run --model chance --out {tmp}/p --dry-run --price-out nan",
        "clear",
        "--price-out",
        "'nan'",
    ),
    case(
        "profile-zero-max-tokens",
        "profile run --model chance --out {tmp}/p --max-tokens 0",
        "clear",
        "--max-tokens",
        "'0'",
    ),
    case(
        "profile-negative-temperature",
        "profile run --model chance --out {tmp}/p --dry-run --temperature -1",
        "clear",
        "--temperature",
        "'-1'",
    ),
    case(
        "profile-unknown-role",
        "profile run --model chance --out {tmp}/p --dry-run --model-role villain=x/y",
        "clear",
        "--model-role villain",
    ),
    case(
        "interdependence-negative-temperature",
        "coglm interdependence --model chance --out {tmp}/s --temperature -1",
        "clear",
        "--temperature",
        "'-1'",
    ),
    # --- a refusal too broad before
    case(
        "cogeval-score-one-unreadable-gold",
        "cogeval score {tmp}/r.jsonl --out {tmp}/o.jsonl",
        "handled",
        "scored 2 replies, 1 correct",
        setup=lambda tmp: write(
            tmp / "r.jsonl", json.dumps(COGEVAL_ROW) + "\n" + json.dumps(COGEVAL_UNREADABLE) + "\n"
        ),
        check=gold_marked,
    ),
    case(
        "cogeval-score-unreadable-gold-strict",
        "cogeval score {tmp}/r.jsonl --out {tmp}/o.jsonl --strict",
        "clear",
        "{tmp}/r.jsonl:2",
        "expected answer",
        setup=lambda tmp: write(
            tmp / "r.jsonl", json.dumps(COGEVAL_ROW) + "\n" + json.dumps(COGEVAL_UNREADABLE) + "\n"
        ),
    ),
]


def _probe_case(param: Any) -> Any:
    """A bad-input probe of ``test_bad_input_probes`` as a ``clear`` row."""
    probe = param.values[0]
    row = Case(
        f"probe-{probe.id}",
        probe.argv,
        "clear",
        probe.names,
        probe.setup,
        env=probe.env,
        data=probe.data,
        source="#27 and #34-#42 probes",
    )
    return pytest.param(row, id=row.id, marks=param.marks)


TABLE = ISSUE_47 + [_probe_case(param) for param in PROBES]


@pytest.fixture
def row_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty download cache, no Hub settings, the row's folder as working folder."""
    monkeypatch.setenv("COG_TASKS_CACHE", str(tmp_path / "cache"))
    for name in ("COGLM", "COGEVAL", "COGBENCH", "EGOSOCIAL"):
        monkeypatch.delenv(f"COG_TASKS_{name}_HUB", raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(argv: list[str]) -> tuple[int, str, str]:
    """Run ``cog-tasks`` in-process: exit code, stdout, stderr."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as stop:  # argparse's own refusals
            code = int(stop.code or 0)
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("row", TABLE)
def test_reliability_row(row: Case, row_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tmp = row_env
    if row.setup:
        row.setup(tmp)
    if row.data:
        (tmp / "data").mkdir(exist_ok=True)
        monkeypatch.setenv("COG_TASKS_DATA", str(tmp / "data"))
    for name, value in row.env.items():
        monkeypatch.setenv(name, value.format(tmp=tmp))
    code, out, err = run([part.format(tmp=tmp) for part in row.argv])
    assert "Traceback" not in err
    if row.outcome == "clear":
        lines = error_lines(err)
        assert code == 2, f"exit {code}, stderr: {err!r}"
        assert len(lines) == 1, f"expected one error line, got {lines}"
        for name in row.names:
            assert name.format(tmp=tmp) in lines[0], (name, lines[0])
    else:
        assert code == row.code, f"exit {code}, stderr: {err!r}"
        for name in row.names:
            assert name.format(tmp=tmp) in out + err, (name, out, err)
        if row.check:
            row.check(tmp, out, err)


def test_the_table_has_no_silent_or_opaque_row(capsys: pytest.CaptureFixture[str]) -> None:
    """Every row expects clear or handled; the counts are printed for the closing note."""
    rows = [param.values[0] for param in TABLE]
    counts = Counter(row.outcome for row in rows)
    assert set(counts) <= set(OUTCOMES)
    assert len({row.id for row in rows}) == len(rows)
    with capsys.disabled():
        print(f"\nreliability table: {dict(counts)}, silent 0, opaque 0 ({len(rows)} rows)")


# ----------------------------------------------------------------------------- signals and secrets


def test_sigterm_says_what_sigint_says(row_env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A SIGTERM during a command: the interrupt's one line and exit code, scratch removed."""
    from cog_tasks import cli
    from cog_tasks.common.files import scratch_folder

    scratch: list[Path] = []

    def terminated(arguments: Any) -> None:
        with scratch_folder(row_env, ".scratch-") as folder:
            scratch.append(folder)
            os.kill(os.getpid(), signal.SIGTERM)

    monkeypatch.setattr(cli, "run_lm_eval", terminated)
    code, _, err = run(["lm-eval", "ls"])
    assert (code, err.strip()) == (
        130,
        "cog-tasks lm-eval: interrupted; run the same command again to resume",
    )
    assert scratch and not scratch[0].exists()
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL


def running(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie waiting for its reaper does not)."""
    import psutil

    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def test_sigterm_during_a_profile_step_leaves_no_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SIGTERM to ``profile run`` during its lm-eval step: it stops, and so do the step's processes.

    The step's command starts a process of its own, as a launcher would; neither may outlive it.
    """
    import sys
    import threading
    import time

    from cog_tasks.commands import profile
    from cog_tasks.common.files import terminate_as_interrupt
    from cog_tasks.common.spec import Step

    pids = tmp_path / "pids"
    script = (
        "import os, subprocess, sys, time\n"
        "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(120)'])\n"
        f"open({str(pids)!r} + '.tmp', 'w').write(f'{{os.getpid()}} {{child.pid}}')\n"
        f"os.replace({str(pids)!r} + '.tmp', {str(pids)!r})\n"
        "time.sleep(120)\n"
    )
    monkeypatch.setattr(profile, "_coglm_command", lambda *_: [sys.executable, "-c", script])

    def terminate_when_started() -> None:
        while not pids.exists():
            time.sleep(0.05)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=terminate_when_started, daemon=True).start()
    with pytest.raises(KeyboardInterrupt), terminate_as_interrupt():
        profile._run_lm_eval(profile.ModelSpec("hf/local"), Step("coglm", "coglm_chat"), tmp_path)

    started = [int(pid) for pid in pids.read_text().split()]
    deadline = time.monotonic() + 5  # SIGKILL is delivered asynchronously: let it land
    while [pid for pid in started if running(pid)] and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(started) == 2 and not [pid for pid in started if running(pid)]


@pytest.mark.skipif(os.uname().sysname != "Linux", reason="prctl's parent-death signal")
@pytest.mark.parametrize(
    "start",
    [
        "with files.child_process(command): time.sleep(120)",
        "files.start_child(command); time.sleep(120)",
    ],
    ids=["child_process", "start_child"],
)
def test_sigkill_of_the_parent_leaves_no_child(start: str, tmp_path: Path) -> None:
    """SIGKILL to a process that started a child through ``files``: the child dies with it.

    The parent cannot clean up after a SIGKILL; the child's parent-death signal does.
    """
    import subprocess
    import sys
    import time

    pid_file = tmp_path / "child"
    sleep = (
        f"import os, time; open({str(pid_file)!r}, 'w').write(str(os.getpid())); time.sleep(120)"
    )
    script = (
        "import sys, time\n"
        "from cog_tasks.common import files\n"
        f"command = [sys.executable, '-c', {sleep!r}]\n"
        f"{start}\n"
    )
    parent = subprocess.Popen([sys.executable, "-c", script])
    try:
        deadline = time.monotonic() + 60
        while not (pid_file.exists() and pid_file.read_text()) and time.monotonic() < deadline:
            time.sleep(0.05)
        child = int(pid_file.read_text())
        assert running(child)
    finally:
        parent.kill()
        parent.wait()
    deadline = time.monotonic() + 5
    while running(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not running(child)


@pytest.mark.skipif(os.uname().sysname != "Linux", reason="prctl's parent-death signal")
def test_start_child_runs_no_python_in_the_fork(monkeypatch: pytest.MonkeyPatch) -> None:
    """No ``preexec_fn`` (unsafe while other threads run); the command is exec'd in place."""
    import subprocess
    import sys

    from cog_tasks.common import files

    popen = subprocess.Popen
    seen: dict[str, Any] = {}

    def spy(*args: Any, **kwargs: Any) -> subprocess.Popen[bytes]:
        seen.update(kwargs)
        return popen(*args, **kwargs)

    monkeypatch.setattr(subprocess, "Popen", spy)
    command = [sys.executable, "-c", "import os; print(os.getpid())"]
    process = files.start_child(command, stdout=subprocess.PIPE)
    output, _ = process.communicate()
    assert "preexec_fn" not in seen and int(output) == process.pid


def test_a_failed_run_is_one_line() -> None:
    """A failed condition of a study: one line with the error's last line and the log, not 30 kB."""
    from types import SimpleNamespace

    from cog_tasks.common.cli import is_user_error
    from cog_tasks.common.errors import RunFailedError

    trace = "Traceback (most recent call last):\n" + "  frame\n" * 2000 + "ValueError: bad reply"
    log = SimpleNamespace(status="error", error=SimpleNamespace(message=trace), location="/l.eval")
    error = RunFailedError.of("condition 'plan'", log)
    assert is_user_error(error) and "\n" not in str(error) and len(str(error)) < 300
    assert "ValueError: bad reply" in str(error) and "/l.eval" in str(error)


@pytest.mark.parametrize(
    "label",
    [
        f"hf/m[token='{FAKE},B2',pretrained=m]",
        f"hf/m[token={FAKE},B2]",
        f"hf/m[bearer_token={FAKE}]",
        f"hf/m[authorization='Bearer {FAKE} B2']",
        f"hf/m[api_key=[{FAKE}, B2]]",
    ],
)
def test_a_secret_value_is_redacted_whole(label: str) -> None:
    """A label's secret leaves nothing behind: not the part after a comma, space or bracket."""
    from cog_tasks.common.runs import RunIdentity

    identity = RunIdentity.of("t@1", label, arguments={"model_args": label, "client_secret": FAKE})
    shown = identity.label() + json.dumps(identity.as_dict())
    assert FAKE not in shown and "B2" not in shown


TAIL = "TAILCANARY9"
"""What follows a comma in a secret: no output may hold it either."""
CANARY_ARGS = {"token": f"{FAKE},{TAIL} x", "bearer_token": FAKE, "client_secret": f"[{FAKE}]"}
"""Model arguments whose values must never be written (commas, spaces and brackets included)."""

CHANCE_RUNS = [
    "coglm chance --limit 2 --log-dir {tmp}/coglm",
    "cogeval chance -T graphs=n7line --limit 2 --log-dir {tmp}/cogeval",
    "cogbench chance -T source=sample -T agent=cot -T iterations=1 -T judge=false --limit 1 "
    "--log-dir {tmp}/cogbench",
    "egosocial chance egosocial_static --limit 2 --log-dir {tmp}/egosocial",
]
WRITING_COMMANDS = [
    "coglm report {tmp}/coglm --out {tmp}/out/coglm.png",
    "coglm report {tmp}/coglm --json",
    "coglm report {log:coglm} --json",  # one .eval file, not only a folder
    "cogeval report --log {tmp}/cogeval --out {tmp}/out/cogeval",
    "cogeval analyze --log {tmp}/cogeval --json",
    "cogbench report {tmp}/cogbench --out {tmp}/out/cogbench",
    "cogbench export {log:cogbench} --out {tmp}/out/cogbench.json",
    "egosocial report {tmp}/egosocial --out {tmp}/out/egosocial",
]
"""Every command that writes (or prints) what it read from a log."""


@pytest.mark.slow
def test_no_written_file_holds_a_canary_secret(row_env: Path) -> None:
    """Logs whose model arguments hold secrets: nothing any command writes or prints holds one."""
    from inspect_ai.log import read_eval_log, write_eval_log

    tmp = row_env
    for command in CHANCE_RUNS:
        code, _, err = run(command.format(tmp=tmp).split())
        assert code == 0, err
    logs = {}
    for folder in ("coglm", "cogeval", "cogbench", "egosocial"):
        [path] = (tmp / folder).glob("*.eval")
        log = read_eval_log(str(path))
        log.eval.model_args = {**(log.eval.model_args or {}), **CANARY_ARGS}
        write_eval_log(log, str(path))
        logs[folder] = path
    (tmp / "out").mkdir()
    printed = []
    for command in WRITING_COMMANDS:
        for name, path in logs.items():
            command = command.replace(f"{{log:{name}}}", str(path))
        argv = command.format(tmp=tmp)
        code, out, err = run(argv.split())
        assert code == 0, (command, err)
        printed += [out, err]
    files = [path for path in (tmp / "out").rglob("*") if path.is_file()]
    assert len(files) >= 7
    texts = printed + [path.read_bytes().decode("utf-8", "replace") for path in files]
    leaks = [text[:200] for text in texts if FAKE in text or TAIL in text]
    assert not leaks


def inspect_case(task: str, argument: str, name: str, id: str, **env: str) -> Any:
    """An ``inspect eval`` row: its arguments (after the defaults), what its line names, its env."""
    return pytest.param(task, argument, name, env, id=id)


INSPECT_CASES = [
    inspect_case("cog_tasks/egosocial_static", "-T size=abc", "size", "inspect-size-abc"),
    inspect_case("cog_tasks/egosocial_number_guessing", "-T games=0", "games", "inspect-games-0"),
    inspect_case(
        "cog_tasks/egosocial_static", "-T source=/nonexistent", "/nonexistent", "inspect-source"
    ),
    # Refusals a sample would raise (Inspect then logs the error, says "Task interrupted" and
    # exits 0): each is made while the task is built, where the eval's model and roles are known.
    inspect_case(
        "cog_tasks/cogeval", "--temperature 0", "-T temperatures=0", "inspect-temperature"
    ),
    inspect_case(
        "cog_tasks/cogbench",
        "-T source=sample -T agent=cot -T iterations=1",
        "--model-role judge=MODEL",
        "inspect-cogbench-no-judge",
    ),
    inspect_case(
        "cog_tasks/cogbench",
        "-T source=sample -T agent=cot -T self_judge=true --model-role judge=mockllm/model",
        "self_judge",
        "inspect-cogbench-two-judges",
    ),
    inspect_case(
        "cog_tasks/egosocial_blackjack_beliefs",
        "",
        "--model-role judge=MODEL",
        "inspect-beliefs-no-judge",
    ),
    # CogGPT's prompts are the authors', fetched: offline, with no copy, the task is refused.
    inspect_case(
        "cog_tasks/cogbench",
        "-T source=sample -T judge=false",
        "-T prompts=ours",
        "inspect-coggpt-prompts-offline",
        COG_TASKS_DATA="{tmp}/data",
        HF_HUB_OFFLINE="1",
    ),
    # The llama-text prompt on an hf/ model without the plain-text template (SmolLM2, local).
    inspect_case(
        "cog_tasks/coglm_chat",
        "-T prompt=llama-text --model hf/smollm2 -M model_path={smollm2}",
        "chat_template",
        "inspect-llama-text-template",
    ),
]


@pytest.mark.slow
@pytest.mark.parametrize(("task", "argument", "name", "env"), INSPECT_CASES)
def test_inspect_eval_ends_on_our_line(
    task: str, argument: str, name: str, env: dict[str, str], row_env: Path
) -> None:
    """``inspect eval`` with a bad setting: our one line last, exit code 2, no traceback."""
    import subprocess

    if "{smollm2}" in argument:
        from cog_tasks.common.models import embedded_model_path

        argument = argument.replace("{smollm2}", str(embedded_model_path("smollm2")))
    (row_env / "data").mkdir()
    finished = subprocess.run(
        [
            "inspect",
            "eval",
            task,
            "--model",
            "mockllm/model",
            "--limit",
            "1",
            "--log-dir",
            str(row_env / "logs"),
            *argument.split(),  # after the defaults: a row's --model wins
        ],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=row_env,
        env={**os.environ, **{key: value.format(tmp=row_env) for key, value in env.items()}},
    )
    lines = [line for line in finished.stderr.splitlines() if line.strip()]
    assert finished.returncode == 2, finished.stderr[-2000:]
    assert "Traceback" not in finished.stderr
    assert lines[-1].startswith("inspect: error: ") and name in lines[-1], lines[-3:]
