"""The ``coglm_chat`` Inspect task: the CogLM chat protocol and its studies.

Run with ``inspect eval cog_tasks/coglm_chat --model <provider/model>``; see the
benchmark README (``cog_tasks/coglm/README.md``) for the task parameters. ``coglm`` is the task's
former name, kept for one release as a deprecated alias (lm-eval's ``coglm`` is
the log-likelihood protocol).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

from inspect_ai import Task, task
from inspect_ai.solver import Solver, generate, system_message

from cog_tasks.coglm.extract import DEFAULT_EXTRACTOR, get_extractor
from cog_tasks.coglm.inspect.coc import rationales_from_log
from cog_tasks.coglm.inspect.dataset import coglm_dataset
from cog_tasks.coglm.inspect.scorer import coglm_scorer
from cog_tasks.coglm.inspect.solvers import self_consistency
from cog_tasks.coglm.inspect.version import TASK_VERSION
from cog_tasks.coglm.prompts import erasure_prompt


@task
def coglm_chat(
    abilities: str | Sequence[str] | None = None,
    per_ability: int | None = None,
    cot: bool = False,
    sc_samples: int = 1,
    sc_temperature: float = 0.7,
    sc_seed: int | None = None,
    erase: str | None = None,
    coc_log: str | None = None,
    extractor: str = DEFAULT_EXTRACTOR,
) -> Task:
    """CogLM (Piaget stages) for chat models.

    Args:
        abilities: Ability codes to run (comma-separated or a list); all 10 by default.
        per_ability: Keep only the first N items of each ability (a stratified subset).
        cot: Ask for step-by-step reasoning before the answer.
        sc_samples: Self-consistency: completions per question, majority vote
            (1 = a single completion at the eval's own temperature).
        sc_temperature: Sampling temperature of the self-consistency completions.
        sc_seed: Base seed of the self-consistency completions (completion i uses seed + i).
        erase: Ability code whose erasure system prompt is given (Table 10 content).
        coc_log: Inspect log of a stronger model's ``coglm_chat`` run; its reply
            to each sample id, without its answer statements, is shown as a
            rationale (chain of cognition).
        extractor: Answer reader: ``ours`` (default), ``authors`` (the authors'
            Llama-2-chat rule) or ``authors-gpt`` (their GPT rule).

    Returns:
        The task.
    """
    get_extractor(extractor)
    rationales = rationales_from_log(coc_log) if coc_log else None
    solvers: list[Solver] = []
    if erase:
        solvers.append(system_message(erasure_prompt(erase)))
    if sc_samples > 1:
        solvers.append(self_consistency(sc_samples, sc_temperature, sc_seed, extractor))
    elif sc_samples == 1:
        solvers.append(generate())
    else:
        raise ValueError(f"sc_samples must be at least 1, got {sc_samples}")
    return Task(
        dataset=coglm_dataset(abilities, per_ability=per_ability, cot=cot, rationales=rationales),
        solver=solvers,
        scorer=coglm_scorer(extractor),
        version=TASK_VERSION,
    )


@task
def coglm(**task_args: Any) -> Task:
    """Deprecated name of :func:`coglm_chat` (removed in the next release); same arguments."""
    warnings.warn(
        "the Inspect task 'coglm' is now 'coglm_chat' (lm-eval's 'coglm' is the "
        "log-likelihood protocol); the old name will be removed in the next release",
        FutureWarning,
        stacklevel=2,
    )
    return coglm_chat(**task_args)
