"""Optional dependencies: import them with an error that names the extra to install."""

from __future__ import annotations

import importlib
from types import ModuleType

from cog_tasks.common.errors import UserError


class MissingExtra(UserError, ModuleNotFoundError):
    """An optional package that is not installed; the message names the extra that brings it."""


def import_extra(module: str, extra: str) -> ModuleType:
    """Import ``module``, or raise :class:`MissingExtra` naming the extra that provides it."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as error:
        raise MissingExtra(
            f"{module} is not installed; it comes with the {extra!r} extra: "
            f'pip install "cog-tasks[{extra}]"'
        ) from error
