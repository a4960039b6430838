"""Generation settings every benchmark shares: greedy decoding at temperature 0 on any provider."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from inspect_ai.model import GenerateConfig, Model

JUDGE_ROLE = "judge"  # The Inspect model role of every judge and grader.


def sampling_settings(temperature: float, api: str) -> dict[str, Any]:
    """Generation settings for a temperature; 0 decodes greedily (``top_k=1`` on ``hf``)."""
    if temperature == 0 and api == "hf":
        return {"top_k": 1}
    return {"temperature": temperature}


def judge_config(judge: Model) -> GenerateConfig:
    """A judge's settings: greedy, unless its role's own config sets a temperature.

    A role's model does not take the eval's ``--temperature`` (Inspect merges it into the
    evaluated model only), so a judge would otherwise decode at its provider's default.
    """
    from inspect_ai.model import GenerateConfig, ModelName

    if judge.config.temperature is not None:
        return GenerateConfig()
    return GenerateConfig(**sampling_settings(0.0, ModelName(judge).api))


def eval_model() -> Model | None:
    """The model of the eval building the task (``inspect eval``, ``eval("name")``) or ``None``."""
    from inspect_ai.model import get_model

    hidden = os.environ.pop("INSPECT_EVAL_MODEL", None)  # outside an eval get_model() builds it
    try:
        return get_model()
    except ValueError:  # "No model specified": no eval is building the task
        return None
    finally:
        os.environ.update({} if hidden is None else {"INSPECT_EVAL_MODEL": hidden})
