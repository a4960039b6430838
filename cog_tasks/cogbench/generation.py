"""The one thing CogBench agents and judges need from a model: text in, text out."""

from __future__ import annotations

from typing import Protocol


class TextGenerator(Protocol):
    """An async text generator (a thin wrapper around any model API)."""

    async def __call__(self, prompt: str, max_tokens: int) -> str:
        """Complete ``prompt`` as a single user turn.

        Args:
            prompt: The whole user message.
            max_tokens: Upper bound on generated tokens.

        Returns:
            The model's reply text.
        """
        ...
