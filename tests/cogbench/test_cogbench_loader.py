import json
import shutil
from pathlib import Path

import pytest

from cog_tasks.cogbench.loader import (
    DEFAULT_REVISION,
    check_content,
    fetch_records,
    load_records,
    load_trajectories,
    locate,
    pinned_revision,
    sample_dir,
)
from cog_tasks.cogbench.records import RecordError, Trajectory
from cog_tasks.common.sources import Content, DataSourceError


@pytest.mark.parametrize("subset", ["a", "v"])
def test_sample_set_loads(subset: str) -> None:
    trajectories, location = load_trajectories(subset, source="sample")
    assert location.fixture and "not human data" in location.description
    assert len(trajectories) == 4
    assert len({t.id for t in trajectories}) == 4
    for trajectory in trajectories:
        assert [s.iteration for s in trajectory.steps] == [0, 1, 2, 3]
        assert trajectory.steps[0].information_flow == ""
        assert all(s.information_flow for s in trajectory.steps[1:])
        assert all(len(s.questions) == 5 for s in trajectory.steps)
        assert all(r in range(1, 6) for s in trajectory.steps for r in s.human_ratings)
        assert Trajectory.from_metadata(trajectory.to_metadata()) == trajectory


def test_video_flows_join_dict_values() -> None:
    trajectories, _ = load_trajectories("v", source="sample", topics=["Market Analysis"])
    flow = trajectories[0].steps[1].information_flow
    assert "Why predictions fail\n0 of 12 banks got it right\n" in flow
    assert "\n\nBuy and hold explained" in flow


def test_topic_and_iteration_subsets() -> None:
    trajectories, _ = load_trajectories(
        "a", source="sample", topics=["Outdoor Adventures"], max_iteration=1
    )
    assert {t.topic for t in trajectories} == {"Outdoor Adventures"}
    assert all([s.iteration for s in t.steps] == [0, 1] for t in trajectories)
    with pytest.raises(ValueError, match="unknown CogBench topics \\['Gossip'\\]"):
        load_trajectories("a", source="sample", topics=["Gossip"])


def _copy_sample(tmp_path: Path) -> Path:
    target = tmp_path / "cogbench" / "english"
    shutil.copytree(sample_dir() / "english", target)
    return target


def test_local_folder_and_data_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _copy_sample(tmp_path)
    assert locate("english", str(tmp_path / "cogbench")).folder == folder
    assert locate("english", str(folder)).folder == folder
    monkeypatch.setenv("COG_TASKS_DATA", str(tmp_path))
    trajectories, location = load_trajectories("a")
    assert location.folder == folder and not location.fixture
    assert len(trajectories) == 4


def test_flows_fall_back_to_bench_file(tmp_path: Path) -> None:
    folder = _copy_sample(tmp_path)
    path = folder / "eval_cogbench_a.json"
    records = json.loads(path.read_text())
    for record in records:
        del record["information_flow"]
    path.write_text(json.dumps(records))
    trajectories, _ = load_trajectories("a", source=str(folder))
    assert trajectories[0].steps[1].information_flow.startswith("The Forecasts That Missed")


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda r: r["questionnaire"][2].pop("question"), "record 1 questionnaire item 2"),
        (lambda r: r["questionnaire"][0]["answer"].update(human_rating=9), "human_rating"),
        (lambda r: r.update(information_flow=[3]), "information_flow item 0"),
        (lambda r: r.pop("profile"), "has no 'profile'"),
        (lambda r: r.update(iteration="two"), "'iteration' must be"),
    ],
)
def test_malformed_record_is_rejected(tmp_path: Path, mutate, message: str) -> None:
    records = json.loads((sample_dir() / "english" / "eval_cogbench_a.json").read_text())
    mutate(records[1])
    path = tmp_path / "eval_cogbench_a.json"
    path.write_text(json.dumps(records))
    with pytest.raises(RecordError, match="eval_cogbench_a.json record 1") as error:
        load_records(path, require_profile=True)
    assert message in str(error.value)


def test_bad_json_and_missing_files(tmp_path: Path) -> None:
    path = tmp_path / "eval_cogbench_a.json"
    path.write_text("[{")
    with pytest.raises(RecordError, match="not valid JSON"):
        load_records(path)
    with pytest.raises(FileNotFoundError, match="does not exist"):
        load_trajectories("a", source=str(tmp_path / "nowhere"))
    with pytest.raises(FileNotFoundError, match="English only"):
        locate("chinese", "sample")


def test_hub_failure_names_the_fallbacks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COG_TASKS_COGBENCH_REVISION", raising=False)
    assert pinned_revision() == DEFAULT_REVISION
    monkeypatch.setenv("COG_TASKS_COGBENCH_REVISION", "abc1234")
    assert pinned_revision() == "abc1234"
    with pytest.raises(DataSourceError, match="source=sample"):
        fetch_records("english", ("eval_cogbench_a.json",), local=False)


def test_fetched_files_must_hold_records(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="eval_cogbench_a.json: holds no records"):
        check_content(Content(b"[]", "eval_cogbench_a.json", "upstream"), "eval_cogbench_a.json")
    eval_a = (sample_dir() / "english" / "eval_cogbench_a.json").read_bytes()
    records = check_content(Content(eval_a, "x", "hub"), "eval_cogbench_a.json")
    assert records == load_records(sample_dir() / "english" / "eval_cogbench_a.json", True)
