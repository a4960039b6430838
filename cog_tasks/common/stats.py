"""The one statistics entry: 95 % intervals over each benchmark's independent unit."""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

CONFIDENCE = 0.95  # Coverage of every interval cog-tasks reports.
RESAMPLES = 2000  # Bootstrap resamples by default.
WILSON_BELOW = 30  # A 0/1 proportion over fewer units than this gets a Wilson interval.
SMALL_N = 10  # Below this many units there is no interval, and no difference is marked significant.
ANY = (-math.inf, math.inf)  # The scale of an unbounded measure.
SHARE = (0.0, 1.0)  # The scale of a share (a proportion, a rate of events per trial).
Statistic = Callable[["np.ndarray"], float]  # A headline of an index array of drawn units.
Payload = Mapping[str, Sequence[float]]  # A unit's additive tallies by name.
SumStatistic = Callable[[dict[str, "np.ndarray"]], float]  # A headline of Payload sums.
SUM_STATISTICS: dict[str, SumStatistic] = {}  # The only ones a stored row may name, by reference


@dataclass(frozen=True)
class Interval:
    """A headline number with its 95 % interval, or none (bounds NaN) and a ``reason``."""

    value: float
    low: float
    high: float
    n: int
    unit: str
    method: str
    reason: str = ""

    def __post_init__(self) -> None:
        reason = self._missing()
        if reason:
            for name, value in (("low", math.nan), ("high", math.nan), ("method", "none")):
                object.__setattr__(self, name, value)
            object.__setattr__(self, "reason", self.reason or reason)
            return
        object.__setattr__(self, "reason", "")
        object.__setattr__(self, "low", min(self.low, self.value))
        object.__setattr__(self, "high", max(self.high, self.value))

    def _missing(self) -> str:
        """Why this interval cannot stand (empty when it can)."""
        units = f"{self.n} {plural(self.unit, self.n)}"
        if math.isnan(self.value):
            return "no units" if self.n == 0 else "undefined"
        if self.n < SMALL_N:
            return units
        if math.isnan(self.low) or math.isnan(self.high) or self.method == "none":
            return units
        if math.isclose(self.low, self.high, rel_tol=1e-9, abs_tol=1e-12):
            return f"{units}, all alike"  # zero width, up to rounding
        return ""

    @property
    def defined(self) -> bool:
        """Whether the interval has bounds."""
        return not math.isnan(self.low)

    def over(self, n: int) -> Interval:
        """The interval counted over ``n`` units; a missing one's reason is said for them."""
        alike = not self.defined and self.reason.endswith(", all alike") and n >= SMALL_N
        return replace(self, n=n, reason=f"{n} {plural(self.unit, n)}, all alike" if alike else "")

    def as_list(self) -> list[float | None]:
        """``[low, high]``, as the reports' JSON carries it (``None`` where there is none)."""
        return [_json_number(self.low), _json_number(self.high)]

    def as_dict(self) -> dict[str, float | int | str | None]:
        """JSON-ready fields: value, ci_low, ci_high, n, unit, method, reason (NaN: ``None``)."""
        return {
            "value": _json_number(self.value),
            "ci_low": _json_number(self.low),
            "ci_high": _json_number(self.high),
            "n": self.n,
            "unit": self.unit,
            "method": self.method,
            "reason": self.reason,
        }

    def excludes(self, point: float = 0.0) -> bool:
        """Whether ``point`` lies outside the interval (never, where there is none)."""
        return self.defined and not self.low <= point <= self.high

    significant = excludes  # A difference may be marked where its interval excludes ``point``.

    def bounds_text(self, digits: int = 3, scale: float = 1.0) -> str:
        """``[0.480, 0.544]``, or the one wording of a missing one: ``[no interval: 5 items]``."""
        if not self.defined:
            return f"[no interval: {self.reason}]"
        return f"[{scale * self.low:.{digits}f}, {scale * self.high:.{digits}f}]"

    def format(self, digits: int = 3) -> str:
        """``"0.512 [0.480, 0.544]"``; ``"0.512 [no interval: 1 unit]"``; ``"n/a"`` on no units."""
        if math.isnan(self.value):
            return "n/a"
        return f"{self.value:.{digits}f} {self.bounds_text(digits)}"

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
            str(fields.get("reason") or ""),
        )


