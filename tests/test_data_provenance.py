"""Data provenance in the run (issue 40): what a task read, in its metadata and its identity.

Tasks are built, never run: building reads the data, which is what is recorded.
Data folders are copies of ``$COG_TASKS_DATA`` (``../shared/data``) under ``tmp_path``.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from inspect_ai import Task
from inspect_ai.log import EvalConfig, EvalDataset, EvalLog, EvalSpec

from cog_tasks.cogbench.inspect.cogbench import cogbench
from cog_tasks.cogeval.inspect.cogeval import cogeval
from cog_tasks.coglm.abilities import ABILITY_BY_CODE
from cog_tasks.coglm.inspect.coglm import coglm_chat
from cog_tasks.common.files import read_text
from cog_tasks.common.logs import DATA_ARGUMENT, run_identity
from cog_tasks.common.provenance import DATA_PROVENANCE, cache_reads, recording_reads
from cog_tasks.common.settings import DATA_ENV
from cog_tasks.common.sources import DataHashWarning
from cog_tasks.egosocial.inspect.static import egosocial_static

CONST = ABILITY_BY_CODE["const"]
SAMPLE = Path(__file__).resolve().parents[1] / "cog_tasks" / "cogbench" / "sample" / "english"


def data_of(task: Task) -> dict[str, Any]:
    """The task's recorded data provenance."""
    assert task.metadata is not None
    return task.metadata[DATA_PROVENANCE]


def copy_coglm(shared_data: Path, root: Path) -> Path:
    """A data root holding a copy of CogLM's conservation file; returns the copy."""
    copy = root / "coglm" / CONST.relative_path
    copy.parent.mkdir(parents=True)
    shutil.copyfile(shared_data / "coglm" / CONST.relative_path, copy)
    return copy


@pytest.fixture
def shared_data() -> Path:
    """``$COG_TASKS_DATA``; the tests that copy it need it."""
    root = os.environ.get(DATA_ENV)
    if not root or not (Path(root) / "coglm" / CONST.relative_path).is_file():
        pytest.skip(f"needs {DATA_ENV} holding CogLM's files")
    return Path(root)


