"""The CogLM authors' answer rules, mistakes kept: ``authors`` (Llama) and ``authors-gpt`` (GPT)."""

from __future__ import annotations

import re
import string
from collections.abc import Sequence

FOUR_LETTERS = ("A", "B", "C", "D")
LLAMA_PHRASES: tuple[str, ...] = (
    "is:",
    "is:",
    "answer is (",
    "answer is",
    "answer is:",
    "The propositional relationship between sentence1 and sentence2 is",
    "The propositional relationship between sentence1 and sentence2 is option",
    "is option",
    "would be",
    "given holidays would be:",
    "The correct sequence would be:",
)
"""The phrases of step 2, in the authors' order (the repeated ``is:`` included)."""
_FIRST_BOX = re.compile(r"\\boxed\{(.+?)\}")


def _index(letter: str | None, choices: Sequence[str]) -> int | None:
    letters = string.ascii_uppercase[: len(choices)]
    return letters.index(letter) if letter and len(letter) == 1 and letter in letters else None


def _character(text: str, position: int) -> str | None:
    return text[position] if len(text) > position else None


def authors_llama_letter(text: str) -> str | None:
    """The character the Llama-2-chat rule settles on (``None`` where their script crashes)."""
    candidate = _character(text.split("boxed")[-1], 1)
    if candidate in FOUR_LETTERS:
        return candidate
    for phrase in LLAMA_PHRASES:
        candidate = _character(text.split(phrase)[-1].strip(), 0)
        if candidate in FOUR_LETTERS:
            return candidate
    return candidate


def authors_llama_choice(text: str | None, choices: Sequence[str]) -> int | None:
    """The option the authors' Llama-2-chat rule reads, or ``None``."""
    if text is None:
        return None
    return _index(authors_llama_letter(text), choices)


def authors_gpt_choice(text: str | None, choices: Sequence[str]) -> int | None:
    r"""The option the authors' GPT rule reads from the first ``\boxed{}``, or ``None``."""
    match = _FIRST_BOX.search(text or "")
    if not match:
        return None
    content = match.group(1)
    if content not in FOUR_LETTERS:
        content = content.split(".")[0]
    return _index(content, choices)
