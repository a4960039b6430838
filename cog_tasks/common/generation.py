"""Generation settings every benchmark shares: greedy decoding at temperature 0 on any provider."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from inspect_ai.model import GenerateConfig


def sampling_settings(temperature: float, api: str) -> dict[str, Any]:
    """Generation settings for a temperature; 0 decodes greedily (``top_k=1`` on ``hf``)."""
    if temperature == 0 and api == "hf":
        return {"top_k": 1}
    return {"temperature": temperature}


def inspect_eval_config() -> GenerateConfig | None:
    """The generate config ``inspect eval`` gave its model; ``None`` outside that command.

    Inspect builds the model before the task, so a task can refuse a setting while it is
    built: before any sample runs, with our one line last and exit code 2.
    """
    if not sys.argv or Path(sys.argv[0]).name != "inspect":
        return None
    from inspect_ai.model import get_model

    return get_model().config