def test_coglm_tasks_on_the_same_data_share_a_hash_and_on_other_data_do_not(
    shared_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = copy_coglm(shared_data, tmp_path / "one")
    copy_coglm(shared_data, tmp_path / "two")
    monkeypatch.setenv(DATA_ENV, str(tmp_path / "one"))
    one = data_of(coglm_chat(abilities="const"))
    monkeypatch.setenv(DATA_ENV, str(tmp_path / "two"))
    two = data_of(coglm_chat(abilities="const"))
    # The same bytes from another folder: the same hash, each folder named as the origin.
    assert one["sha256"] == two["sha256"] is not None
    assert one["origins"] == [f"local {tmp_path / 'one' / 'coglm'}"]
    assert two["origins"] == [f"local {tmp_path / 'two' / 'coglm'}"]
    (file,) = one["files"]
    assert (file["path"], file["check"]) == (CONST.relative_path, "pinned")
    # One answer changed: a warning names the file, and the hash differs.
    items = json.loads(first.read_text(encoding="utf-8"))
    items[0]["answer"] = (items[0]["answer"] + 1) % len(items[0]["candidates"])
    first.write_text(json.dumps(items), encoding="utf-8")
    monkeypatch.setenv(DATA_ENV, str(tmp_path / "one"))
    with pytest.warns(DataHashWarning, match=str(first)):
        changed = data_of(coglm_chat(abilities="const"))
    assert changed["sha256"] != one["sha256"]
    assert changed["files"][0]["check"] == "differs"


def test_more_files_read_is_other_data(shared_data: Path) -> None:
    assert data_of(coglm_chat(abilities="const"))["sha256"] != data_of(coglm_chat())["sha256"]
    assert len(data_of(coglm_chat())["files"]) == 10


def test_a_file_read_in_place_is_recorded(tmp_path: Path) -> None:
    """CogBench's folder source reads files in place, through ``read_text``."""
    folders = [tmp_path / "one", tmp_path / "two"]
    for folder in folders:
        shutil.copytree(SAMPLE, folder / "english")
    one, two = (data_of(cogbench(source=str(folder), iterations=1)) for folder in folders)
    assert one["sha256"] == two["sha256"] is not None
    assert {file["check"] for file in one["files"]} == {"unverified"}
    assert one["origins"] == [f"local {folders[0] / 'english'}"]
    ratings = folders[1] / "english" / "eval_cogbench_a.json"
    # The same records, written otherwise: other bytes, so other data.
    ratings.write_text(json.dumps(json.loads(ratings.read_text(encoding="utf-8"))), "utf-8")
    assert data_of(cogbench(source=str(folders[1]), iterations=1))["sha256"] != one["sha256"]


def test_egosocial_data_file_and_authors_files_are_recorded(
    shared_data: Path, tmp_path: Path
) -> None:
    authors = data_of(egosocial_static(scenarios="daily_life"))
    assert [file["path"] for file in authors["files"]] == ["socialfirst.jsonl"]
    own = tmp_path / "mine.jsonl"
    shutil.copyfile(shared_data / "egosocial" / "socialfirst.jsonl", own)
    mine = data_of(egosocial_static(scenarios="daily_life", data_file=str(own)))
    # The same bytes read in place: the same hash, though not the pinned check.
    assert mine["sha256"] == authors["sha256"]
    assert mine["files"][0]["check"] == "unverified"


def test_holdem_records_the_opponents_weights_it_plays() -> None:
    """Each DQN opponent's weights with the hash load_opponent checks; one opponent, other data."""
    from cog_tasks.egosocial.inspect.games import egosocial_holdem
    from cog_tasks.egosocial.opponents.holdem_dqn import sha256_of, shipped_weights_dir

    both = data_of(egosocial_holdem(opponents="dqn"))
    assert [file["path"] for file in both["files"]] == ["dqn_aggressive.pt", "dqn_conservative.pt"]
    for file in both["files"]:
        assert file["sha256"] == sha256_of(shipped_weights_dir() / file["path"])
    aggressive = egosocial_holdem(opponent="aggressive", opponents="dqn")
    assert data_of(aggressive)["sha256"] != both["sha256"]


def test_a_task_without_data_files_records_none() -> None:
    assert data_of(egosocial_static(source="generated", scenarios="new_world", size=2)) == {
        "sha256": None,
        "origins": [],
        "files": [],
    }


def test_reads_outside_a_recording_are_not_kept_and_recordings_nest(tmp_path: Path) -> None:
    file = tmp_path / "a.txt"
    file.write_bytes(b"one\r\ntwo\r")
    read_text(file)
    with recording_reads() as outer:
        with recording_reads() as inner:
            # Newlines stay universal, as Path.read_text reads them.
            assert read_text(file) == "one\ntwo\n"
        read_text(file)
    assert len(inner.files) == 1
    assert len(outer.files) == 2
    # A file read twice counts once.
    assert outer.metadata()["files"] == inner.metadata()["files"]
    assert outer.sha256() == inner.sha256()


def header(metadata: dict[str, Any] | None) -> EvalLog:
    """A log header of a run whose task recorded ``metadata``."""
    spec = EvalSpec(
        created="2026-01-01T00:00:00",
        task="coglm_chat",
        dataset=EvalDataset(),
        model="mockllm/model",
        config=EvalConfig(),
        metadata=metadata,
    )
    return EvalLog(eval=spec)


def test_runs_on_other_data_have_other_identities() -> None:
    one, two = ("a" * 64, "b" * 64)
    identities = [run_identity(header({DATA_PROVENANCE: {"sha256": h}})) for h in (one, one, two)]
    assert dict(identities[0].arguments)[DATA_ARGUMENT] == "a" * 12
    assert identities[0] == identities[1] != identities[2]
    # Logs written before the record, or by a task that read no file, have no data argument.
    for metadata in (None, {DATA_PROVENANCE: {"sha256": None}}):
        assert DATA_ARGUMENT not in dict(run_identity(header(metadata)).arguments)


def test_a_cached_loader_records_its_reads_on_every_build(shared_data: Path) -> None:
    """CogEval reads each task file once per process; every build still records it."""
    first, second = (data_of(cogeval(graphs="n7line", domains="ordRooms")) for _ in range(2))
    assert first == second
    assert first["sha256"] is not None
    assert first["origins"] == [f"local {shared_data / 'cogeval'}"]


def test_cache_reads_replays_the_first_calls_reads(tmp_path: Path) -> None:
    calls: list[Path] = []

    @cache_reads
    def load(path: Path) -> str:
        calls.append(path)
        return read_text(path)

    file = tmp_path / "a.txt"
    file.write_text("a", encoding="utf-8")
    for _ in range(2):
        with recording_reads() as reads:
            assert load(file) == "a"
        assert [read.source for read in reads.files] == [str(file)]
    assert calls == [file]
