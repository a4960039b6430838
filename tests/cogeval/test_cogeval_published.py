"""The paper's audited tasks (source=published): index, resolver, validator, scoring in Inspect."""

from __future__ import annotations

import json
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


def test_the_index_names_every_scored_task_of_the_paper() -> None:
    every = published_index()
    assert len(every) == 249  # 250 audited tasks, less the map question that accepts any reply
    assert len({task.id for task in every}) == 249
    assert all(task.upstream_path.startswith("conversations/") for task in every)
    assert {task.cot for task in every if task.family == "Experiment2"} == {"none", "bfs", "dfs"}
    assert len(select_published(cot="bfs")) == 3
    assert len(select_published()) == 243


def test_a_published_task_keeps_the_authors_turns_and_answers(shared_data: Path) -> None:
    [task] = select_published(graphs=["n21star"], domains=["ordRooms"], conditions=["valuePath"])
    record = task.to_record()
    assert "Answer: 1, 5, 16, 20" in record["expected"]  # the n21star task, not ours
    assert record["kind"] == "path" and record["start"] == "1"
    two_turns = sum(len(t.to_record()["turns"]) == 2 for t in published_index())
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
    [task] = select_published(graphs=["n7line"], domains=["ordRooms"], conditions=["valuePath"])
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
    assert chance_answerer({"source": "published", "graphs": "n7line"}).unread == (
        "n7line.unordSpatial.nonteleShortcutShortest",
        "n7line.unordSpatial.teleShortcutShortest",
    )


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
    replies = [scripted_output("Answer: room 2"), scripted_output("Answer: room 1")]
    [log] = inspect_eval(
        task,
        model="mockllm/model",
        model_args={"custom_outputs": replies},
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success", log.error
    [sample] = log.samples
    assert [m.role for m in sample.messages] == ["system", "user", "assistant", "user", "assistant"]
    assert sample.metadata["task"] == "n7line.ordRooms.transReval"
    score = sample.scores["cogeval_scorer"]
    assert "Answer: Room 1" in sample.target
    assert score.value["acc"] == 1.0
