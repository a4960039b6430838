"""The one thing CogBench agents and judges need from a model: text in, text out.

A generator may return a :class:`Reply`, a string that also says whether it
stopped at its token limit, and may say whether it decodes greedily (a
``greedy`` attribute); plain strings and generators without the attribute
count as complete replies from a sampling model.
"""

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
            The model's reply text (a :class:`Reply` where the limit is known).
        """
        ...


class Reply(str):
    """A reply's text that remembers whether it stopped at the token limit.

    Attributes:
        truncated: The model stopped because it reached ``max_tokens``.
    """

    truncated: bool

    def __new__(cls, text: str, truncated: bool = False) -> Reply:
        """Wrap ``text``; ``truncated`` says whether it was cut at the token limit."""
        reply = super().__new__(cls, text)
        reply.truncated = truncated
        return reply


def stopped_at_limit(reply: str) -> bool:
    """Whether ``reply`` is a :class:`Reply` that stopped at its token limit."""
    return bool(getattr(reply, "truncated", False))


def decodes_greedily(generate: TextGenerator) -> bool:
    """Whether ``generate`` says it decodes greedily (an identical ask gets an identical reply)."""
    return bool(getattr(generate, "greedy", False))
