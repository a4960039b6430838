"""Solvers of the CogLM chat protocol: self-consistency sampling, the plain text check."""

from __future__ import annotations

import asyncio

from inspect_ai.model import GenerateConfig, ModelOutput, get_model
from inspect_ai.solver import Generate, Solver, TaskState, solver

from cog_tasks.coglm.extract import Extractor, extract_choice, get_extractor
from cog_tasks.coglm.llama_text import RAW_TEXT_TEMPLATE
from cog_tasks.coglm.voting import Vote, majority_vote
from cog_tasks.common.errors import UserError
from cog_tasks.common.generation import greedy_config
from cog_tasks.common.params import ParameterError

SAMPLES_STORE_KEY = "coglm_sc_completions"


class PlainTextError(UserError):
    """A ``llama-text`` run on an ``hf/`` model that would wrap the text in a chat template."""


def check_plain_text(model: str, model_args: dict[str, object]) -> None:
    """Refuse an ``hf/`` model that would not send the ``llama-text`` prompt as plain text."""
    if model.startswith("hf/") and model_args.get("chat_template") != RAW_TEXT_TEMPLATE:
        raise PlainTextError(
            f"prompt=llama-text sends plain text: run {model} with "
            f"-M \"chat_template='{RAW_TEXT_TEMPLATE}'\" (without it Inspect's hf provider "
            "wraps the prompt in a chat template or a 'user: ' line)"
        )


@solver
def plain_text() -> Solver:
    """Check the model gets the prompt as plain text (the task checks it when built in an eval)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        model = get_model()
        check_plain_text(str(model), model.model_args)
        return state

    return solve


def vote_on(
    completions: list[str], choices: list[str], read: Extractor = extract_choice
) -> tuple[list[int | None], Vote]:
    """Each completion's option (``None`` when unread) and the majority vote."""
    picks = [read(text, choices) for text in completions]
    return picks, majority_vote(picks)


@solver
def greedy_generate() -> Solver:
    """Inspect's ``generate``, greedy unless the eval sets a temperature (the authors' protocol)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        settings = greedy_config(get_model()).model_dump(exclude_none=True)
        return await generate(state, **settings)

    return solve


@solver
def self_consistency(
    samples: int, temperature: float, seed: int | None = None, extractor: str = "ours"
) -> Solver:
    """Sample several answers and keep the first one agreeing with the majority vote.

    All completions go to the store (``coglm_sc_completions``); completion ``i`` uses ``seed + i``.
    """
    if samples < 2:
        raise ParameterError(f"self-consistency needs at least 2 samples, got {samples}")

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        model = get_model()
        outputs: list[ModelOutput] = await asyncio.gather(
            *(
                model.generate(
                    state.messages,
                    config=GenerateConfig(
                        temperature=temperature, seed=None if seed is None else seed + index
                    ),
                )
                for index in range(samples)
            )
        )
        completions = [output.completion for output in outputs]
        state.store.set(SAMPLES_STORE_KEY, completions)
        choices = [choice.value for choice in state.choices]
        picks, vote = vote_on(completions, choices, get_extractor(extractor))
        winner = vote.choice
        representative = picks.index(winner) if winner is not None else 0
        state.output = outputs[representative]
        state.messages.append(state.output.message)
        return state

    return solve
