r"""Extract which option a free-text answer chose.

Chat models answer in many shapes: "The answer is option B", "\boxed{C}",
"(D)", a line "B. <choice text>", a speaker tag "A: ..." in front of the real
answer, or just the text of a choice. :func:`extract_choice` tries the
unambiguous shapes first and returns ``None`` when the answer cannot be
pinned to exactly one option; callers count that as wrong and report it as
invalid.
"""

from __future__ import annotations

import re
import string
from collections.abc import Sequence

LETTERS = string.ascii_uppercase

_SPEAKER_TAG = re.compile(r"^\s*(?:assistant|answer|response|model|a)\s*:\s*(?=\S)", re.IGNORECASE)
_OPTION_WORD = r"(?:option|choice|letter|candidate)?\s*"
# A bracketed letter, a capital letter, or a lowercase letter before punctuation or the
# end ("the answer is b."); a lowercase word like the article in "the answer is a
# combination of ..." is not a letter.
_LETTER = (
    r"(?:[\(\[\{\*]+([A-Za-z])[\)\]\}\*]*"
    r"|(?-i:([A-Z]))[\)\]\}\*]*"
    r"|(?-i:([a-z]))(?=\s*(?:[\.\),;:!]|$)))"
)
# Explicit statements of the final choice, strongest first.
_EXPLICIT_PATTERNS = (
    re.compile(r"\\boxed\{\s*(?:\\text\{)?\s*([A-Za-z])\s*\}?\s*\}"),
    re.compile(
        rf"(?:final\s+|correct\s+|best\s+)?answer\s*(?:is|would\s+be|will\s+be|:|=)\s*:?\s*"
        rf"{_OPTION_WORD}{_LETTER}(?![A-Za-z])",
        re.IGNORECASE,
    ),
    re.compile(
        rf"\bI\s+(?:choose|pick|select|would\s+choose|will\s+choose|go\s+with)\s*:?\s*"
        rf"{_OPTION_WORD}{_LETTER}(?![A-Za-z])",
        re.IGNORECASE,
    ),
    re.compile(r"\b(?:option|choice)\s+\(?([A-Z])\)?(?![A-Za-z])(?:\s+is\s+(?:correct|right))?"),
)
_LEADING_LETTER_LINE = re.compile(r"^\s*\(?([A-Z])\s*[\.\):]\s*(.*)$")
_BARE_LETTER = re.compile(r"^\s*[\(\[\*]*([A-Z])[\)\]\*]*\s*[\.\!]?\s*$")
_PAREN_LETTER = re.compile(r"\(([A-Z])\)")
_OTHER_LETTER = re.compile(r"\([A-Z]\)|\b(?:or|and|vs\.?)\s+[A-Z]\b")


def _normalize(text: str) -> str:
    lowered = text.lower().strip()
    lowered = re.sub(r"[\"'`“”‘’]", "", lowered)
    lowered = re.sub(r"[^\w\s]", " ", lowered)
    return re.sub(r"\s+", " ", lowered).strip()


def _letter_index(letter: str, num_choices: int) -> int | None:
    index = LETTERS.index(letter.upper())
    return index if index < num_choices else None


def _from_choice_text(text: str, choices: Sequence[str]) -> int | None:
    """Match the answer against the choices' own text.

    An exact (normalized) match wins. Otherwise the choices mentioned as whole
    phrases are collected, dropping any that only appear inside another
    mentioned choice ("True" inside "Not true"); exactly one must remain.
    """
    answer = _normalize(text)
    if not answer:
        return None
    normalized = [_normalize(choice) for choice in choices]
    exact = [i for i, choice in enumerate(normalized) if choice and choice == answer]
    if len(exact) == 1:
        return exact[0]
    mentioned = [
        i
        for i, choice in enumerate(normalized)
        if choice and re.search(rf"(?<!\w){re.escape(choice)}(?!\w)", answer)
    ]
    maximal = [
        i
        for i in mentioned
        if not any(j != i and normalized[i] in normalized[j] for j in mentioned)
    ]
    return maximal[0] if len(maximal) == 1 else None


def _rest_supports(rest: str, index: int, choices: Sequence[str]) -> bool:
    """Whether the text after a leading "B." agrees with option ``index``.

    It agrees when it is empty or names that option's text; text that names no
    option agrees only if it does not bring up another lettered option.
    """
    named = _from_choice_text(rest, choices)
    if named is not None:
        return named == index
    return _OTHER_LETTER.search(rest) is None


def _captured_letter(match: re.Match[str]) -> str:
    """The letter of an explicit-answer match, whichever alternative caught it."""
    return next(group for group in match.groups() if group).upper()


def _explicit_letter(text: str, num_choices: int) -> int | None:
    for pattern in _EXPLICIT_PATTERNS:
        letters = [_captured_letter(m) for m in pattern.finditer(text)]
        indices = {_letter_index(letter, num_choices) for letter in letters} - {None}
        if len(indices) == 1:
            return indices.pop()
        if len(indices) > 1:
            # Several explicit statements: the last one is the model's final word.
            return _letter_index(letters[-1], num_choices)
    return None


def extract_choice(text: str | None, choices: Sequence[str]) -> int | None:
    """Return the 0-based option a free-text answer chose, or ``None``.

    Args:
        text: The model's answer.
        choices: The options as shown to the model, lettered A, B, C ... in order.

    Returns:
        The chosen index, or ``None`` when no single option can be identified.
    """
    if not text or not text.strip():
        return None
    num_choices = len(choices)
    body = _SPEAKER_TAG.sub("", text.strip(), count=1)
    for candidate in (body, text):
        found = _explicit_letter(candidate, num_choices)
        if found is not None:
            return found

    bare = _BARE_LETTER.match(body)
    if bare:
        return _letter_index(bare.group(1), num_choices)

    for line in body.splitlines():
        leading = _LEADING_LETTER_LINE.match(line)
        if leading:
            index = _letter_index(leading.group(1), num_choices)
            rest = leading.group(2).strip()
            if index is not None and _rest_supports(rest, index, choices):
                return index

    by_text = _from_choice_text(body, choices)
    if by_text is not None:
        return by_text

    parenthesized = {_letter_index(m, num_choices) for m in _PAREN_LETTER.findall(body)} - {None}
    if len(parenthesized) == 1:
        return parenthesized.pop()
    return None


def coerce_prediction(prediction: int | str | None, choices: Sequence[str]) -> int | None:
    """Turn a prediction given as an index, a letter or free text into an index.

    Args:
        prediction: 0-based int, a letter, or free text.
        choices: The options.

    Returns:
        The index, or ``None`` when it is out of range or cannot be parsed.
    """
    if isinstance(prediction, bool) or prediction is None:
        return None
    if isinstance(prediction, int):
        return prediction if 0 <= prediction < len(choices) else None
    return extract_choice(str(prediction), choices)
