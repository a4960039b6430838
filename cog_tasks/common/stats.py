"""The one statistics module: 95 % intervals over each benchmark's independent unit.

Every headline number of cog-tasks carries an :class:`Interval`. Intervals are
seeded percentile bootstraps computed with :func:`scipy.stats.bootstrap`,
resampling the benchmark's *independent unit* with replacement:

================================  =====================================
benchmark                         unit resampled
================================  =====================================
CogLM                             items (question, with its option count)
EgoSocialArena, static tasks      items
CogEval                           tasks (a task's dialogs move together:
                                  its temperatures and repeats form a
                                  cluster, :func:`cluster_mean_interval`)
CogBench                          trajectories (one profile's 10 rounds)
Number Guessing, Hold'em          games or matches
================================  =====================================

A plain proportion (0/1 outcomes) over fewer than :data:`WILSON_BELOW` units
gets a Wilson score interval instead: a bootstrap of a handful of 0/1 values
collapses to a point or to a few values. :func:`paired_difference` gives the
interval of a difference between two runs over the units they share.

The statistic of a bootstrap receives an integer index array (units drawn with
replacement) and returns one number, so any headline, pooled ratios and
formulas such as CogLM's cognitive age included, is bootstrapped through its
own formula.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

CONFIDENCE = 0.95
"""Coverage of every interval cog-tasks reports."""

RESAMPLES = 2000
"""Bootstrap resamples by default."""

WILSON_BELOW = 30
"""A proportion over fewer units than this gets a Wilson interval."""

SMALL_N = 10
"""Below this many units no percentile bootstrap is run and no difference is marked significant.

A mean or a ratio of sums then gets a t interval (the ratio linearised by the
delta method, method ``"t"``), a 0/1 proportion Wilson's, and any other
statistic (a cognitive age) no interval at all.
"""

Statistic = Callable[[np.ndarray], float]
"""A headline computed from an index array of units (drawn with replacement)."""


@dataclass(frozen=True)
class Interval:
    """A headline number with its 95 % interval.

    Attributes:
        value: The number itself, on all units.
        low: Lower bound of the interval.
        high: Upper bound of the interval.
        n: Number of independent units behind it.
        unit: What a unit is (``"item"``, ``"task"``, ``"trajectory"``, ``"game"``).
        method: ``"bootstrap"``, ``"wilson"``, ``"newcombe"`` (a paired difference of
            0/1 units), ``"t"`` (a mean or ratio over fewer than :data:`SMALL_N`
            units) or ``"none"`` (no interval: no units, one unit, or a
            statistic other than a mean over fewer than :data:`SMALL_N`).
    """

    value: float
    low: float
    high: float
    n: int
    unit: str
    method: str

    def as_list(self) -> list[float | None]:
        """``[low, high]``, as the reports' JSON carries it (``None`` where undefined)."""
        return [_json_number(self.low), _json_number(self.high)]

    def as_dict(self) -> dict[str, float | int | str | None]:
        """JSON-ready fields: ``value``, ``ci_low``, ``ci_high``, ``n``, ``unit``, ``method``.

        An undefined number (NaN) is ``None``, so the JSON stays valid.
        """
        return {
            "value": _json_number(self.value),
            "ci_low": _json_number(self.low),
            "ci_high": _json_number(self.high),
            "n": self.n,
            "unit": self.unit,
            "method": self.method,
        }

    def excludes(self, point: float = 0.0) -> bool:
        """Whether ``point`` lies outside the interval (never, where there is none)."""
        if math.isnan(self.low) or math.isnan(self.high):
            return False
        return not self.low <= point <= self.high

    def significant(self, point: float = 0.0) -> bool:
        """Whether a difference may be marked: the interval excludes ``point`` over enough units.

        Below :data:`SMALL_N` units nothing is marked, whatever the interval.
        """
        return self.n >= SMALL_N and self.excludes(point)

    def format(self, digits: int = 3) -> str:
        """``"0.512 [0.480, 0.544]"``; ``"0.512 [no interval: 1 unit]"``; ``"n/a"`` on no units."""
        if math.isnan(self.value):
            return "n/a"
        if math.isnan(self.low) or math.isnan(self.high):
            return f"{self.value:.{digits}f} [no interval: {self.n} {plural(self.unit, self.n)}]"
        return f"{self.value:.{digits}f} [{self.low:.{digits}f}, {self.high:.{digits}f}]"

    @classmethod
    def from_dict(cls, fields: Mapping[str, object]) -> Interval:
        """The interval of :meth:`as_dict`'s fields (``None`` read back as NaN)."""

        def number(name: str) -> float:
            value = fields.get(name)
            return float("nan") if value is None else float(value)  # type: ignore[arg-type]

        return cls(
            number("value"),
            number("ci_low"),
            number("ci_high"),
            int(fields.get("n") or 0),  # type: ignore[call-overload]
            str(fields.get("unit", "")),
            str(fields.get("method", "none")),
        )


