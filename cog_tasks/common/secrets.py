"""Secrets in model arguments: the one rule of what is redacted, and the redaction.

An argument is a secret when its name (case and ``-``/``_`` aside, after any
``prefix.``) ends in the word ``token``, ``key``, ``secret`` or ``password``
(``hf_token``, ``api_key``, ``client_secret``, ``bearer_token``), or holds the
word ``authorization`` or ``bearer``. A tokenizer's special-token settings
(``bos_token``, ``add_eos_token``, ``pad_token``...) are settings, not secrets,
and so are ``max_tokens``, ``memory_tokens`` and ``tokenizer``: they change
the measurement and stay in every identity.

Model and role arguments are parsed into one structure
(:func:`model_arguments`) whose secrets are redacted before any label, file,
log line or error is built from it; text that carries arguments inline is
redacted by :func:`redact_text`, which takes a secret's value whole: quoted,
bracketed, or running over commas and spaces up to the next ``name=``.
Run identities redact their arguments and their model label where they are
built (:meth:`cog_tasks.common.runs.RunIdentity.of`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

SECRET_WORDS = frozenset({"token", "key", "secret", "password", "passwd", "apikey"})
"""Last words of a name that make it a secret."""

ANYWHERE_WORDS = frozenset({"authorization", "bearer", "credentials"})
"""Words that make a name a secret wherever they stand in it."""

SPECIAL_TOKENS = frozenset({"bos", "eos", "pad", "unk", "sep", "cls", "mask"})
"""A tokenizer's special tokens: ``<word>_token`` names a setting, not a secret."""

REDACTED = "***"
"""What a secret's value becomes."""

NAME = re.compile(
    r"(?<![\w.-])(?P<name>[A-Za-z_][\w.-]*)=|(?P<quote>['\"])(?P<key>[A-Za-z_][\w.-]*)(?P=quote)\s*:\s*"
)
"""The start of a ``name=value`` pair in text, or of a ``'name': value`` entry (JSON, a repr)."""

NEXT_PAIR = re.compile(r"[,\s]+(?:[A-Za-z_][\w.-]*=|-)|\s*[\]\)}]\s*(?:$|[\s,])|\s*$")
"""Where an unquoted secret value ends: before a pair, an option, a closing bracket, the end."""

CLOSING = {"'": "'", '"': '"', "[": "]", "(": ")", "{": "}"}


def is_secret(name: str) -> bool:
    """Whether an argument called ``name`` holds a secret (see the module docstring).

    Args:
        name: The argument's name (``hf_token``, ``generate.api_key``, ``HF-Token``).
    """
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
    """``arguments`` with every secret's value replaced by :data:`REDACTED`.

    Nested arguments are redacted too: a mapping value (lm-eval's
    ``model_args`` as a dict) by its names, a list by its items, a text value
    (``model_args`` as ``pretrained=m,token=...``) by :func:`redact_text`.

    Args:
        arguments: Argument name -> value.

    Returns:
        A new mapping, same names in the same order.
    """
    return {name: _redacted(name, value) for name, value in arguments.items()}


def _redacted(name: str, value: object) -> object:
    if is_secret(name):
        return REDACTED
    if isinstance(value, Mapping):
        return redact(value)
    if isinstance(value, (list, tuple)):
        return type(value)(_redacted("", item) for item in value)
    return redact_text(value) if isinstance(value, str) else value


def model_arguments(
    pairs: Iterable[tuple[str, object]] | Mapping[str, object],
) -> dict[str, object]:
    """Model or role arguments (``-M``, ``--model-role``, ``--model_args``) as one redacted mapping.

    Every name is kept; a secret's value is :data:`REDACTED`. Build labels,
    files, log lines and errors from this, never from the raw pairs.

    Args:
        pairs: ``(name, value)`` pairs as parsed, or a mapping.
    """
    items = pairs.items() if isinstance(pairs, Mapping) else pairs
    return redact(dict(items))


def _value_end(text: str, start: int) -> int:
    """Where the value starting at ``start`` ends (exclusive), taking it whole."""
    if start < len(text) and text[start] in CLOSING:
        close = text.find(CLOSING[text[start]], start + 1)
        if close != -1:
            return close + 1
    match = NEXT_PAIR.search(text, start)
    return match.start() if match else len(text)


def redact_text(text: str) -> str:
    """``text`` with the value of every ``name=value`` pair of a secret replaced.

    For text that carries arguments inline: a model label
    (``hf/m[hf_token=...]``), an lm-eval ``--model_args`` list
    (``pretrained=m,token=...``), a command line, an error message. A
    secret's value is taken whole: ``token='hf_A,B'`` and ``token=hf_A,B``
    lose ``hf_A,B``, not ``hf_A`` alone.

    Args:
        text: The text.

    Returns:
        The text, secrets' values replaced by :data:`REDACTED`.
    """
    pieces = []
    position = 0
    for match in NAME.finditer(text):
        if match.start() < position or not is_secret(match["name"] or match["key"]):
            continue
        end = _value_end(text, match.end())
        pieces += [text[position : match.end()], REDACTED]
        position = end
    return "".join(pieces) + text[position:]