def plural(unit: str, n: int) -> str:
    """``unit`` for one, its plural otherwise (``trajectories``, ``matches``, ``games``)."""
    if n == 1:
        return unit
    if unit.endswith("y") and unit[-2:] != "ay":
        return unit[:-1] + "ies"
    return unit + ("es" if unit.endswith(("ch", "sh", "s", "x")) else "s")


def no_interval(value: float, n: int, unit: str, reason: str = "") -> Interval:
    """A number without an interval, and why (default: its count of units)."""
    return Interval(value, math.nan, math.nan, n, unit, "none", reason)


def on_scale(interval: Interval, scale: tuple[float, float]) -> Interval:
    """The interval cut to its measure's ``(low, high)`` scale; none for a point off the scale."""
    if math.isnan(interval.value) or not interval.defined:
        return interval
    if not scale[0] <= interval.value <= scale[1]:
        return no_interval(interval.value, interval.n, interval.unit, "off the scale")
    low, high = max(scale[0], interval.low), min(scale[1], interval.high)
    return Interval(interval.value, low, high, interval.n, interval.unit, interval.method)


def metric_values(name: str, interval: Interval) -> dict[str, float]:
    """An interval as an Inspect metric's values (``<name>``, ``_n``, ``_ci_*``...), no NaN."""
    if math.isnan(interval.value):
        return {}
    values = {name: interval.value, f"{name}_n": float(interval.n)}
    if interval.defined:
        from statistics import NormalDist

        z = NormalDist().inv_cdf(0.5 + CONFIDENCE / 2)
        values[f"{name}_stderr"] = (interval.high - interval.low) / (2 * z)
        values[f"{name}_ci_low"] = interval.low
        values[f"{name}_ci_high"] = interval.high
    return values


def interval_from_metrics(name: str, values: Mapping[str, float], unit: str = "unit") -> Interval:
    """The interval :func:`metric_values` wrote under ``name`` (NaN value where absent)."""
    return Interval(
        values.get(name, math.nan),
        values.get(f"{name}_ci_low", math.nan),
        values.get(f"{name}_ci_high", math.nan),
        int(values.get(f"{name}_n", 0)),
        unit,
        "logged",
    )


def _options(seed: int, resamples: int, confidence: float) -> dict[str, Any]:
    return {"seed": seed, "resamples": resamples, "confidence": confidence}


def _json_number(value: float) -> float | None:
    return None if math.isnan(value) else value


def bootstrap_interval(
    statistic: Statistic,
    n_units: int,
    *,
    unit: str,
    seed: int = 0,
    resamples: int = RESAMPLES,
    confidence: float = CONFIDENCE,
    scale: tuple[float, float] = ANY,
) -> Interval:
    """Seeded percentile bootstrap of ``statistic`` over ``n_units`` independent units."""
    import numpy as np

    if resamples < 1 or not 0 < confidence < 1:
        raise ValueError("resamples must be positive and confidence within (0, 1)")
    if n_units == 0:
        return no_interval(math.nan, 0, unit)
    everything = np.arange(n_units)
    value = float(statistic(everything))
    if n_units < SMALL_N or math.isnan(value):
        return no_interval(value, n_units, unit)
    import warnings

    from scipy.stats import DegenerateDataWarning, bootstrap

    with warnings.catch_warnings():  # replicates without a value: no interval, said on the row
        warnings.simplefilter("ignore", DegenerateDataWarning)
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
    if math.isnan(low) or math.isnan(high):
        return no_interval(value, n_units, unit, "a resample without a value")
    interval = Interval(value, float(low), float(high), n_units, unit, "bootstrap")
    return on_scale(interval, scale)


def wilson_interval(
    successes: float, n: int, *, unit: str, confidence: float = CONFIDENCE
) -> Interval:
    """Wilson score interval of a proportion (``successes`` may be fractional)."""
    if n == 0:
        return no_interval(math.nan, 0, unit)
    from statsmodels.stats.proportion import proportion_confint

    low, high = proportion_confint(successes, n, alpha=1 - confidence, method="wilson")
    # No successes (or no failures) put a bound exactly at 0 (or 1), free of rounding.
    low = 0.0 if successes == 0 else float(low)
    high = 1.0 if successes == n else float(high)
    return on_scale(Interval(successes / n, low, high, n, unit, "wilson"), SHARE)


def _is_binary(values: np.ndarray) -> bool:
    import numpy as np

    return bool(np.all((values == 0) | (values == 1)))