def plural(unit: str, n: int) -> str:
    """``unit`` for one, its plural otherwise (``trajectories``, ``matches``, ``games``)."""
    if n == 1:
        return unit
    if unit.endswith("y") and unit[-2:] != "ay":
        return unit[:-1] + "ies"
    return unit + ("es" if unit.endswith(("s", "x", "ch", "sh")) else "s")


def _json_number(value: float) -> float | None:
    return None if math.isnan(value) else value


def _undefined(unit: str) -> Interval:
    nan = float("nan")
    return Interval(nan, nan, nan, 0, unit, "none")


def bootstrap_interval(
    statistic: Statistic,
    n_units: int,
    *,
    unit: str,
    seed: int = 0,
    resamples: int = RESAMPLES,
    confidence: float = CONFIDENCE,
) -> Interval:
    """Seeded percentile bootstrap of ``statistic`` over ``n_units`` independent units.

    Args:
        statistic: Maps an index array of units (with repeats) to the headline.
        n_units: How many units there are.
        unit: What a unit is, for the report.
        seed: Seed of the resampling: the same seed gives the same interval.
        resamples: Number of bootstrap resamples.
        confidence: Coverage of the interval.

    Returns:
        The statistic on every unit, with its interval. Fewer than
        :data:`SMALL_N` units get no percentile interval: bounds NaN (method
        ``"none"``; means and ratios get a t interval before they come here);
        on no units, every field is NaN.

    Raises:
        ValueError: If ``resamples`` is not positive or ``confidence`` is not in (0, 1).
    """
    if resamples < 1 or not 0 < confidence < 1:
        raise ValueError("resamples must be positive and confidence within (0, 1)")
    if n_units == 0:
        return _undefined(unit)
    everything = np.arange(n_units)
    value = float(statistic(everything))
    if n_units < SMALL_N:
        nan = float("nan")
        return Interval(value, nan, nan, n_units, unit, "none")
    from scipy.stats import bootstrap

    result = bootstrap(
        (everything,),
        lambda indices: statistic(np.asarray(indices, dtype=int)),
        vectorized=False,
        n_resamples=resamples,
        confidence_level=confidence,
        method="percentile",
        rng=np.random.default_rng(seed),
    )
    low, high = result.confidence_interval
    return Interval(value, float(low), float(high), n_units, unit, "bootstrap")


def wilson_interval(
    successes: float, n: int, *, unit: str, confidence: float = CONFIDENCE
) -> Interval:
    """Wilson score interval of a proportion.

    Args:
        successes: Number of successes (may be fractional, e.g. a mean over epochs times n).
        n: Number of units.
        unit: What a unit is.
        confidence: Coverage of the interval.

    Returns:
        The proportion with its Wilson interval (NaN fields when ``n`` is 0).
    """
    if n == 0:
        return _undefined(unit)
    from scipy.stats import norm

    z = float(norm.ppf(0.5 + confidence / 2))
    share = successes / n
    denominator = 1 + z * z / n
    centre = (share + z * z / (2 * n)) / denominator
    spread = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / denominator
    # No successes (or no failures) put a bound exactly at 0 (or 1), free of rounding.
    low = 0.0 if successes == 0 else max(0.0, centre - spread)
    high = 1.0 if successes == n else min(1.0, centre + spread)
    return Interval(share, low, high, n, unit, "wilson")


def _is_binary(values: np.ndarray) -> bool:
    return bool(np.all((values == 0) | (values == 1)))


