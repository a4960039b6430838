"""The paper's audited tasks (source=published): index, resolver, validator, scoring in Inspect."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from cog_tasks.cogeval.inspect.chance import chance_answerer
from cog_tasks.cogeval.inspect.cogeval import cogeval
from cog_tasks.cogeval.published import (
    UPSTREAM_COMMIT,
    check_content,
    published_index,
    select_published,
)
from cog_tasks.common.files import DataFileError
from cog_tasks.common.sources import Content, DataSourceError


def test_the_index_names_every_scored_prompt_of_the_paper() -> None:
    every = published_index()
    assert len(every) == 1494  # every distinct prompt of 249 tasks (less the map question)
    assert len({task.id for task in every}) == 1494
    assert len({task.task for task in every}) == 249
    assert all(task.upstream_path.startswith("conversations/") for task in every)
    assert {task.cot for task in every if task.family == "Experiment2"} == {"none", "bfs", "dfs"}
    assert len(select_published(cot="bfs")) == 3
    assert len(select_published(cot="none", unscorable=True)) == 1488
    assert len(select_published(unscorable=True)) == 1494  # every prompt, audited ones kept
    assert len(select_published()) == 1476  # the default leaves out the 18 the audit flags
    items = Counter(task.condition for task in every)
    assert [items[f"{n}stepPath"] for n in "123n"] == [339, 321, 293, 281]
    [valuepath, other] = select_published(
        graphs=["n7line"], domains=["ordRooms"], conditions=["valuePath"]
    )
    assert valuepath.id == valuepath.task == "n7line.ordRooms.valuePath"
    assert other.id == "n7line.ordRooms.valuePath@forefront-pythia-20b/temp_0_000"
    assert other.upstream_path.endswith("valuePath/forefront-pythia-20b/temp_0_000.json")
    count = select_published(conditions=["exp2ClusterCount"])
    assert {task.scored_reply for task in count} == {1}  # the question comes before the map


def test_the_index_is_every_variant_of_the_shared_data(shared_data: Path) -> None:
    every = published_index()
    for task in every:
        data = json.loads((shared_data / "cogeval" / task.local_path).read_text())
        assert task.scored_reply == data["scored_reply"], task.id
    by_file = Counter(task.local_path for task in every)
    for local, items in by_file.items():
        data = json.loads((shared_data / "cogeval" / local).read_text())
        assert items == len(data["variants"]), local
    item = next(task for task in every if task.id.endswith("3stepPath@gpt-4-32k/temp_0_007"))
    variant = next(
        v
        for v in json.loads((shared_data / "cogeval" / item.local_path).read_text())["variants"]
        if "gpt-4-32k/temp_0_007" in v["runs"]
    )
    assert item.load().turns == tuple(
        m["content"] for m in variant["messages"] if m["role"] == "user"
    )


def test_a_published_task_keeps_the_authors_turns_and_answers(shared_data: Path) -> None:
    task = select_published(graphs=["n21star"], domains=["ordRooms"], conditions=["valuePath"])[0]
    record = task.to_record()
    assert "Answer: 1, 5, 16, 20" in record["expected"]  # the n21star task, not ours
    assert record["kind"] == "path" and record["start"] == "1"
    assert record["task"] == record["id"] == task.task
    firsts = [t for t in published_index() if t.id == t.task]
    two_turns = sum(len(t.to_record()["turns"]) == 2 for t in firsts)
    assert two_turns == 165  # 166 of the 250, less the map question


def test_the_validator_ignores_assistant_turns_and_names_bad_files(shared_data: Path) -> None:
    local = shared_data / "cogeval/conversations/n7line/ordRooms/transReval.json"
    data = json.loads(local.read_text())
    upstream = dict(
        data,
        messages=[
            *data["messages"][:2],
            {"role": "assistant", "content": "x"},
            *data["messages"][2:],
        ],
        scores={"transReval": {"score": 1}},
    )
    conversation = check_content(Content(json.dumps(upstream).encode(), "up.json", "upstream"))
    assert conversation.turns == tuple(
        m["content"] for m in data["messages"] if m["role"] == "user"
    )
    broken = dict(data, tests={"transReval": {"expected_answer": []}})
    with pytest.raises(DataFileError, match="bad.json: needs one system message"):
        check_content(Content(json.dumps(broken).encode(), "bad.json", "local"))


def test_without_a_local_copy_offline_the_error_names_the_pinned_upstream_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COG_TASKS_DATA", str(tmp_path))
    monkeypatch.setenv("COG_TASKS_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.delenv("COG_TASKS_COGEVAL_HUB", raising=False)
    task = select_published(graphs=["n7line"], domains=["ordRooms"], conditions=["valuePath"])[0]
    with pytest.raises(DataSourceError, match=UPSTREAM_COMMIT) as error:
        task.load()
    assert "valuePath/gpt-4-32k/temp_0_000.json" in str(error.value)


def test_published_parameters_are_checked() -> None:
    with pytest.raises(ValueError, match="valid: published, generated"):
        cogeval(source="paper")
    with pytest.raises(ValueError, match="relabels generated tasks only"):
        cogeval(source="published", seed=2)
    with pytest.raises(ValueError, match="unknown condition 'mapDrawing'"):
        cogeval(source="published", conditions="mapDrawing")
    unread = chance_answerer({"source": "published", "graphs": "n7line"}).unread
    assert [task for task in unread if "@" not in task] == [
        "n7line.unordSpatial.nonteleShortcutShortest",
        "n7line.unordSpatial.teleShortcutShortest",
    ]


@pytest.mark.slow
def test_published_dialogs_replay_each_user_turn_and_score_the_last(
    shared_data: Path, tmp_path: Path
) -> None:
    from inspect_ai import eval as inspect_eval

    from cog_tasks.common.scripted import scripted_output

    task = cogeval(
        source="published",
        graphs="n7line",
        domains="ordRooms",
        conditions="transReval",
        temperatures="0",
    )
    replies = [scripted_output("Answer: room 2"), scripted_output("Answer: room 1")] * 2
    [log] = inspect_eval(
        task,
        model="mockllm/model",
        model_args={"custom_outputs": replies},
        max_samples=1,  # one dialog at a time, so each gets its two replies in turn
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success", log.error
    assert len(log.samples) == 2  # the task's prompt and another model's wording of it
    sample = next(s for s in log.samples if s.id == "n7line.ordRooms.transReval.t0")
    assert [m.role for m in sample.messages] == ["system", "user", "assistant", "user", "assistant"]
    assert sample.metadata["task"] == "n7line.ordRooms.transReval"
    score = sample.scores["cogeval_scorer"]
    assert "Answer: Room 1" in sample.target
    assert score.value["acc"] == 1.0
