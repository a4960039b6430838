"""The CogLM chance baseline as an Inspect model: a uniformly random option letter."""

from __future__ import annotations

import random
import re
from collections import Counter

from inspect_ai.model import ChatMessage, GenerateConfig

from cog_tasks.coglm.llama_text import load_wording
from cog_tasks.coglm.prompts import ANSWER_PHRASE, boxed_answer
from cog_tasks.common.scripted import ScriptedReplies

_OPTION_LINE = re.compile(r"^([A-Z])\. ", re.MULTILINE)


class ChanceAnswerer(ScriptedReplies):
    r"""Inspect ``custom_outputs`` answering in each prompt's form with a seeded random letter."""

    def __init__(self, seed: int = 0):
        self.seed = seed
        self.calls: Counter[str] = Counter()

    def reply_to(self, messages: list[ChatMessage], config: GenerateConfig) -> str:
        """One seeded random answer to the conversation (see :class:`ScriptedReplies`)."""
        prompt = next(m.text for m in reversed(messages) if m.role == "user")
        if "Options:\n" in prompt:
            letters = _OPTION_LINE.findall(prompt.split("Options:\n", 1)[-1])
        else:
            letters = _inline_letters(prompt)
        if not letters:
            raise ValueError(f"no lettered options in the prompt: {prompt[:200]!r}")
        self.calls[prompt] += 1
        rng = random.Random(f"{self.seed}|{config.seed}|{self.calls[prompt]}|{prompt}")
        letter = rng.choice(letters)
        return boxed_answer(letter) if "\\boxed{" in prompt else f"{ANSWER_PHRASE} {letter}."


def _inline_letters(prompt: str) -> list[str]:
    """The letters of the one-line options of a ``llama-text`` prompt (alternating with texts)."""
    wording = load_wording()
    if wording.options_sentence not in prompt:
        return []
    line = prompt.rsplit(wording.options_sentence, 1)[-1].removesuffix(wording.answer_cue)
    pieces = [piece.strip() for piece in line.split(".")[0::2]]
    return [piece for piece in pieces if len(piece) == 1 and piece.isupper()]
