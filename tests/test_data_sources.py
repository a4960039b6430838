"""Data sources that fail: offline, bad downloads, damaged caches, Hub settings."""

import io
import json
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from cog_tasks.cogbench import loader as cogbench_loader
from cog_tasks.coglm import records
from cog_tasks.coglm.abilities import ABILITY_BY_CODE
from cog_tasks.common.settings import hub_env, hub_source, offline, parse_hub

CONST = ABILITY_BY_CODE["const"]


@pytest.fixture
def no_local_data(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No COG_TASKS_DATA, no Hub setting, an empty cache; returns the cache root."""
    for variable in ("COG_TASKS_DATA", "COG_TASKS_COGLM_HUB", "COG_TASKS_COGBENCH_HUB"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("COG_TASKS_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def serve(monkeypatch: pytest.MonkeyPatch, payload: bytes | Exception) -> list[str]:
    """Replace urlopen; returns the list of URLs asked for."""
    asked: list[str] = []

    def fake_urlopen(url: str, timeout: float) -> io.BytesIO:
        asked.append(url)
        if isinstance(payload, Exception):
            raise payload
        return io.BytesIO(payload)

    monkeypatch.setattr(urllib.request, "urlopen", fake_urlopen)
    return asked


def test_offline_coglm_fails_at_once_with_the_ways_out(
    no_local_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    asked = serve(monkeypatch, AssertionError("the network was tried"))
    with pytest.raises(records.CogLMDownloadError) as error:
        records.load_records("const")
    message = str(error.value)
    assert asked == []
    assert f"{records.UPSTREAM_URL}/first_stage/exist.json" in message
    assert records.UPSTREAM_COMMIT in message
    assert "COG_TASKS_DATA" in message and "coglm/first_stage/exist.json" in message
    assert "COG_TASKS_COGLM_HUB=ORG/NAME[@REVISION]" in message
    assert "cog-tasks data build coglm" in message


def test_network_error_names_url_and_fix(
    no_local_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "0")
    asked = serve(monkeypatch, urllib.error.URLError("Name or service not known"))
    with pytest.raises(records.CogLMDownloadError, match="URLError.*Name or service not known"):
        records.load_records("const")
    assert asked == [f"{records.UPSTREAM_URL}/first_stage/exist.json"]
    assert not (no_local_data / "coglm").exists()


@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        (b"<html><body>429 Too Many Requests</body></html>", "not the expected JSON"),
        (
            json.dumps([{"question": "Q", "candidates": ["a", "b"], "answer": 0}]).encode(),
            "1 items",
        ),
    ],
)
def test_bad_download_never_enters_the_cache(
    no_local_data: Path, monkeypatch: pytest.MonkeyPatch, payload: bytes, reason: str
) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "0")
    serve(monkeypatch, payload)
    with pytest.raises(records.CogLMDownloadError, match=reason):
        records.load_records("const")
    assert not list(no_local_data.rglob("*.json"))


def test_checked_download_is_cached_then_read_offline(
    no_local_data: Path, monkeypatch: pytest.MonkeyPatch, shared_data: Path
) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "0")
    asked = serve(monkeypatch, (shared_data / "coglm/first_stage/exist.json").read_bytes())
    first = records.load_records("const")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    assert records.load_records("const") == first
    assert len(asked) == 1 and len(first) == 50


def test_damaged_cache_says_how_to_clear_it(no_local_data: Path) -> None:
    cached = no_local_data / "coglm" / records.UPSTREAM_COMMIT / CONST.relative_path
    cached.parent.mkdir(parents=True)
    cached.write_text("<html>")
    with pytest.raises(records.CogLMDataError, match=rf"delete {cached}"):
        records.load_records("const")


def test_hub_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert [hub_env(b) for b in ("coglm", "cogeval", "cogbench", "egosocial")] == [
        "COG_TASKS_COGLM_HUB",
        "COG_TASKS_COGEVAL_HUB",
        "COG_TASKS_COGBENCH_HUB",
        "COG_TASKS_EGOSOCIAL_HUB",
    ]
    source = parse_hub("org/coglm@v1.0", "X")
    assert (source.location, source.revision, source.is_folder) == ("org/coglm", "v1.0", False)
    assert parse_hub(str(tmp_path), "X").is_folder
    for bad in ("coglm", "org/coglm@", "a/b/c"):
        with pytest.raises(ValueError, match="expected ORG/NAME"):
            parse_hub(bad, "COG_TASKS_COGLM_HUB")
    monkeypatch.setenv("COG_TASKS_COGEVAL_HUB", "org/cogeval")
    assert str(hub_source("cogeval")) == "org/cogeval"
    assert hub_source("cogeval", "org/other@main").revision == "main"
    monkeypatch.delenv("COG_TASKS_EGOSOCIAL_HUB", raising=False)
    assert hub_source("egosocial") is None
    monkeypatch.setenv("HF_HUB_OFFLINE", "true")
    assert offline()
    monkeypatch.setenv("HF_HUB_OFFLINE", "0")
    assert not offline()


def test_missing_hub_copy_names_the_setting(no_local_data: Path, tmp_path: Path) -> None:
    with pytest.raises(records.CogLMDownloadError, match="COG_TASKS_COGLM_HUB"):
        records.load_records("const", hub=str(tmp_path))  # an empty folder


def test_cogbench_offline_hub_failure(no_local_data: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COG_TASKS_COGBENCH_REVISION", raising=False)
    with pytest.raises(FileNotFoundError) as error:
        cogbench_loader.locate("english", "hub", needed=("eval_cogbench_a.json",))
    message = str(error.value)
    url = (
        "https://huggingface.co/datasets/kwaikeg/CogBench/resolve/"
        f"{cogbench_loader.DEFAULT_REVISION}/english/eval_cogbench_a.json"
    )
    assert url in message
    assert "HF_HUB_OFFLINE is set" in message
    assert "COG_TASKS_DATA" in message and "cogbench/english/" in message
    assert "COG_TASKS_COGBENCH_HUB" in message and "source=sample" in message


def test_cogbench_reads_a_built_folder_through_the_hub_setting(
    no_local_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cog_tasks.cogbench.dataset import write_sample_folder

    write_sample_folder(tmp_path / "built")
    monkeypatch.setenv("COG_TASKS_COGBENCH_HUB", str(tmp_path / "built"))
    from_hub, location = cogbench_loader.load_trajectories("a", source="hub")
    sample, _ = cogbench_loader.load_trajectories("a", source="sample")
    assert location.folder == tmp_path / "built" / "english"
    assert [t.steps for t in from_hub] == [t.steps for t in sample]


def test_missing_optional_dependency_names_its_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from cog_tasks.cogbench.agents.memory import LongTermMemory
    from cog_tasks.common.extras import import_extra

    monkeypatch.setitem(sys.modules, "chromadb", None)  # as if not installed
    with pytest.raises(ModuleNotFoundError, match=r'pip install "cog-tasks\[coggpt\]"'):
        LongTermMemory("probe")
    assert import_extra("json", "api").dumps([]) == "[]"


def test_damaged_cogbench_cache_file_says_how_to_clear_it(tmp_path: Path) -> None:
    from cog_tasks.cogbench.records import RecordError

    snapshot = tmp_path / "datasets--kwaikeg--CogBench" / "snapshots" / "abc" / "english"
    snapshot.mkdir(parents=True)
    (snapshot / "eval_cogbench_a.json").write_text("<html>")
    with pytest.raises(RecordError, match="cached download is damaged: delete"):
        cogbench_loader.load_records(snapshot / "eval_cogbench_a.json")
