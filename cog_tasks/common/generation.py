"""Generation settings every benchmark shares: greedy decoding at temperature 0 on any provider."""

from __future__ import annotations

from typing import Any


def sampling_settings(temperature: float, api: str) -> dict[str, Any]:
    """Generation settings for a temperature; temperature 0 decodes greedily.

    Inspect passes a temperature of 0 to every provider, but its ``hf`` provider
    samples unless the model argument ``do_sample=false`` is given, and
    transformers refuses a temperature of 0 when sampling. So at temperature 0
    the ``hf`` provider gets no temperature and ``top_k=1`` (sampling from the
    single most likely token is greedy decoding); every other provider gets
    temperature 0, which is how their APIs ask for greedy decoding.

    Args:
        temperature: The temperature asked for.
        api: The model's provider (``hf``, ``openai``, ``mockllm``...).

    Returns:
        Keyword arguments for ``generate`` or ``GenerateConfig``.
    """
    if temperature == 0 and api == "hf":
        return {"top_k": 1}
    return {"temperature": temperature}
