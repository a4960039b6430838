"""The one thing CogBench agents and judges need from a model: text in, text out."""

from __future__ import annotations

from typing import Protocol


class TextGenerator(Protocol):
    """An async text generator (a thin wrapper around any model API)."""

    async def __call__(self, prompt: str, max_tokens: int) -> str:
        """Complete ``prompt`` as a single user turn (a :class:`Reply` where the limit is known)."""


class Reply(str):
    """A reply's text that remembers whether it stopped at the token limit (``truncated``)."""

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
