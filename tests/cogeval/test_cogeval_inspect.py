"""Real Inspect runs: SmolLM2 through the multi-turn dialog, scripted replies for exact scoring."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.model import ModelOutput

from cog_tasks.cli import main
from cog_tasks.cogeval.inspect import cogeval
from cog_tasks.cogeval.inspect.logs import score_table_from_logs
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
    table, logs = score_table_from_logs(tmp_path)
    assert logs.skipped_note() == ""
    assert sorted(table["condition"]) == ["1stepPath", "valuePath"]
    assert set(table["model"]) == {"hf/smollm2"}


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
    )
    assert log.status == "success", log.error
    table = score_table_from_logs(tmp_path / "logs")[0].sort_values("temperature")
    assert list(table["score"]) == [1.0, 0.0]
    assert list(table["failure_mode"].fillna("none")) == ["none", "wrong_goal"]
    assert (
        main(["cogeval", "report", "--log", str(tmp_path / "logs"), "--out", str(tmp_path / "png")])
        == 0
    )
    assert (tmp_path / "png" / "success_by_temperature.png").is_file()
