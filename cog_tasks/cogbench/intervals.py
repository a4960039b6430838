"""95 % intervals of CogBench's headline numbers, bootstrapped over trajectories' tallies."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial

import numpy as np

from cog_tasks.cogbench.metrics import (
    COUNTED,
    RatingTally,
    RationalityTally,
    WeightScheme,
    check_kappa_form,
    pooled_tallies,
    question_tallies,
)
from cog_tasks.common.stats import (
    SUM_STATISTICS,
    Interval,
    UnitValue,
    bootstrap_interval,
    payload_interval,
)

UNIT = "trajectory"  # CogBench's resampling unit

Cell = tuple[int, str | None]
"""An iteration, with a question key for the paper's per-question κ (``None``: pooled)."""


@dataclass(frozen=True)
class UnitTallies:
    """One trajectory's rating tallies per :data:`Cell` and judge tallies per iteration."""

    ratings: Mapping[Cell, RatingTally]
    judged: Mapping[int, RationalityTally] = field(default_factory=dict)

    @classmethod
    def from_value(cls, value: Mapping[str, float], weights: WeightScheme) -> UnitTallies:
        """Read a scorer's ``Score.value`` (see :mod:`cog_tasks.cogbench.inspect.scorer`)."""
        by_iteration, judged = pooled_tallies([value], weights)
        ratings: dict[Cell, RatingTally] = {(t, None): tally for t, tally in by_iteration.items()}
        ratings.update(question_tallies(value, weights))
        return cls(ratings, {t: tally for t, tally in judged.items() if tally.scored})

    @classmethod
    def from_iterations(cls, ratings: Mapping[int, RatingTally]) -> UnitTallies:
        """A unit with pooled rating tallies only (a model-free reference)."""
        return cls({(iteration, None): tally for iteration, tally in ratings.items()})

    def __add__(self, other: UnitTallies) -> UnitTallies:
        ratings = dict(self.ratings)
        for cell, tally in other.ratings.items():
            ratings[cell] = ratings[cell] + tally if cell in ratings else tally
        judged = dict(self.judged)
        for iteration, tally in other.judged.items():
            judged[iteration] = judged[iteration] + tally if iteration in judged else tally
        return UnitTallies(ratings, judged)


def merge_units(pairs: Iterable[tuple[str, UnitTallies]]) -> dict[str, UnitTallies]:
    """Add up the tallies of one trajectory id (its epochs), keeping first-seen order."""
    merged: dict[str, UnitTallies] = {}
    for unit_id, tallies in pairs:
        merged[unit_id] = merged[unit_id] + tallies if unit_id in merged else tallies
    return merged


def _row_tally(row: np.ndarray, weights: WeightScheme) -> RatingTally:
    """A row in :meth:`RatingTally.to_value` order (the counts, then human and agent per rating)."""
    values = row.tolist()
    counted, likert = values[: len(COUNTED)], values[len(COUNTED) :]
    return RatingTally(
        weights,
        human=tuple(likert[0::2]),  # type: ignore[arg-type]
        agent=tuple(likert[1::2]),  # type: ignore[arg-type]
        **dict(zip(COUNTED, counted, strict=True)),
    )


def _weights_of(units: Sequence[UnitTallies]) -> WeightScheme:
    return next((tally.weights for unit in units for tally in unit.ratings.values()), None)


def _average_later(by_iteration: Mapping[int, float], iteration: int | None) -> float:
    """The iteration's value, or the mean over iterations >= 1 (NaN where undefined)."""
    if iteration is not None:
        return by_iteration.get(iteration, float("nan"))
    later = [value for t, value in sorted(by_iteration.items()) if t >= 1]
    return float(np.mean(later)) if later else float("nan")


def kappa_payload(
    unit: UnitTallies, kappa: str = "pooled", iteration: int | None = None
) -> dict[str, list[float]]:
    """A trajectory's rating tallies by cell, ``"<iteration>"`` or ``"<iteration> <question>"``."""
    per_question = check_kappa_form(kappa) == "per_question"
    return {
        f"{t}" if q is None else f"{t} {q}": list(tally.to_value(0).values())
        for (t, q), tally in unit.ratings.items()
        if (q is not None) == per_question and iteration in (None, t)
    }


def kappa_of_sums(
    summed: Mapping[str, np.ndarray], weights: WeightScheme = None, iteration: int | None = None
) -> float:
    """κ (averaged over iterations 1 and above, or one iteration's) of summed kappa payloads."""
    found: dict[int, list[float]] = {}
    for cell, row in summed.items():
        value = _row_tally(row, weights).kappa()
        if value is not None:
            found.setdefault(int(cell.split()[0]), []).append(value)
    return _average_later({t: float(np.mean(values)) for t, values in found.items()}, iteration)


def kappa_statistic(weights: WeightScheme) -> str:
    """The reference of :func:`kappa_of_sums` with ``weights``: the κ headline's statistic."""
    return f"{__name__}:{weights + '_' if weights else ''}kappa_of_sums"


for _weights in (None, "linear", "quadratic"):
    SUM_STATISTICS[kappa_statistic(_weights)] = partial(kappa_of_sums, weights=_weights)


def authenticity_interval(
    units: Sequence[UnitTallies], kappa: str = "pooled", iteration: int | None = None, seed: int = 0
) -> Interval:
    """Authenticity κ (one iteration's, or the average over 1 and above) over trajectories."""
    statistic = partial(kappa_of_sums, weights=_weights_of(units), iteration=iteration)
    payloads = [kappa_payload(unit, kappa, iteration) for unit in units]
    return payload_interval(payloads, statistic, unit=UNIT, seed=seed)


def rationality_interval(
    units: Sequence[UnitTallies], iteration: int | None = None, seed: int = 0
) -> Interval:
    """The judge's mean Rationality (one iteration's, or over 1 and above) over trajectories."""
    iterations = sorted({t for unit in units for t in unit.judged})
    if iteration is not None:
        iterations = [t for t in iterations if t == iteration]
    if not iterations:
        return bootstrap_interval(lambda _: float("nan"), 0, unit=UNIT)
    table = np.zeros((len(units), len(iterations), 2))
    for row, unit in enumerate(units):
        for column, t in enumerate(iterations):
            tally = unit.judged.get(t, RationalityTally())
            table[row, column] = (tally.scored, tally.total)

    def statistic(indices: np.ndarray) -> float:
        summed = table[indices].sum(axis=0).tolist()
        by_iteration = {
            t: mean
            for t, (scored, total) in zip(iterations, summed, strict=True)
            if (mean := RationalityTally(scored, total).mean()) is not None
        }
        return _average_later(by_iteration, iteration)

    return bootstrap_interval(statistic, len(units), unit=UNIT, seed=seed)


def invalid_share_units(units: Mapping[str, UnitTallies]) -> dict[str, UnitValue]:
    """Per trajectory ``(invalid ratings, rated answers)`` over every iteration."""
    return {
        unit_id: (
            float(sum(t.invalid for (_, q), t in unit.ratings.items() if q is None)),
            float(sum(t.pairs for (_, q), t in unit.ratings.items() if q is None)),
        )
        for unit_id, unit in units.items()
    }


def rationality_units(units: Mapping[str, UnitTallies]) -> dict[str, UnitValue]:
    """Per trajectory ``(sum of judge scores, answers judged)`` over iterations 1 and above."""
    return {
        unit_id: (
            float(sum(t.total for i, t in unit.judged.items() if i >= 1)),
            float(sum(t.scored for i, t in unit.judged.items() if i >= 1)),
        )
        for unit_id, unit in units.items()
    }
