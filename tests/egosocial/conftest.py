"""Fixtures for the EgoSocialArena tests."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable

import pytest
from inspect_ai.model import Model, get_model

from cog_tasks.common.scripted import scripted_output


@pytest.fixture
def scripted_model() -> Callable[[Iterable[str]], Model]:
    """Build Inspect's mockllm that replies with the given texts, in order."""

    def build(replies: Iterable[str]) -> Model:
        return get_model("mockllm/model", custom_outputs=[scripted_output(r) for r in replies])

    return build


class ScriptedAsk:
    """An ``ask`` coroutine replaying fixed replies (the last one repeats); records questions."""

    def __init__(self, replies: Iterable[str]) -> None:
        self.replies = list(replies)
        self.questions: list[str] = []

    async def __call__(self, text: str) -> str:
        self.questions.append(text)
        return self.replies[min(len(self.questions), len(self.replies)) - 1]


@pytest.fixture
def scripted_ask() -> type[ScriptedAsk]:
    """The :class:`ScriptedAsk` class."""
    return ScriptedAsk


@pytest.fixture
def run() -> Callable:
    """Run a coroutine to completion."""
    return asyncio.run
