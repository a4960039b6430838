"""What every benchmark's report repeats: logged intervals, error bars, flag counts, figures."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from cog_tasks.common.files import pyplot, save_figure
from cog_tasks.common.results import FLAGGED
from cog_tasks.common.stats import Interval

Bounds = Sequence[float | None]
"""``[low, high]`` as a report's JSON carries an interval (``None``: no bound)."""


def logged_interval(value: float, bounds: Bounds, n: int, unit: str, reason: str = "") -> Interval:
    """The interval of a report's ``[low, high]``, to print with the one 'no interval' wording."""
    low, high = (math.nan if bound is None else bound for bound in bounds)
    return Interval(value, low, high, n, unit, "logged", reason)


def error_bars(
    points: Iterable[tuple[float, Bounds | None]], scale: float = 1.0
) -> list[list[float]]:
    """``[below, above]`` error-bar lengths; 0 where a bound is missing or rounds past the value."""
    below, above = [], []
    for value, bounds in points:
        low, high = bounds or (None, None)
        below.append(0.0 if low is None else max(0.0, scale * (value - low)))
        above.append(0.0 if high is None else max(0.0, scale * (high - value)))
    return [below, above]


def interval_bars(intervals: Iterable[Interval], scale: float = 1.0) -> list[list[float]]:
    """:func:`error_bars` of intervals (none drawn where an interval is missing)."""
    return error_bars(((interval.value, interval.as_list()) for interval in intervals), scale)


def flag_counts(
    counts: Mapping[str, int], statuses: Sequence[str] = FLAGGED, template: str = "{status} {n}"
) -> list[str]:
    """Each flagged status's count (0 where absent), in ``statuses`` order."""
    return [template.format(status=status, n=counts.get(status, 0)) for status in statuses]


def row_notes(rows: Iterable[tuple[str, str]]) -> list[str]:
    """``label: note`` for every row with a note."""
    return [f"{label}: {note}" for label, note in rows if note]


def save_closed(figure: Any, path: Path, dpi: int = 120, layout: bool = True) -> Path:
    """Lay the figure out (unless ``layout`` is off), save it as PNG, close it; return ``path``."""
    if layout:
        figure.tight_layout()
    save_figure(figure, path, dpi)
    pyplot().close(figure)
    return path