def _unanimous_wilson(
    tops: np.ndarray, bottoms: np.ndarray, *, unit: str, confidence: float
) -> Interval | None:
    """Wilson's interval when every unit's share ``top / bottom`` is 0, or every one's is 1.

    Every bootstrap resample of such units gives the same share, so the
    bootstrap would claim a zero-width interval; Wilson's, over the units
    with a non-zero ``bottom``, does not.

    Args:
        tops: Each unit's events (0/1 values, or counts of events).
        bottoms: Each unit's trials (1 for a 0/1 value).
        unit: What a unit is.
        confidence: Coverage of the interval.

    Returns:
        The interval, or None when the units are not unanimous (or none has trials).
    """
    counted = bottoms > 0
    if not counted.any():
        return None
    all_events = np.array_equal(tops[counted], bottoms[counted])
    if tops.any() and not all_events:
        return None
    units = int(counted.sum())
    return wilson_interval(units if all_events else 0, units, unit=unit, confidence=confidence)


def _all_alike(tops: np.ndarray, bottoms: np.ndarray, unit: str) -> Interval | None:
    """No interval for units whose values (``top / bottom``) are all the same.

    Every resample of such units gives the same value, and a t interval has
    no spread to work with, so either would claim a zero-width certainty
    that the units cannot give (10 games each won 6 rounds of 10 say nothing
    of how another game would go). 0/1 shares alike everywhere get Wilson's
    interval before this is asked (:func:`_unanimous_wilson`).

    Returns:
        A ``none`` interval around the common value, or None when the units differ
        (or have no trials).
    """
    counted = bottoms > 0
    if counted.sum() < 2:
        return None
    shares = tops[counted] / bottoms[counted]
    if not np.all(shares == shares[0]):
        return None
    value = float(tops.sum() / bottoms.sum())
    nan = float("nan")
    return Interval(value, nan, nan, int(counted.sum()), unit, "none")


def _linearized_t(
    tops: np.ndarray,
    bottoms: np.ndarray,
    *,
    unit: str,
    confidence: float,
    minus: tuple[np.ndarray, np.ndarray] | None = None,
    bounds: tuple[float, float] = (-math.inf, math.inf),
) -> Interval:
    """A t interval of a ratio of sums over few units (a mean where every bottom is 1).

    The ratio ``R = sum(top) / sum(bottom)`` is linearised (delta method):
    unit ``i`` contributes ``(top_i - R * bottom_i) / mean(bottom)``, whose
    standard error over the ``n`` units gives ``R ± t(n-1) * se``. With
    ``minus``, the interval is that of the paired difference of two such
    ratios over the same units.

    Args:
        tops: Each unit's numerator.
        bottoms: Each unit's denominator.
        unit: What a unit is.
        confidence: Coverage of the interval.
        minus: The second run's ``(tops, bottoms)`` on the same units.
        bounds: The measure's range; the interval is cut to it (a share of
            0/1 values lies in [0, 1], whatever ``t`` over 2 units says).

    Returns:
        The ratio (or difference) with its t interval; no bounds below 2 units.
    """
    from scipy.stats import t as student

    def parts(top: np.ndarray, bottom: np.ndarray) -> tuple[float, np.ndarray]:
        ratio = float(top.sum() / bottom.sum())
        return ratio, (top - ratio * bottom) / bottom.mean()

    value, residuals = parts(tops, bottoms)
    if minus is not None:
        other, other_residuals = parts(*minus)
        value, residuals = value - other, residuals - other_residuals
    n = len(tops)
    if n < 2:
        nan = float("nan")
        return Interval(value, nan, nan, n, unit, "none")
    deviation = float(residuals.std(ddof=1))
    spread = float(student.ppf(0.5 + confidence / 2, n - 1)) * deviation / math.sqrt(n)
    low, high = max(bounds[0], value - spread), min(bounds[1], value + spread)
    return Interval(value, low, high, n, unit, "t")


