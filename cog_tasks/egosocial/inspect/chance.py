"""A seeded chance baseline: Inspect's ``mockllm`` answering uniformly at random."""

from __future__ import annotations

import re

from inspect_ai.model import ChatMessage, GenerateConfig

from cog_tasks.common.scripted import ScriptedReplies, seeded_rng
from cog_tasks.egosocial.holdem import ACTIONS
from cog_tasks.egosocial.number_guessing import HIGHEST_NUMBER, LOWEST_NUMBER

_OPTION_LETTER = re.compile(r"^([A-J])\) ", re.MULTILINE)
_LEGAL_LIST = re.compile(r"(?:Legal actions: |legal actions \()([a-z, ]+)")


class ChanceAnswerer(ScriptedReplies):
    """A ``custom_outputs`` callable for ``mockllm``: one random valid reply per call."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def reply(self, prompt: str, context: str = "") -> str:
        """A uniformly random valid reply to ``prompt``, seeded with the earlier ``context`` too."""
        rng = seeded_rng(self.seed, f"{context}\n{prompt}")
        if "Prediction: <number>; Choice: <number>" in prompt:
            numbers = [rng.randint(LOWEST_NUMBER, HIGHEST_NUMBER) for _ in range(2)]
            return f"Prediction: {numbers[0]}; Choice: {numbers[1]}"
        if "Cards: <A, B or C>" in prompt:
            return f"Cards: {rng.choice('ABC')}; Raise: {rng.choice(('yes', 'no'))}"
        legal = _LEGAL_LIST.search(prompt)
        if legal:
            actions = [word.strip() for word in legal.group(1).split(",")]
            return rng.choice([action for action in actions if action in ACTIONS])
        letters = _OPTION_LETTER.findall(prompt)
        if letters:
            letter = rng.choice(letters)
            return f"ANSWER: {letter}" if "ANSWER" in prompt else letter
        raise ValueError(
            f"the chance baseline cannot tell what this prompt asks: {prompt[-200:]!r}"
        )

    def reply_to(self, messages: list[ChatMessage], config: GenerateConfig) -> str:
        """One seeded random answer to the conversation (see :class:`ScriptedReplies`)."""
        context = "\n".join(message.text for message in messages[:-1])
        return self.reply(messages[-1].text, context)
