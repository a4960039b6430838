"""Tolerant extraction of the final ``Answer: ...`` line of a reply.

The model is asked to end with ``Answer: A, B, C`` (a route), ``Answer: X`` (one
state), ``Answer: N`` (a count) or ``Answer: A - B, C - D`` (a map). Replies in
the wild add markdown, "Room 5" instead of "5", odd case, trailing full stops
or arrows instead of commas; all of these are accepted.
"""

from __future__ import annotations

import re

_ANSWER = re.compile(r"answer(?:\s+is)?\s*[:：]\s*(.*)", re.IGNORECASE)
_DECORATION = re.compile(r"[*_`\"“”\[\]{}]")
_PARENTHESES = re.compile(r"\([^)]*\)")
_ROUTE_SEPARATORS = re.compile(r"\s*(?:,|;|->|=>|→|⟶|\bthen\b)\s*", re.IGNORECASE)
_PAIR_SEPARATORS = re.compile(r"\s*(?:<->|->|→|↔|—|–|-|\bto\b)\s*", re.IGNORECASE)
_LEADING_WORDS = re.compile(r"^(?:and|then|finally|go to|to|the|room|zone|via)\s+", re.IGNORECASE)
_NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}  # fmt: skip
_COUNT = re.compile(r"\b(\d+|" + "|".join(_NUMBER_WORDS) + r")\b", re.IGNORECASE)


def extract_answer(response: str) -> str | None:
    """Return the text after the last ``Answer:`` marker, cleaned, or ``None``.

    When the marker ends its line, the next non-empty line is taken. Markdown
    emphasis, quotes, remarks in parentheses and trailing punctuation are removed.
    """
    lines = response.splitlines()
    for index in range(len(lines) - 1, -1, -1):
        match = _ANSWER.search(lines[index])
        if not match:
            continue
        text = match.group(1)
        if not _clean(text):
            text = next((line for line in lines[index + 1 :] if _clean(line)), "")
        cleaned = _clean(text)
        return cleaned or None
    return None


def _clean(text: str) -> str:
    text = _PARENTHESES.sub("", _DECORATION.sub("", text)).strip()
    return text.rstrip(".!?;: ").strip()


def normalize_state(token: str) -> str:
    """Canonical form of one state name: ``"Room 5."`` and ``"5"`` both give ``"5"``."""
    token = _DECORATION.sub("", token).strip().strip(".!?:;()'").strip().lower()
    previous = None
    while previous != token:
        previous = token
        token = _LEADING_WORDS.sub("", token).strip()
    return re.sub(r"\s+", " ", token)


def split_route(answer: str) -> list[str]:
    """Split an answer into normalised state names (commas, arrows, "then")."""
    return [name for name in (normalize_state(t) for t in _ROUTE_SEPARATORS.split(answer)) if name]


def split_map(answer: str) -> list[tuple[str, str]]:
    """Split a map answer ``A - B, C - D`` into normalised pairs; malformed parts are skipped."""
    pairs = []
    for part in re.split(r"\s*[,;]\s*", answer):
        ends = [normalize_state(end) for end in _PAIR_SEPARATORS.split(part) if end.strip()]
        if len(ends) == 2 and all(ends):
            pairs.append((ends[0], ends[1]))
    return pairs


def parse_count(answer: str) -> int | None:
    """The first whole number (digits or a word up to twelve) in ``answer``."""
    match = _COUNT.search(answer)
    if not match:
        return None
    word = match.group(1).lower()
    return int(word) if word.isdigit() else _NUMBER_WORDS[word]
