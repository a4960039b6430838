"""Solvers of the CogLM chat protocol: self-consistency sampling."""

from __future__ import annotations

import asyncio

from inspect_ai.model import GenerateConfig, ModelOutput, get_model
from inspect_ai.solver import Generate, Solver, TaskState, solver

from cog_tasks.coglm.extract import Extractor, extract_choice, get_extractor
from cog_tasks.coglm.voting import Vote, majority_vote
from cog_tasks.common.params import ParameterError

SAMPLES_STORE_KEY = "coglm_sc_completions"


def vote_on(
    completions: list[str], choices: list[str], read: Extractor = extract_choice
) -> tuple[list[int | None], Vote]:
    """Extract each completion's option and take the majority vote.

    Args:
        completions: The sampled answers.
        choices: The options.
        read: The answer reader (see :data:`cog_tasks.coglm.extract.EXTRACTORS`).

    Returns:
        The per-completion picks (``None`` when unparseable) and the vote.
    """
    picks = [read(text, choices) for text in completions]
    return picks, majority_vote(picks)


@solver
def self_consistency(
    samples: int, temperature: float, seed: int | None = None, extractor: str = "ours"
) -> Solver:
    """Sample several answers and keep a majority one as the output.

    All completions are kept in the sample store under ``coglm_sc_completions``
    (the scorer votes on them); the output and the appended assistant message
    are the first completion that agrees with the vote (or the first one when
    none could be parsed), so a log's output is a representative rationale.

    Args:
        samples: Number of completions to draw (at least 2).
        temperature: Sampling temperature.
        seed: Base seed; completion ``i`` uses ``seed + i`` so that providers
            honouring a per-request seed do not return one answer N times.
            ``None`` leaves seeding to the provider.
        extractor: The answer reader that picks the representative completion.
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
