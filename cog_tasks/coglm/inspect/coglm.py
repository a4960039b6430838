"""The ``coglm_chat`` Inspect task (``coglm``: its deprecated former name)."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

from inspect_ai import Task, task
from inspect_ai.solver import Solver, system_message

from cog_tasks.coglm.abilities import ABILITY_BY_CODE, resolve_codes
from cog_tasks.coglm.extract import EXTRACTORS
from cog_tasks.coglm.inspect.coc import rationales_from_log
from cog_tasks.coglm.inspect.dataset import coglm_dataset
from cog_tasks.coglm.inspect.scorer import coglm_scorer
from cog_tasks.coglm.inspect.solvers import (
    check_plain_text,
    greedy_generate,
    plain_text,
    self_consistency,
)
from cog_tasks.coglm.inspect.version import TASK_VERSION
from cog_tasks.coglm.prompts import DEFAULT_PROMPT, PROMPT_EXTRACTORS, PROMPTS, erasure_prompt
from cog_tasks.coglm.rationale import DEFAULT_RATIONALE_FORM, RATIONALE_FORMS
from cog_tasks.coglm.rules import CHANCE_RULES, DEFAULT_CHANCE
from cog_tasks.common.generation import eval_model
from cog_tasks.common.params import ParameterError
from cog_tasks.common.provenance import DATA_PROVENANCE, recording_reads


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@task
def coglm_chat(
    abilities: str | Sequence[str] | None = None,
    per_ability: int | None = None,
    prompt: str = DEFAULT_PROMPT,
    cot: bool = False,
    sc_samples: int = 1,
    sc_temperature: float = 0.7,
    sc_seed: int | None = None,
    erase: str | None = None,
    coc_log: str | None = None,
    coc_rationale: str = DEFAULT_RATIONALE_FORM,
    extractor: str | None = None,
    chance: str = DEFAULT_CHANCE,
) -> Task:
    """CogLM (Piaget stages) for chat models (every parameter: the README's Parameters section)."""
    problems = []  # the types and ranges of the parameters, checked when the task is built
    if per_ability is not None and not (_is_int(per_ability) and per_ability >= 1):
        problems.append(f"per_ability must be an integer >= 1 (or unset), got {per_ability!r}")
    if prompt not in PROMPTS:
        problems.append(f"prompt must be one of {', '.join(PROMPTS)}, got {prompt!r}")
    if prompt == "llama-text" and (cot is True or erase is not None or coc_log is not None):
        problems.append(
            "prompt llama-text (the authors' Llama-2 plain text) takes no cot, erase or coc_log"
        )
    if not isinstance(cot, bool):
        problems.append(f"cot must be true or false, got {cot!r}")
    if not (_is_int(sc_samples) and sc_samples >= 1):
        problems.append(f"sc_samples must be an integer >= 1, got {sc_samples!r}")
    if not (
        isinstance(sc_temperature, (int, float))
        and not isinstance(sc_temperature, bool)
        and 0 <= sc_temperature <= 2
    ):
        problems.append(f"sc_temperature must be a number from 0 to 2, got {sc_temperature!r}")
    if sc_seed is not None and not _is_int(sc_seed):
        problems.append(f"sc_seed must be an integer (or unset), got {sc_seed!r}")
    if erase is not None and erase not in ABILITY_BY_CODE:
        problems.append(f"erase must be one of {', '.join(ABILITY_BY_CODE)}, got {erase!r}")
    if coc_log is not None and not isinstance(coc_log, str):
        problems.append(f"coc_log must be the path of an Inspect log, got {coc_log!r}")
    if coc_rationale not in RATIONALE_FORMS:
        problems.append(
            f"coc_rationale must be one of {', '.join(RATIONALE_FORMS)}, got {coc_rationale!r}"
        )
    if extractor is not None and extractor not in EXTRACTORS:
        problems.append(
            f"extractor must be one of {', '.join(EXTRACTORS)} (or unset), got {extractor!r}"
        )
    if chance not in CHANCE_RULES:
        problems.append(f"chance must be one of {', '.join(CHANCE_RULES)}, got {chance!r}")
    if problems:
        raise ParameterError("coglm_chat: " + "; ".join(problems))
    resolve_codes(abilities)  # type: ignore[arg-type]
    if prompt == "llama-text" and (model := eval_model()):
        check_plain_text(str(model), model.model_args)
    reader = extractor or PROMPT_EXTRACTORS[prompt]
    rationales = rationales_from_log(coc_log) if coc_log else None
    solvers: list[Solver] = [plain_text()] if prompt == "llama-text" else []
    if erase:
        solvers.append(system_message(erasure_prompt(erase)))
    if sc_samples > 1:
        solvers.append(self_consistency(sc_samples, sc_temperature, sc_seed, reader))
    else:
        solvers.append(greedy_generate())
    with recording_reads() as reads:
        dataset = coglm_dataset(
            abilities,
            per_ability=per_ability,
            prompt=prompt,
            cot=cot,
            rationales=rationales,
            rationale_form=coc_rationale,
            chance=chance,
        )
    return Task(
        dataset=dataset,
        solver=solvers,
        scorer=coglm_scorer(reader),
        version=TASK_VERSION,
        metadata={DATA_PROVENANCE: reads.metadata()},
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
