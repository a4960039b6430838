"""Type and range checks of EgoSocialArena's task parameters, run when a task is built.

Inspect passes ``-T name=value`` through YAML, so ``-T hands=x`` arrives as the
text ``"x"`` and ``-T circular=yes`` as ``True``. Each check refuses a value of
the wrong type or out of range with one line that names the parameter and
the valid values.
"""

from __future__ import annotations

from collections.abc import Collection


def whole_number(name: str, value: object, minimum: int = 1, maximum: int | None = None) -> int:
    """``value`` as an int within ``[minimum, maximum]``.

    Raises:
        ValueError: Naming the parameter, the value and the valid range.
    """
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or value < minimum
        or (maximum is not None and value > maximum)
    ):
        upper = f" and at most {maximum}" if maximum is not None else ""
        raise ValueError(
            f"{name} must be a whole number of at least {minimum}{upper}, got {value!r}"
        )
    return value


def flag(name: str, value: object) -> bool:
    """``value`` as a bool (``true``/``false``).

    Raises:
        ValueError: For anything but a bool.
    """
    if not isinstance(value, bool):
        raise ValueError(f"{name} must be true or false, got {value!r}")
    return value


def one_of(name: str, value: object, choices: Collection[object]) -> object:
    """``value`` when it is one of ``choices``.

    Raises:
        ValueError: Naming the parameter, the value and the choices.
    """
    if isinstance(value, bool) or value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(map(str, choices))}; got {value!r}")
    return value
