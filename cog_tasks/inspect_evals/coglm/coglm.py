"""The ``coglm`` Inspect task: the CogLM chat protocol and its studies.

Run with ``inspect eval cog_tasks/coglm --model <provider/model>``; see the
README next to this file for the task parameters.
"""

from __future__ import annotations

from collections.abc import Sequence

from inspect_ai import Task, task
from inspect_ai.solver import Solver, generate, system_message

from cog_tasks.coglm.prompts import erasure_prompt
from cog_tasks.inspect_evals.coglm.coc import rationales_from_log
from cog_tasks.inspect_evals.coglm.dataset import coglm_dataset
from cog_tasks.inspect_evals.coglm.scorer import coglm_scorer
from cog_tasks.inspect_evals.coglm.solvers import self_consistency


@task
def coglm(
    abilities: str | Sequence[str] | None = None,
    per_ability: int | None = None,
    cot: bool = False,
    sc_samples: int = 1,
    sc_temperature: float = 0.7,
    sc_seed: int | None = None,
    erase: str | None = None,
    coc_log: str | None = None,
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
        coc_log: Inspect log of a stronger model's ``coglm`` run; its completion
            for each sample id is shown as a rationale (chain of cognition).

    Returns:
        The task.
    """
    rationales = rationales_from_log(coc_log) if coc_log else None
    solvers: list[Solver] = []
    if erase:
        solvers.append(system_message(erasure_prompt(erase)))
    if sc_samples > 1:
        solvers.append(self_consistency(sc_samples, sc_temperature, sc_seed))
    elif sc_samples == 1:
        solvers.append(generate())
    else:
        raise ValueError(f"sc_samples must be at least 1, got {sc_samples}")
    return Task(
        dataset=coglm_dataset(abilities, per_ability=per_ability, cot=cot, rationales=rationales),
        solver=solvers,
        scorer=coglm_scorer(),
        version="1.0.0",
    )
