"""Shared Inspect helpers: chance draws seeded on seed, prompt and epoch; progress lines."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from inspect_ai import Task
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import Sample
from inspect_ai.model import ChatMessage, GenerateConfig, get_model
from inspect_ai.scorer import match
from inspect_ai.solver import generate

from cog_tasks.common.progress import with_progress
from cog_tasks.common.scripted import ScriptedReplies, mark_epoch, seeded_rng


def test_seeded_rng_depends_on_seed_prompt_and_epoch_only() -> None:
    def draws(seed: int, prompt: str, epoch: int | None) -> list[int]:
        rng = seeded_rng(seed, prompt, epoch)
        return [rng.randint(0, 10**6) for _ in range(3)]

    assert draws(0, "Q", 1) == draws(0, "Q", 1)
    assert draws(0, "Q", None) == draws(0, "Q", 1)  # outside an Inspect sample: epoch 1
    keys = [(0, "Q", 1), (1, "Q", 1), (0, "R", 1), (0, "Q", 2)]
    assert len({tuple(draws(*key)) for key in keys}) == len(keys)


class RandomDigits(ScriptedReplies):
    """Replies with a digit drawn from the seed, the prompt and the sample's epoch."""

    def reply_to(self, messages: list[ChatMessage], config: GenerateConfig) -> str:
        return str(seeded_rng(7, messages[-1].text).randrange(10**9))


@pytest.mark.slow
def test_each_epoch_draws_anew_and_each_sample_reports_progress(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    task = Task(
        name="toy",
        dataset=[Sample(input=f"question {n}", target="0", id=f"q{n}") for n in range(2)],
        solver=with_progress([mark_epoch(), generate()], task="toy", unit="game"),
        scorer=match(),
    )
    model = get_model("mockllm/model", custom_outputs=RandomDigits())
    [log] = inspect_eval(task, model=model, epochs=3, log_dir=str(tmp_path), display="none")
    assert log.status == "success" and log.samples
    replies = {(s.id, s.epoch): s.output.completion for s in log.samples}
    assert replies[("q0", 2)] == str(seeded_rng(7, "question 0", 2).randrange(10**9))
    assert len({replies[("q0", epoch)] for epoch in (1, 2, 3)}) == 3

    lines = [line for line in capsys.readouterr().err.splitlines() if "progress:" in line]
    assert len(lines) == 2 * 2 * 3
    done = [line for line in lines if " done in " in line]
    assert re.fullmatch(
        r"cog-tasks progress: toy game q[01] \(epoch [123]\) done in [0-9.]+ s \(6 done\)", done[-1]
    )
    assert sum("q1 (epoch 3) started" in line for line in lines) == 1