def mean_interval(
    values: Sequence[float],
    *,
    unit: str,
    seed: int = 0,
    resamples: int = RESAMPLES,
    confidence: float = CONFIDENCE,
    bounds: tuple[float, float] = (-math.inf, math.inf),
) -> Interval:
    """Interval of a mean over independent units.

    0/1 values over fewer than :data:`WILSON_BELOW` units get a Wilson interval,
    and so do 0/1 values that are all equal, at any count: every bootstrap
    resample of them is the same, and a zero-width interval would claim
    certainty that 35 unanimous statements do not give. Everything else gets
    a seeded bootstrap.

    Args:
        values: One value per unit (NaN is not allowed: an invalid reply is a
            scored unit, never a missing one).
        unit: What a unit is.
        seed: Seed of the resampling.
        resamples: Number of bootstrap resamples.
        confidence: Coverage of the interval.
        bounds: The measure's range, to which a t interval over few units is
            cut (a share averaged over epochs lies in [0, 1]).

    Returns:
        The mean with its interval.

    Raises:
        ValueError: If a value is NaN.
    """
    array = np.asarray(values, dtype=float)
    if np.isnan(array).any():
        raise ValueError("a mean interval over NaN values: score every unit, invalid ones included")
    if len(array) and _is_binary(array):
        if len(array) < WILSON_BELOW:
            return wilson_interval(float(array.sum()), len(array), unit=unit, confidence=confidence)
        unanimous = _unanimous_wilson(array, np.ones(len(array)), unit=unit, confidence=confidence)
        if unanimous is not None:
            return unanimous
    alike = _all_alike(array, np.ones(len(array)), unit)
    if alike is not None:
        return alike
    if 0 < len(array) < SMALL_N:
        return _linearized_t(
            array, np.ones(len(array)), unit=unit, confidence=confidence, bounds=bounds
        )
    return bootstrap_interval(
        lambda indices: float(array[indices].mean()),
        len(array),
        unit=unit,
        seed=seed,
        resamples=resamples,
        confidence=confidence,
    )


def cluster_mean_interval(
    values: Sequence[float],
    clusters: Sequence[Hashable],
    *,
    unit: str,
    seed: int = 0,
    resamples: int = RESAMPLES,
    confidence: float = CONFIDENCE,
) -> Interval:
    """Interval of a mean over rows that are not independent: whole clusters are resampled.

    CogEval's rows are dialogs, and the dialogs of one task (its temperatures
    and repeats) share the task: the cluster is the task, and the mean is taken
    over every row of the clusters drawn. When every row is the same 0 or 1,
    each resample is too; the interval is then Wilson's over the clusters
    (the smallest count of independent units the rows can stand for), not a
    zero-width one.

    Args:
        values: One value per row.
        clusters: The cluster of each row.
        unit: What a cluster is (e.g. ``"task"``).
        seed: Seed of the resampling.
        resamples: Number of bootstrap resamples.
        confidence: Coverage of the interval.

    Returns:
        The mean over all rows with its interval; ``n`` counts clusters.

    Raises:
        ValueError: If ``values`` and ``clusters`` differ in length.
    """
    if len(values) != len(clusters):
        raise ValueError(f"{len(values)} values but {len(clusters)} cluster labels")
    names = list(dict.fromkeys(clusters))
    index = {name: position for position, name in enumerate(names)}
    sums = np.zeros(len(names))
    counts = np.zeros(len(names))
    for value, cluster in zip(values, clusters, strict=True):
        sums[index[cluster]] += value
        counts[index[cluster]] += 1
    if len(names) and _is_binary(np.asarray(values, dtype=float)):
        unanimous = _unanimous_wilson(sums, counts, unit=unit, confidence=confidence)
        if unanimous is not None:
            return unanimous
    if 0 < len(names) < SMALL_N:
        binary = _is_binary(np.asarray(values, dtype=float))
        limits = (0.0, 1.0) if binary else (-math.inf, math.inf)
        return _linearized_t(sums, counts, unit=unit, confidence=confidence, bounds=limits)
    return bootstrap_interval(
        lambda indices: float(sums[indices].sum() / counts[indices].sum()),
        len(names),
        unit=unit,
        seed=seed,
        resamples=resamples,
        confidence=confidence,
    )


UnitValue = float | tuple[float, float]
"""A unit's contribution: a value, or ``(numerator, denominator)`` of a ratio of sums."""


def _ratio_parts(values: Sequence[UnitValue]) -> tuple[np.ndarray, np.ndarray]:
    pairs = [value if isinstance(value, tuple) else (float(value), 1.0) for value in values]
    return (
        np.array([top for top, _ in pairs], dtype=float),
        np.array([bottom for _, bottom in pairs], dtype=float),
    )


