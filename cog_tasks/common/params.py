"""Typed, range-checked task parameters: a bad ``-T`` value is refused when the task is built."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from cog_tasks.common.errors import UserError


class ParameterError(UserError):
    """A task parameter (``-T``) whose value cannot be used; the message names it."""


def integer(name: str, value: object, minimum: int, maximum: int | None = None) -> int:
    """``value`` as an int within ``[minimum, maximum]`` (:class:`ParameterError` otherwise)."""
    upper = "" if maximum is None else f" and <= {maximum}"
    if isinstance(value, bool) or not isinstance(value, int):
        raise ParameterError(f"{name} must be an integer >= {minimum}{upper}, got {value!r}")
    if value < minimum or (maximum is not None and value > maximum):
        raise ParameterError(f"{name} must be an integer >= {minimum}{upper}, got {value}")
    return value


def fraction(name: str, value: object) -> float:
    """``value`` as a float within ``[0, 1]`` (:class:`ParameterError` otherwise)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 1:
        raise ParameterError(f"{name} must be a number from 0 to 1, got {value!r}")
    return float(value)


def flag(name: str, value: object) -> bool:
    """``value`` as a bool (``-T x=true`` arrives as one; :class:`ParameterError` otherwise)."""
    if not isinstance(value, bool):
        raise ParameterError(f"{name} must be true or false, got {value!r}")
    return value


def choice(name: str, value: object, allowed: Collection[object]) -> object:
    """``value`` if it is one of ``allowed`` (a bool never is, though ``True == 1``)."""
    if isinstance(value, bool) or value not in allowed:
        shown = ", ".join("none" if item is None else str(item) for item in allowed)
        raise ParameterError(f"{name} must be one of {shown}; got {value!r}")
    return value


def split_names(value: str | Sequence[str]) -> list[str]:
    """``"a, b"`` or ``["a", "b"]`` as ``["a", "b"]``, refusing an empty or repeated name."""
    parts = value.split(",") if isinstance(value, str) else value
    names = [str(part).strip() for part in parts]
    if not all(names):
        raise ParameterError(f"empty name in {value!r}: give names separated by single commas")
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise ParameterError(f"{', '.join(repeated)} given twice in {value!r}; give each once")
    return names


def names(name: str, value: object) -> list[str]:
    """``value``, comma-separated names or a list of them, split (:class:`ParameterError`)."""
    if isinstance(value, str) or (
        isinstance(value, (list, tuple)) and all(isinstance(item, str) for item in value)
    ):
        return split_names(value)
    raise ParameterError(f"{name} must be comma-separated names, got {value!r}")
