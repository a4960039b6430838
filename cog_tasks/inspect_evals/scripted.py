"""Scripted model outputs for Inspect's ``mockllm`` provider that work offline.

``mockllm`` counts tokens of an output without usage by downloading a tiktoken
vocabulary, which fails without a network. Outputs made here carry usage
counted in words instead. The chance baselines and the tests share this.
"""

from __future__ import annotations

from collections.abc import Sequence

from inspect_ai.model import ChatMessage, ModelOutput, ModelUsage


def scripted_output(
    content: str, prompt: Sequence[ChatMessage] = (), model: str = "mockllm/model"
) -> ModelOutput:
    """Return a model output with word counts standing in for token usage.

    Args:
        content: The reply text.
        prompt: The messages the reply answers; their words are the input count.
        model: Model name recorded in the output.

    Returns:
        The output, ready for ``mockllm``'s ``custom_outputs``.
    """
    output = ModelOutput.from_content(model=model, content=content)
    input_words = sum(len(message.text.split()) for message in prompt)
    output_words = len(content.split())
    output.usage = ModelUsage(
        input_tokens=input_words,
        output_tokens=output_words,
        total_tokens=input_words + output_words,
    )
    return output