def _unanimous_wilson(
    tops: np.ndarray, bottoms: np.ndarray, *, unit: str, confidence: float
) -> Interval | None:
    """Wilson's interval when every unit's share ``top / bottom`` is 0, or every one's is 1."""
    import numpy as np

    counted = bottoms > 0
    if not counted.any():
        return None
    all_events = np.array_equal(tops[counted], bottoms[counted])
    if tops.any() and not all_events:
        return None
    units = int(counted.sum())
    return wilson_interval(units if all_events else 0, units, unit=unit, confidence=confidence)


def _pair(value: UnitValue) -> tuple[float, float]:
    return value if isinstance(value, tuple) else (float(value), 1.0)


def _ratio_parts(values: Sequence[UnitValue]) -> tuple[np.ndarray, np.ndarray]:
    import numpy as np

    tops, bottoms = np.array([_pair(value) for value in values], dtype=float).reshape(-1, 2).T
    return tops.copy(), bottoms.copy()


UnitValue = float | tuple[float, float] | Payload  # A value, a ratio's (top, bottom), a Payload


def _payload(value: UnitValue) -> Payload:
    return value if isinstance(value, Mapping) else {"": _pair(value)}


def _ratio_of_sums(summed: dict[str, np.ndarray]) -> float:
    return float(summed[""][0] / summed[""][1])


def _tables(*runs: Sequence[Payload]) -> tuple[list[str], list[np.ndarray]]:
    """The runs' payloads as ``(unit, name, entry)`` tables over every name any of them has."""
    import numpy as np

    names = sorted({name for run in runs for payload in run for name in payload})
    width = max((len(v) for run in runs for payload in run for v in payload.values()), default=0)
    zero = [0.0] * width
    return names, [
        np.array([[p.get(n, zero) for n in names] for p in run], float).reshape(
            len(run), len(names), width
        )
        for run in runs
    ]


def _of_sums(statistic: SumStatistic, names: list[str], table: np.ndarray) -> Statistic:
    return lambda indices: statistic(dict(zip(names, table[indices].sum(axis=0), strict=True)))


def headline_of(values: Sequence[UnitValue], statistic: SumStatistic | None = None) -> float:
    """The headline of per-unit values: their ratio of sums, or ``statistic`` of their sums."""
    import numpy as np

    names, (table,) = _tables([_payload(value) for value in values])
    return _of_sums(statistic or _ratio_of_sums, names, table)(np.arange(len(values)))


def payload_interval(
    payloads: Sequence[Payload], statistic: SumStatistic, *, unit: str, seed: int = 0
) -> Interval:
    """Bootstrap interval of ``statistic`` of summed :data:`Payload` units."""
    names, (table,) = _tables(payloads)
    return bootstrap_interval(_of_sums(statistic, names, table), len(table), unit=unit, seed=seed)


def ratio_interval(
    values: Sequence[UnitValue],
    *,
    unit: str,
    seed: int = 0,
    resamples: int = RESAMPLES,
    confidence: float = CONFIDENCE,
    bounds: tuple[float, float] | None = None,
) -> Interval:
    """Interval of a ratio of sums of ``(numerator, denominator)`` units (0/1: Wilson)."""
    tops, bottoms = _ratio_parts(values)
    counted = bottoms > 0
    shares = tops[counted] / bottoms[counted]
    if len(shares) and _is_binary(shares):
        if len(shares) < WILSON_BELOW and len(set(bottoms[counted].tolist())) == 1:
            successes = float(shares.sum())
            return wilson_interval(successes, len(shares), unit=unit, confidence=confidence)
        unanimous = _unanimous_wilson(tops, bottoms, unit=unit, confidence=confidence)
        if unanimous is not None:
            return unanimous

    def ratio(indices: np.ndarray) -> float:
        bottom = bottoms[indices].sum()
        return float(tops[indices].sum() / bottom) if bottom else math.nan

    scale = bounds or (SHARE if bool(((tops >= 0) & (tops <= bottoms)).all()) else ANY)
    options = _options(seed, resamples, confidence)
    return bootstrap_interval(ratio, len(tops), unit=unit, scale=scale, **options)


def mean_interval(
    values: Sequence[float],
    *,
    unit: str,
    seed: int = 0,
    resamples: int = RESAMPLES,
    confidence: float = CONFIDENCE,
    bounds: tuple[float, float] | None = None,
) -> Interval:
    """Interval of a mean over independent units (a NaN value is an error: score every unit)."""
    if any(math.isnan(float(value)) for value in values):
        raise ValueError("a mean interval over NaN values: score every unit, invalid ones included")
    options = _options(seed, resamples, confidence)
    return ratio_interval([float(value) for value in values], unit=unit, bounds=bounds, **options)