def ratio_interval(
    values: Sequence[UnitValue],
    *,
    unit: str,
    seed: int = 0,
    resamples: int = RESAMPLES,
    confidence: float = CONFIDENCE,
    bounds: tuple[float, float] = (-math.inf, math.inf),
) -> Interval:
    """Interval of a ratio of sums over units, ``(numerator, denominator)`` per unit.

    A rate is never an average of per-unit ratios; a resample whose
    denominators sum to 0 gives NaN. A share of events that is 0 (or 1) in
    every unit gets Wilson's interval over the units with events, as in
    :func:`cluster_mean_interval`, not the zero-width interval every resample
    would give.

    Args:
        values: One value (denominator 1) or ``(numerator, denominator)`` per unit.
        unit: What a unit is.
        seed: Seed of the resampling.
        resamples: Number of bootstrap resamples.
        confidence: Coverage of the interval.
        bounds: The ratio's range, to which a t interval over few units is cut.

    Returns:
        The ratio of the sums with its interval.
    """
    tops, bottoms = _ratio_parts(values)
    unanimous = _unanimous_wilson(tops, bottoms, unit=unit, confidence=confidence)
    if unanimous is not None:
        return unanimous
    alike = _all_alike(tops, bottoms, unit)
    if alike is not None:
        return alike
    if 0 < len(tops) < SMALL_N and bottoms.sum():
        return _linearized_t(tops, bottoms, unit=unit, confidence=confidence, bounds=bounds)

    def ratio(indices: np.ndarray) -> float:
        bottom = bottoms[indices].sum()
        return float(tops[indices].sum() / bottom) if bottom else float("nan")

    return bootstrap_interval(
        ratio, len(tops), unit=unit, seed=seed, resamples=resamples, confidence=confidence
    )


def _unanimous_paired(
    top_a: np.ndarray,
    bottom_a: np.ndarray,
    top_b: np.ndarray,
    bottom_b: np.ndarray,
    unit: str,
    confidence: float,
) -> Interval | None:
    """Wilson's or Newcombe's interval for paired 0/1 units whose differences are all the same.

    When every shared unit is all-or-nothing in both runs (a share of 0 or 1)
    and every unit differs by the same amount, every bootstrap resample gives
    the same difference and the bootstrap would claim a zero-width interval.
    The difference is ``(b - c) / n``, ``b`` and ``c`` the two kinds of
    discordant pair:

    - no discordant pair (every unit scored alike by both runs): the
      difference lies within the share of discordant pairs, whose Wilson
      upper bound ``u`` (0 of ``n`` seen) gives ``[-u, u]``; two runs failing
      the same 9 tasks differ by 0.000 [-0.299, 0.299]. (Newcombe's method 10
      collapses to zero width here when both runs have 0s and 1s.)
    - every pair discordant one way (one run all 1, the other all 0):
      Newcombe's hybrid score interval for paired proportions (method 10,
      from the two Wilson intervals; their correlation is 0).

    Returns:
        The interval, or None when the units are not such a case.
    """
    if not len(top_a) or not ((bottom_a > 0) & (bottom_b > 0)).all():
        return None
    share_a, share_b = top_a / bottom_a, top_b / bottom_b
    if not (_is_binary(share_a) and _is_binary(share_b)):
        return None
    differences = set((share_a - share_b).tolist())
    if len(differences) > 1:
        return None
    n = len(share_a)
    if differences == {0.0}:
        bound = wilson_interval(0, n, unit=unit, confidence=confidence).high
        return Interval(0.0, -bound, bound, n, unit, "wilson")
    first = wilson_interval(float(share_a.sum()), n, unit=unit, confidence=confidence)
    second = wilson_interval(float(share_b.sum()), n, unit=unit, confidence=confidence)
    lower = math.hypot(first.value - first.low, second.high - second.value)
    upper = math.hypot(first.high - first.value, second.value - second.low)
    value = first.value - second.value
    return Interval(value, max(-1.0, value - lower), min(1.0, value + upper), n, unit, "newcombe")


