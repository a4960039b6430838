"""Scripted Inspect ``mockllm`` models for the CogLM chat tests (not a test module)."""

from __future__ import annotations

from collections.abc import Callable

from inspect_ai.model import (
    ChatMessage,
    ChatMessageSystem,
    GenerateConfig,
    Model,
    ModelOutput,
    get_model,
)

from cog_tasks.common.scripted import scripted_output

Reply = Callable[[str, GenerateConfig], str]
Respond = Callable[[list[ChatMessage], GenerateConfig], str]


def user_text(messages: list[ChatMessage]) -> str:
    """The text of the last user message."""
    return next(m.text for m in reversed(messages) if m.role == "user")


def system_text(messages: list[ChatMessage]) -> str | None:
    """The text of the system message, if any."""
    return next((m.text for m in messages if isinstance(m, ChatMessageSystem)), None)


def conversation_model(respond: Respond, seen: list[list[ChatMessage]] | None = None) -> Model:
    """A mockllm whose answer is ``respond(input messages, config)``.

    Args:
        respond: Maps the input messages and generation config to the answer text.
        seen: When given, every input message list is appended to it.
    """

    def generate(messages, tools, tool_choice, config) -> ModelOutput:  # noqa: ANN001
        if seen is not None:
            seen.append(list(messages))
        return scripted_output(respond(messages, config), messages)

    return get_model("mockllm/model", custom_outputs=generate, memoize=False)


def scripted_model(reply: Reply, seen: list[list[ChatMessage]] | None = None) -> Model:
    """A mockllm whose answer is ``reply(user prompt, config)``."""
    return conversation_model(lambda messages, config: reply(user_text(messages), config), seen)
