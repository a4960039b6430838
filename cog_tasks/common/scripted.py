"""Scripted model outputs for Inspect's ``mockllm`` that work offline (usage counted in words)."""

from __future__ import annotations

import hashlib
import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from copy import copy
from typing import Any

from inspect_ai import Task, task_with
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage, GenerateConfig, ModelOutput, ModelUsage, get_model
from inspect_ai.solver import Generate, Solver, TaskState, chain, solver
from inspect_ai.tool import ToolChoice, ToolInfo
from inspect_ai.util import store

from cog_tasks.common.errors import RunFailedError
from cog_tasks.common.logs import CHANCE_SEED

# Model name of every seeded chance baseline, as it appears in the logs.
CHANCE_MODEL = "mockllm/chance"


def scripted_output(
    content: str, prompt: Sequence[ChatMessage] = (), model: str = "mockllm/model"
) -> ModelOutput:
    """Return a model output for ``custom_outputs``, word counts standing in for token usage."""
    output = ModelOutput.from_content(model=model, content=content)
    input_words = sum(len(message.text.split()) for message in prompt)
    output_words = len(content.split())
    output.usage = ModelUsage(
        input_tokens=input_words,
        output_tokens=output_words,
        total_tokens=input_words + output_words,
    )
    return output


EPOCH_KEY = "cog_tasks_epoch"  # The store key of the sample's epoch (:func:`mark_epoch`).


@solver
def mark_epoch() -> Solver:
    """Record the sample's epoch in its store, where a scripted model can read it."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        state.store.set(EPOCH_KEY, state.epoch)
        return state

    return solve


def seeded_rng(seed: int, prompt: str, epoch: int | None = None) -> random.Random:
    """A random generator for one model call, from the seed, the prompt and the epoch."""
    if epoch is None:  # the epoch (from 1) :func:`mark_epoch` recorded for the sample; else 1
        epoch = int(store().get(EPOCH_KEY, 1))
    digest = hashlib.sha256(f"{seed}\n{epoch}\n{prompt}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


class ScriptedReplies(ABC):
    """Inspect's ``custom_outputs`` protocol around :meth:`reply_to`, which writes the reply."""

    model_name: str = CHANCE_MODEL

    @abstractmethod
    def reply_to(self, messages: list[ChatMessage], config: GenerateConfig) -> str:
        """The reply to a conversation (its last message is the prompt)."""

    def __call__(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        """Inspect's ``custom_outputs`` protocol."""
        return scripted_output(self.reply_to(input, config), input, model=self.model_name)


def run_chance_model(
    task: Task, outputs: Any, log_dir: str, epochs: int = 1, limit: int | None = None
) -> EvalLog:
    """Evaluate ``task`` with ``mockllm/chance`` answering through ``outputs``."""
    model = get_model(CHANCE_MODEL, custom_outputs=outputs)
    seed = getattr(outputs, "seed", None)
    logs = inspect_eval(
        # task_with changes the task it is given: the caller's task is left as it was.
        task_with(copy(task), solver=chain(mark_epoch(), task.solver)),
        model=model,
        log_dir=log_dir,
        epochs=epochs,
        limit=limit,
        display="none",
        debug_errors=True,
        metadata={CHANCE_SEED: seed} if seed is not None else None,
    )
    if not logs or logs[0].status == "cancelled":  # Ctrl-C: Inspect cancels, returns no log
        raise KeyboardInterrupt
    [log] = logs
    if log.status != "success":
        raise RunFailedError.of("the chance baseline run", log)
    return log
