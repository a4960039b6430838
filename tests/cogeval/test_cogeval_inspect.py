"""Real Inspect runs: SmolLM2 through the multi-turn dialog, scripted replies for exact scoring."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ModelOutput

from cog_tasks.cli import main
from cog_tasks.cogeval.headlines import checked_runs
from cog_tasks.cogeval.inspect import cogeval
from cog_tasks.cogeval.inspect.logs import read_inspect_runs
from cog_tasks.cogeval.scoring import FAILURE_MODES
from cog_tasks.common.scripted import scripted_output


@pytest.mark.slow
def test_smollm2_answers_every_turn_of_the_dialog(smollm2_path: Path, tmp_path: Path) -> None:
    task = cogeval(
        source="generated",
        graphs="n7line",
        domains="ordRooms",
        conditions="valuePath,1stepPath",
        temperatures="0",
        max_tokens=16,
    )
    [log] = inspect_eval(
        task,
        model="hf/smollm2",
        model_args={"model_path": str(smollm2_path)},  # no do_sample=false: greedy at t=0
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success", log.error
    samples = {sample.id: sample for sample in log.samples}
    assert set(samples) == {"n7line.ordRooms.valuePath.s0.t0", "n7line.ordRooms.1stepPath.s0.t0"}
    roles = [message.role for message in samples["n7line.ordRooms.1stepPath.s0.t0"].messages]
    assert roles == ["system", "user", "assistant", "user", "assistant"]
    for sample in samples.values():
        value = sample.scores["cogeval_scorer"].value
        assert set(value) == {"acc", *FAILURE_MODES}
        assert sum(value.values()) == 1.0  # correct, or exactly one failure mode
    runs, logs = read_inspect_runs(tmp_path)
    assert logs.skipped_note() == ""
    (run,) = checked_runs(runs)
    assert sorted(row["condition"] for row in run.dialogs()) == ["1stepPath", "valuePath"]
    assert run.identity.model.startswith("hf/smollm2")


def _outputs(*texts: str) -> list[ModelOutput]:
    """Scripted replies, in order."""
    return [scripted_output(text) for text in texts]


@pytest.mark.slow
def test_scripted_replies_are_scored_and_reported(tmp_path: Path) -> None:
    task = cogeval(graphs="n7line", domains="ordRooms", conditions="transReval", temperatures="0,1")
    replies = _outputs(
        "Room 2 leads to the 50 dollars.\nAnswer: room 2",
        "After the change room 1 reaches room 6.\nAnswer: Room 1.",
        "Answer: room 2",
        "I still go the same way.\nAnswer: room 2",
    )
    [log] = inspect_eval(
        task,
        model="mockllm/model",
        model_args={"custom_outputs": replies},
        log_dir=str(tmp_path / "logs"),
        display="none",
        max_samples=1,
        # the task's first prompt (a second one, another model's wording, is left out)
        sample_id=["n7line.ordRooms.transReval.t0", "n7line.ordRooms.transReval.t1"],
    )
    assert log.status == "success", log.error
    (run,) = checked_runs(read_inspect_runs(tmp_path / "logs")[0])
    rows = sorted(run.dialogs(), key=lambda row: row["temperature"])
    assert [(row["score"], row["failure_mode"]) for row in rows] == [
        (1.0, None),
        (0.0, "wrong_goal"),
    ]
    assert run.coverage.incomplete == 1 and run.coverage.missing_keys == 2  # the left-out prompt
    assert (
        main(["cogeval", "report", "--log", str(tmp_path / "logs"), "--out", str(tmp_path / "png")])
        == 0
    )
    assert (tmp_path / "png" / "success_by_temperature.png").is_file()


def _count_dialog(tmp_path: Path, **settings: float) -> object:
    """Experiment 2's cluster count (question first, map second), scripted, at temperature 0.5."""
    task = cogeval(conditions="exp2ClusterCount", cot="none", temperatures="0.5")
    replies = [scripted_output("Answer: 3"), scripted_output("Answer: 1 - 2, 2 - 3")]
    [log] = inspect_eval(
        task,
        model="mockllm/model",
        model_args={"custom_outputs": replies},
        log_dir=str(tmp_path),
        display="none",
        **settings,
    )
    return log


@pytest.mark.slow
def test_the_reply_the_paper_scored_is_scored_with_the_paper_settings(
    shared_data: Path, tmp_path: Path
) -> None:
    log = _count_dialog(tmp_path)
    assert log.status == "success", log.error
    [sample] = log.samples
    assert sample.metadata["scored_reply"] == 1
    score = sample.scores["cogeval_scorer"]
    assert (score.value["acc"], score.answer) == (1.0, "3")  # the first reply, not the map
    calls = [event.config for event in sample.events if event.event == "model"]
    assert [(c.temperature, c.top_p, c.max_tokens) for c in calls] == [(0.5, 0.95, 2048)] * 2
    # the user's --top-p and --max-tokens win over the paper's
    log = _count_dialog(tmp_path, top_p=0.5, max_tokens=64)
    calls = [event.config for event in log.samples[0].events if event.event == "model"]
    assert [(c.temperature, c.top_p, c.max_tokens) for c in calls] == [(0.5, 0.5, 64)] * 2


@pytest.mark.slow
def test_a_user_temperature_is_refused_since_inspect_lets_each_call_override_it(
    tmp_path: Path,
) -> None:
    from inspect_ai import Task
    from inspect_ai.dataset import Sample
    from inspect_ai.solver import generate

    # Inspect's own rule: a solver's per-call temperature beats --temperature.
    plain = Task(dataset=[Sample(input="hi")], solver=generate(temperature=0.5))
    [log] = inspect_eval(
        plain, model="mockllm/model", temperature=0.7, log_dir=str(tmp_path), display="none"
    )
    [call] = [event for event in log.samples[0].events if event.event == "model"]
    assert call.config.temperature == 0.5
    # so CogEval, whose samples carry their own temperatures, refuses --temperature
    log = _count_dialog(tmp_path, temperature=0.7)
    assert log.status == "error"
    assert "pass -T temperatures=0.7 instead" in log.error.message
