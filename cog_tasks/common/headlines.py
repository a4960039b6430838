"""Headline numbers as every report and the cross-benchmark profile carry them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field

from cog_tasks.common.results import Coverage
from cog_tasks.common.runs import RunIdentity
from cog_tasks.common.stats import Interval, UnitValue

SCALES = {
    "calibrated": "0 = chance, 1 = every answer right",
    "raw": "a share or mean as measured; read it against the chance column",
    "years": "CogLM's cognitive age in years",
    "kappa": "Cohen's kappa, 0 = chance agreement",
}
"""How a headline's value reads, by the name :attr:`Headline.scale` gives."""


@dataclass(frozen=True)
class TrivialResult:
    """The best trivial strategy on a headline's own units, and the model minus it (paired)."""

    name: str
    value: float
    difference: Interval | None

    @property
    def beaten(self) -> bool:
        """Whether the model beats it: the paired difference is above 0 over enough units."""
        return self.difference is not None and self.difference.low > 0  # NaN: no interval

    def as_dict(self) -> dict[str, object]:
        """JSON fields: ``name``, ``value``, ``difference`` (interval fields) and ``beaten``."""
        return {
            "name": self.name,
            "value": self.value,
            "difference": None if self.difference is None else self.difference.as_dict(),
            "beaten": self.beaten,
        }


@dataclass(frozen=True)
class Headline:
    """One headline number of one run, with its per-unit values if any."""

    benchmark: str
    measure: str
    interval: Interval
    run: RunIdentity
    units: Mapping[str, UnitValue] = field(default_factory=dict)
    note: str = ""
    coverage: Coverage | None = None
    scale: str = "raw"
    trivial: TrivialResult | None = None
    statistic: str = ""  # A ``module:attribute`` statistic of the summed units ("": ratio of sums).

    def as_row(self) -> dict[str, object]:
        """The row of ``profile.json`` (``coverage`` ``None`` without the results model)."""
        return {
            "benchmark": self.benchmark,
            "measure": self.measure,
            **self.interval.as_dict(),
            "note": self.note,
            "coverage": None if self.coverage is None else self.coverage.as_dict(),
            "scale": self.scale,
            "trivial": None if self.trivial is None else self.trivial.as_dict(),
            "run": self.run.as_dict(),
            "statistic": self.statistic,
            "units": {
                key: list(value) if isinstance(value, tuple) else value
                for key, value in self.units.items()
            },
        }


@dataclass(frozen=True)
class PaperRow:
    """A number published by a benchmark's authors (on our scale), and how our protocol differs."""

    benchmark: str
    measure: str
    model: str
    value: float
    source: str
    protocol: str
    differs: str = ""

    def as_row(self) -> dict[str, object]:
        """The row as JSON."""
        return asdict(self)
