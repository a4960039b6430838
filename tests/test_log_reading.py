"""Inspect logs are read one way: through ``cog_tasks.common.logs``, filtered by task and status."""

from __future__ import annotations

import re
import sys
import zipfile
from pathlib import Path

import pytest
from inspect_ai.log import EvalConfig, EvalDataset, EvalLog, EvalSample, EvalSpec, write_eval_log
from inspect_ai.model import ModelOutput

from cog_tasks.common.logs import SUCCESS_ONLY, InspectLogError, read_log, read_logs

PACKAGE = Path(__file__).resolve().parents[1] / "cog_tasks"
THE_READER = Path("common") / "logs.py"
INSPECT_READERS = re.compile(r"\b(read_eval_log\w*|list_eval_logs\w*)\b")


def readers_outside_common_logs() -> list[str]:
    """``file:line`` of every mention of Inspect's log readers outside the one reader."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.relative_to(PACKAGE) == THE_READER:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if INSPECT_READERS.search(line):
                found.append(f"{path.relative_to(PACKAGE.parent)}:{number}")
    return found


def test_only_common_logs_uses_inspect_log_readers() -> None:
    assert readers_outside_common_logs() == []


@pytest.mark.parametrize(
    "source",
    [
        "from inspect_ai.log import read_eval_log\n",
        "from inspect_ai.log import EvalLog, read_eval_log_samples\n",
        "import inspect_ai.log\nlogs = inspect_ai.log.list_eval_logs('.')\n",
    ],
)
def test_the_check_sees_a_direct_reader(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, source: str
) -> None:
    (tmp_path / "cog_tasks" / "common").mkdir(parents=True)
    (tmp_path / "cog_tasks" / "common" / "logs.py").write_text(source, encoding="utf-8")
    (tmp_path / "cog_tasks" / "report.py").write_text(source, encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", tmp_path / "cog_tasks")
    assert [where.split(":")[0] for where in readers_outside_common_logs()] == [
        str(Path("cog_tasks") / "report.py")
    ]


def write_log(path: Path, task: str = "cogbench", status: str = "success") -> Path:
    """Write a one-sample Inspect log of ``task`` with ``status`` (no framework run)."""
    log = EvalLog(
        status=status,  # type: ignore[arg-type]
        eval=EvalSpec(
            created="2026-01-01T00:00:00+00:00",
            task=f"cog_tasks/{task}",
            dataset=EvalDataset(),
            model="mockllm/model",
            config=EvalConfig(),
        ),
        samples=[
            EvalSample(
                id=1,
                epoch=1,
                input="question",
                target="A",
                output=ModelOutput.from_content("mockllm/model", "reply"),
            )
        ],
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    write_eval_log(log, str(path))
    return path


def test_read_log_returns_a_log_of_the_task_with_its_samples(tmp_path: Path) -> None:
    for name in ("run.eval", "run.json"):
        path = write_log(tmp_path / name)
        log = read_log(path, tasks={"cogbench"}, statuses=SUCCESS_ONLY)
        assert log.eval.task == "cog_tasks/cogbench"
        assert [sample.output.completion for sample in log.samples or []] == ["reply"]
        by_uri = read_log(path.as_uri(), tasks={"cogbench"}, statuses=SUCCESS_ONLY)
        assert by_uri.eval.task == "cog_tasks/cogbench"  # EvalLog.location may be a URI


def test_read_log_names_the_file_of_another_task(tmp_path: Path) -> None:
    path = write_log(tmp_path / "other.eval", task="egosocial_static")
    with pytest.raises(InspectLogError, match=r"other\.eval: a log of task 'egosocial_static', "):
        read_log(path, tasks={"cogbench"}, statuses=SUCCESS_ONLY)


def test_read_log_names_the_file_of_another_status(tmp_path: Path) -> None:
    path = write_log(tmp_path / "failed.eval", status="error")
    with pytest.raises(InspectLogError, match=r"failed\.eval: a log with status 'error'"):
        read_log(path, tasks={"cogbench"}, statuses=SUCCESS_ONLY)
    assert read_log(path, tasks={"cogbench"}, statuses={"error"}).status == "error"


def _zip_without_a_log(path: Path) -> None:
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("notes.txt", "not a log")


@pytest.mark.parametrize(
    ("name", "write"),
    [
        ("notes.txt", lambda path: path.write_text("hello", encoding="utf-8")),
        ("results.json", lambda path: path.write_text('{"results": {}}', encoding="utf-8")),
        ("list.json", lambda path: path.write_text("[1, 2]", encoding="utf-8")),
        ("binary.json", lambda path: path.write_bytes(bytes(range(256)))),
        ("garbage.eval", lambda path: path.write_text("garbage", encoding="utf-8")),
        ("archive.eval", _zip_without_a_log),
    ],
)
def test_a_file_that_is_not_a_log_is_named(tmp_path: Path, name: str, write) -> None:
    path = tmp_path / name
    write(path)
    with pytest.raises(InspectLogError, match=rf"^{re.escape(str(path))}: not an Inspect log"):
        read_log(path, tasks={"cogbench"}, statuses=SUCCESS_ONLY)
    with pytest.raises(InspectLogError, match=rf"{re.escape(name)}: not an Inspect log"):
        read_logs([path], tasks={"cogbench"}, statuses=SUCCESS_ONLY)


def test_missing_file_and_unknown_status(tmp_path: Path) -> None:
    for absent in (tmp_path / "absent.eval", (tmp_path / "absent.eval").as_uri()):
        with pytest.raises(FileNotFoundError, match=r"absent\.eval: no such log file$"):
            read_log(absent, tasks={"cogbench"}, statuses=SUCCESS_ONLY)
    with pytest.raises(FileNotFoundError, match="absent: no such log file or folder"):
        read_logs(tmp_path / "absent", tasks={"cogbench"}, statuses=SUCCESS_ONLY)
    with pytest.raises(ValueError, match=r"unknown log status\(es\) \['done'\]"):
        read_logs(tmp_path, tasks={"cogbench"}, statuses={"done"})


def test_read_logs_keeps_the_task_and_reports_skipped_statuses(tmp_path: Path) -> None:
    write_log(tmp_path / "a" / "2026-01-01T00-00-00+00-00_cogbench_good.eval")
    write_log(tmp_path / "a" / "2026-01-01T00-00-01+00-00_cogbench_bad.eval", status="cancelled")
    write_log(tmp_path / "b" / "2026-01-01T00-00-02+00-00_other_one.eval", task="other")
    found = read_logs(tmp_path, tasks={"cogbench"}, statuses=SUCCESS_ONLY)
    assert [log.status for log in found.logs] == ["success"]
    assert [status for _, status in found.skipped] == ["cancelled"]
    assert found.skipped_note() == (
        "skipped 1 log(s) with status cancelled (pass --status to include them)"
    )
    every = read_logs(tmp_path, tasks={"cogbench", "other"}, statuses={"success", "cancelled"})
    assert len(every.logs) == 3 and not every.skipped