def cluster_mean_interval(
    values: Sequence[float],
    clusters: Sequence[Hashable],
    *,
    unit: str,
    seed: int = 0,
    resamples: int = RESAMPLES,
    confidence: float = CONFIDENCE,
) -> Interval:
    """Interval of a mean over rows that are not independent: whole clusters are resampled."""
    if len(values) != len(clusters):
        raise ValueError(f"{len(values)} values but {len(clusters)} cluster labels")
    sums: dict[Hashable, list[float]] = {}
    for value, cluster in zip(values, clusters, strict=True):
        total = sums.setdefault(cluster, [0.0, 0.0])
        total[0] += float(value)
        total[1] += 1.0
    units: list[UnitValue] = [(top, bottom) for top, bottom in sums.values()]
    options = _options(seed, resamples, confidence)
    if all(float(value) in (0.0, 1.0) for value in values):
        return ratio_interval(units, unit=unit, **options)
    tops, bottoms = _ratio_parts(units)  # not 0/1 rows: no Wilson, whatever the cluster sums

    def ratio(indices: np.ndarray) -> float:
        return float(tops[indices].sum() / bottoms[indices].sum())

    return bootstrap_interval(ratio, len(units), unit=unit, **options)


def _unanimous_paired(
    share_a: np.ndarray, share_b: np.ndarray, unit: str, confidence: float
) -> Interval | None:
    """Wilson's or Newcombe's interval for paired 0/1 units whose differences are all the same."""
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
    n: int, unit: str, confidence: float, bounds: tuple[float, float]
) -> Interval:
    """Two runs that score every shared unit alike (not 0/1 units): ``[-u * h, u * h]``."""
    half_range = (bounds[1] - bounds[0]) / 2
    if not math.isfinite(half_range):
        return no_interval(0.0, n, unit, f"{n} {plural(unit, n)}, scored alike by both runs")
    bound = wilson_interval(0, n, unit=unit, confidence=confidence).high * half_range
    return on_scale(Interval(0.0, -bound, bound, n, unit, "wilson"), bounds)


def paired_difference(
    first: Mapping[Hashable, UnitValue],
    second: Mapping[Hashable, UnitValue],
    *,
    unit: str,
    seed: int = 0,
    resamples: int = RESAMPLES,
    confidence: float = CONFIDENCE,
    bounds: tuple[float, float] = ANY,
    statistic: SumStatistic | None = None,
) -> Interval:
    """Paired bootstrap of ``ratio(first) - ratio(second)`` (or ``statistic`` of their sums)."""
    import numpy as np

    shared = [key for key in first if key in second]
    counted = True  # every shared unit has a denominator in both runs (a payload always has)
    if statistic is None:
        top_a, bottom_a = _ratio_parts([first[key] for key in shared])
        top_b, bottom_b = _ratio_parts([second[key] for key in shared])
        counted = bool(((bottom_a > 0) & (bottom_b > 0)).all())
        if len(shared) >= SMALL_N and counted:
            unanimous = _unanimous_paired(top_a / bottom_a, top_b / bottom_b, unit, confidence)
            if unanimous is not None:
                return unanimous
    names, tables = _tables(*([_payload(run[key]) for key in shared] for run in (first, second)))
    if len(shared) >= SMALL_N and counted and np.array_equal(*tables):
        return _identical_paired(len(shared), unit, confidence, bounds)
    return paired_bootstrap(
        *(_of_sums(statistic or _ratio_of_sums, names, table) for table in tables),
        len(shared),
        unit=unit,
        scale=bounds,
        **_options(seed, resamples, confidence),
    )


def paired_bootstrap(
    first: Statistic,
    second: Statistic,
    n_units: int,
    *,
    unit: str,
    seed: int = 0,
    resamples: int = RESAMPLES,
    confidence: float = CONFIDENCE,
    scale: tuple[float, float] = ANY,
) -> Interval:
    """Interval of ``first - second``, two statistics over the same ``n_units`` shared units."""
    options = _options(seed, resamples, confidence)

    def difference(indices: np.ndarray) -> float:
        return first(indices) - second(indices)

    return bootstrap_interval(difference, n_units, unit=unit, scale=scale, **options)