def _identical_paired(
    top_a: np.ndarray,
    bottom_a: np.ndarray,
    top_b: np.ndarray,
    bottom_b: np.ndarray,
    unit: str,
    confidence: float,
    bounds: tuple[float, float],
) -> Interval | None:
    """The interval of two runs that score every shared unit exactly alike (not 0/1 units).

    Every bootstrap resample of such runs differs by exactly 0, a certainty
    that ``n`` units never give. As for 0/1 units (:func:`_unanimous_paired`),
    the share of units on which the runs could differ is at most Wilson's upper
    bound ``u`` for 0 discordant units of ``n``; a discordant unit moves the
    difference by at most half the difference's range (``bounds``), so the
    difference lies in ``[-u * h, u * h]``, ``h`` that half-range (2 for
    calibrated accuracies: conservative). Unbounded measures (a mean rating)
    get no interval rather than a width that would be made up. Fewer than
    :data:`SMALL_N` units are left to the small-sample rule of
    :func:`paired_difference` (no interval).

    Returns:
        The interval, or None when the runs differ on some unit, or share
        fewer than :data:`SMALL_N`.
    """
    if len(top_a) < SMALL_N or not (
        np.array_equal(top_a, top_b) and np.array_equal(bottom_a, bottom_b)
    ):
        return None
    if not bottom_a.sum():
        return None
    n = len(top_a)
    half_range = (bounds[1] - bounds[0]) / 2
    if not math.isfinite(half_range):
        nan = float("nan")
        return Interval(0.0, nan, nan, n, unit, "none")
    bound = wilson_interval(0, n, unit=unit, confidence=confidence).high * half_range
    return Interval(0.0, max(bounds[0], -bound), min(bounds[1], bound), n, unit, "wilson")


def paired_difference(
    first: Mapping[Hashable, UnitValue],
    second: Mapping[Hashable, UnitValue],
    *,
    unit: str,
    seed: int = 0,
    resamples: int = RESAMPLES,
    confidence: float = CONFIDENCE,
    bounds: tuple[float, float] = (-math.inf, math.inf),
) -> Interval:
    """Interval of ``headline(first) - headline(second)`` over the units both have.

    A headline is a ratio of sums over units: a unit's value is either a
    number (the headline is then the mean) or ``(numerator, denominator)``
    (CogLM's pooled calibrated accuracy is
    ``sum(correct - 1/n) / sum(1 - 1/n)``; a CogEval task is ``(successes,
    dialogs)``). The same units are drawn for both runs in each resample (a
    paired bootstrap), so what the two runs share does not count as noise.

    Args:
        first: Value per unit id of the first run.
        second: Value per unit id of the second run.
        unit: What a unit is.
        seed: Seed of the resampling.
        resamples: Number of bootstrap resamples.
        confidence: Coverage of the interval.
        bounds: The difference's range, to which a t interval over few units
            is cut (two shares differ by at most 1).

    Returns:
        The difference with its interval; ``n`` counts shared units (NaN on none).
    """
    shared = [key for key in first if key in second]
    top_a, bottom_a = _ratio_parts([first[key] for key in shared])
    top_b, bottom_b = _ratio_parts([second[key] for key in shared])
    unanimous = _unanimous_paired(top_a, bottom_a, top_b, bottom_b, unit, confidence)
    if unanimous is not None:
        return unanimous
    identical = _identical_paired(top_a, bottom_a, top_b, bottom_b, unit, confidence, bounds)
    if identical is not None:
        return identical
    if 0 < len(shared) < SMALL_N and bottom_a.sum() and bottom_b.sum():
        interval = _linearized_t(
            top_a,
            bottom_a,
            unit=unit,
            confidence=confidence,
            minus=(top_b, bottom_b),
            bounds=bounds,
        )
        if interval.low == interval.high:
            # Two runs alike (or differing by the same amount) on every one of a
            # few units: zero width would claim a certainty few units never give.
            nan = float("nan")
            return Interval(interval.value, nan, nan, interval.n, unit, "none")
        return interval

    def difference(indices: np.ndarray) -> float:
        return float(
            top_a[indices].sum() / bottom_a[indices].sum()
            - top_b[indices].sum() / bottom_b[indices].sum()
        )

    return bootstrap_interval(
        difference, len(shared), unit=unit, seed=seed, resamples=resamples, confidence=confidence
    )
