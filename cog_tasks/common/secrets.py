"""Secrets in model arguments: the one rule of what is redacted, and the redaction.

An argument is a secret when its name (case and ``-``/``_`` aside, after any
``prefix.``) is ``token``, ``hf_token``, ``access_token``, ``auth_token``,
``api_key`` or ``password``, or ends in ``_api_key`` or ``_secret``. Nothing
else is: ``max_tokens``, ``memory_tokens``, ``add_bos_token`` and
``tokenizer`` change the measurement and stay in every identity.

Run identities redact their arguments and their model label where they are
built (:meth:`cog_tasks.common.runs.RunIdentity.of`), so no label, report,
``summary.*`` or ``profile.json`` made from them holds a secret.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

SECRET_NAMES = frozenset({"token", "hf_token", "access_token", "auth_token", "api_key", "password"})
"""Argument names that are secrets."""

SECRET_SUFFIXES = ("_api_key", "_secret")
"""Name endings that make an argument a secret (``openai_api_key``, ``client_secret``)."""

REDACTED = "***"
"""What a secret's value becomes."""

NAME_VALUE = re.compile(r"(?P<name>[A-Za-z_][\w.-]*)=(?P<value>[^,\s\]\)]*)")
"""A ``name=value`` pair in text: a model label's ``[k=v,...]``, ``--model_args`` lists."""


def is_secret(name: str) -> bool:
    """Whether an argument called ``name`` holds a secret (see the module docstring).

    Args:
        name: The argument's name (``hf_token``, ``generate.api_key``, ``HF-Token``).
    """
    key = name.strip().lower().replace("-", "_").rsplit(".", 1)[-1]
    return key in SECRET_NAMES or key.endswith(SECRET_SUFFIXES)


def redact(arguments: Mapping[str, object]) -> dict[str, object]:
    """``arguments`` with every secret's value replaced by :data:`REDACTED`.

    Nested arguments are redacted too: a mapping value (lm-eval's
    ``model_args`` as a dict) by its names, a text value (``model_args`` as
    ``pretrained=m,token=...``) by :func:`redact_text`.

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
    return redact_text(value) if isinstance(value, str) else value


def redact_text(text: str) -> str:
    """``text`` with the value of every ``name=value`` pair of a secret replaced.

    For text that carries arguments inline: a model label
    (``hf/m[hf_token=...]``), an lm-eval ``--model_args`` list
    (``pretrained=m,token=...``), a command line.

    Args:
        text: The text.

    Returns:
        The text, secrets' values replaced by :data:`REDACTED`.
    """

    def replace(match: re.Match[str]) -> str:
        if not is_secret(match["name"]):
            return match[0]
        return f"{match['name']}={REDACTED}"

    return NAME_VALUE.sub(replace, text)
