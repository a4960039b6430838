"""Generation settings every benchmark shares: greedy decoding at temperature 0 on any provider."""

from __future__ import annotations

from typing import Any


def sampling_settings(temperature: float, api: str) -> dict[str, Any]:
    """Generation settings for a temperature; temperature 0 decodes greedily.

    Inspect's ``hf`` provider samples unless told otherwise and transformers refuses temperature 0
    when sampling, so at 0 it gets ``top_k=1``; every other provider gets temperature 0.
    """
    if temperature == 0 and api == "hf":
        return {"top_k": 1}
    return {"temperature": temperature}
