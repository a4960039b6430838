r"""The CogLM authors' rules for reading chat answers, reimplemented as they behave.

The paper's chat rows (Table 9) were scored by two scripts of WangXinglin/CogLM,
whose behaviour is reproduced here, mistakes included, so that published
numbers can be recomputed from raw outputs. Neither rule knows about invalid
answers; here an answer they cannot turn into an option letter is ``None``
(invalid, counted as wrong), which is what their scripts amount to.

``authors`` (``llama_chat_result.py``, used for Llama-2-chat):

1. Take the text after the last occurrence of ``boxed`` (the whole answer when
   there is none) and look at its *second* character: for ``\boxed{B}`` that is
   ``B``; without a box it is simply the answer's second character.
2. If that is not one of ``A B C D``, try the phrases :data:`LLAMA_PHRASES` in
   order: take the text after the phrase's last occurrence (the whole answer
   when the phrase is absent), strip white space and look at its first
   character. The first phrase giving ``A``-``D`` wins.
3. If none does, the character from the last phrase stands; it matches an
   option only if it happens to be the letter ``E`` or ``F`` of a longer list.

Consequences: a reply that starts with " C" or "(B" reads as that letter
through step 1; "is: because ..." reads ``B``; only ``A``-``D`` are accepted
in steps 1-2. Where the authors' script would crash (nothing after
``boxed``, or nothing after a phrase), the answer is taken as unreadable.
Hedges get one letter, the first after the phrase: "The answer is A or B"
and "Answer: A is wrong, B is right" read ``A``, and so does a reply that
only repeats the options ("A. x B. y ..."); the ``ours`` reader
(:mod:`cog_tasks.coglm.extract`) counts these invalid.

``authors-gpt`` (``chatgpt_result.py``, used for GPT-3.5 and GPT-4): the
first ``\boxed{...}`` (shortest content, one line) is read; content other than
``A``-``D`` is cut at its first full stop (``\boxed{D. tiger}`` gives ``D``).
The result must equal the answer's letter; anything else (no box,
``\boxed{\text{D}}``, ``\boxed{(D)}``) is wrong. Their majority vote over
several samples counted unreadable boxed contents as votes; the vote here
(:mod:`cog_tasks.coglm.voting`) does not, the one departure.
"""

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
    """The option the authors' Llama-2-chat rule reads, or ``None`` (see module doc).

    Args:
        text: The model's answer.
        choices: The options, lettered A, B, C ... in order.
    """
    if text is None:
        return None
    return _index(authors_llama_letter(text), choices)


def authors_gpt_choice(text: str | None, choices: Sequence[str]) -> int | None:
    r"""The option the authors' GPT rule reads from the first ``\boxed{}``, or ``None``.

    Args:
        text: The model's answer.
        choices: The options, lettered A, B, C ... in order.
    """
    match = _FIRST_BOX.search(text or "")
    if not match:
        return None
    content = match.group(1)
    if content not in FOUR_LETTERS:
        content = content.split(".")[0]
    return _index(content, choices)
