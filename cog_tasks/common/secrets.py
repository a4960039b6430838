"""Secrets in model arguments (``*_token``, ``*_key``, ``authorization``...): rule and redaction."""

from __future__ import annotations

import re
from collections.abc import Mapping

SECRET_WORDS = frozenset({"token", "key", "secret", "password", "passwd", "apikey"})
"""Last words of a name that make it a secret."""
ANYWHERE_WORDS = frozenset({"authorization", "bearer", "credentials"})
"""Words that make a name a secret anywhere in it."""
SPECIAL_TOKENS = frozenset({"bos", "eos", "pad", "unk", "sep", "cls", "mask"})
"""``<word>_token`` names a tokenizer setting, not a secret."""
REDACTED = "***"  # What a secret's value becomes.
NAME = re.compile(
    r"(?<![\w.-])(?P<name>[A-Za-z_][\w.-]*)=|(?P<quote>['\"])(?P<key>[A-Za-z_][\w.-]*)(?P=quote)\s*:\s*"
)
"""The start of a ``name=value`` pair in text, or of a ``'name': value`` entry (JSON, a repr)."""
NEXT_PAIR = re.compile(r"[,\s]+(?:[A-Za-z_][\w.-]*=|-)|\s*[\]\)}]\s*(?:$|[\s,])|\s*$")
"""Where an unquoted secret value ends."""
CLOSING = {"'": "'", '"': '"', "[": "]", "(": ")", "{": "}"}


def is_secret(name: str) -> bool:
    """Whether an argument called ``name`` holds a secret (see the module docstring)."""
    key = name.strip().lower().replace("-", "_").rsplit(".", 1)[-1]
    words = [word for word in key.split("_") if word]
    if not words:
        return False
    if ANYWHERE_WORDS.intersection(words):
        return True
    if words[-1] == "token" and len(words) > 1 and words[-2] in SPECIAL_TOKENS:
        return False
    return words[-1] in SECRET_WORDS


def redact(arguments: Mapping[str, object]) -> dict[str, object]:
    """``arguments`` with every secret's value replaced by :data:`REDACTED`, nested ones too."""
    return {name: _redacted(name, value) for name, value in arguments.items()}


def _redacted(name: str, value: object) -> object:
    if is_secret(name):
        return REDACTED
    if isinstance(value, Mapping):
        return redact(value)
    if isinstance(value, (list, tuple)):
        return type(value)(_redacted("", item) for item in value)
    return redact_text(value) if isinstance(value, str) else value


def _value_end(text: str, start: int) -> int:
    """Where the value starting at ``start`` ends (exclusive), taking it whole."""
    if start < len(text) and text[start] in CLOSING:
        close = text.find(CLOSING[text[start]], start + 1)
        if close != -1:
            return close + 1
    match = NEXT_PAIR.search(text, start)
    return match.start() if match else len(text)


def redact_text(text: str) -> str:
    """``text`` with the whole value of every ``name=value`` pair of a secret replaced."""
    pieces = []
    position = 0
    for match in NAME.finditer(text):
        if match.start() < position or not is_secret(match["name"] or match["key"]):
            continue
        end = _value_end(text, match.end())
        pieces += [text[position : match.end()], REDACTED]
        position = end
    return "".join(pieces) + text[position:]
