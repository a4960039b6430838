"""Generation settings every benchmark shares: greedy decoding at temperature 0 on any provider."""

from __future__ import annotations

from typing import Any


def sampling_settings(temperature: float, api: str) -> dict[str, Any]:
    """Generation settings for a temperature; 0 decodes greedily (``top_k=1`` on ``hf``)."""
    if temperature == 0 and api == "hf":
        return {"top_k": 1}
    return {"temperature": temperature}
