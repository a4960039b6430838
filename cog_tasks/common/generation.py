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


def greedy_config(model: Model) -> GenerateConfig:
    """Greedy decoding, the authors' (``top_k=1`` on ``hf``), unless ``model`` sets a temperature.

    The evaluated model's config holds the eval's ``--temperature``; a judge's is its role's
    own (a role's model takes none of the eval's settings), so without this a judge, or a
    model run without ``--temperature``, decodes at its provider's default (llama.cpp: 0.8).
    """
    from inspect_ai.model import GenerateConfig, ModelName

    if model.config.temperature is not None:
        return GenerateConfig()
    return GenerateConfig(**sampling_settings(0.0, ModelName(model).api))


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
