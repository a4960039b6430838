"""Headline numbers as every report and the cross-benchmark profile carry them.

A :class:`Headline` is one number a benchmark reports about one run: its
interval (:mod:`cog_tasks.common.stats`), the run's identity
(:mod:`cog_tasks.common.runs`) and, where the number is a ratio of sums over
independent units, each unit's contribution, so that two runs can be compared
by a paired bootstrap over the units they share. A :class:`PaperRow` is a
number published by a benchmark's authors, labelled with the protocol it was
measured under and with how our default protocol differs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

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
    """The best trivial strategy on a headline's own units.

    Attributes:
        name: The strategy (``"constant A"``).
        value: Its headline value on the model row's units.
        difference: The model minus the strategy, paired over those units
            (``None`` where it could not be paired).
    """

    name: str
    value: float
    difference: Interval | None

    @property
    def beaten(self) -> bool:
        """Whether the model beats it: the paired difference is above 0 over enough units."""
        return (
            self.difference is not None
            and self.difference.low > 0
            and (self.difference.significant(0.0))
        )

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
    """One headline number of one run.

    Attributes:
        benchmark: ``coglm``, ``cogeval``, ``cogbench`` or ``egosocial``.
        measure: The measure's stable name (``calibrated_acc_authors``, ``kappa``...).
        interval: The value with its 95 % interval over ``interval.unit``.
        run: The run's identity.
        units: Per-unit contribution, id → value or ``(numerator,
            denominator)``, such that the headline is the ratio of the sums;
            empty where the measure is not of that form (a cognitive age, a κ).
        note: What a reader must know (fixture data, a format failure...).
        coverage: The run's coverage (missing units, invalid, errored,
            truncated and judge-invalid replies), from the results model.
        scale: How to read the value (:data:`SCALES`).
        trivial: The best trivial strategy on the same units, with the
            model's paired difference (``None``: none declared or none applies).
    """

    benchmark: str
    measure: str
    interval: Interval
    run: RunIdentity
    units: Mapping[str, UnitValue] = field(default_factory=dict)
    note: str = ""
    coverage: Coverage | None = None
    scale: str = "raw"
    trivial: TrivialResult | None = None

    def as_row(self) -> dict[str, object]:
        """The row of ``profile.json``.

        Returns:
            ``{"benchmark", "measure", "value", "ci_low", "ci_high", "n",
            "unit", "method", "note", "coverage", "scale", "trivial", "run",
            "units"}`` (``trivial`` flags, with ``beaten`` false, a model that
            does not beat the best trivial strategy) (``coverage``
            ``None`` where the benchmark does not read through the results model yet).
        """
        return {
            "benchmark": self.benchmark,
            "measure": self.measure,
            **self.interval.as_dict(),
            "note": self.note,
            "coverage": None if self.coverage is None else self.coverage.as_dict(),
            "scale": self.scale,
            "trivial": None if self.trivial is None else self.trivial.as_dict(),
            "run": self.run.as_dict(),
            "units": {
                key: list(value) if isinstance(value, tuple) else value
                for key, value in self.units.items()
            },
        }


@dataclass(frozen=True)
class PaperRow:
    """A number published by a benchmark's authors.

    Attributes:
        benchmark: The benchmark.
        measure: The measure, named as our :class:`Headline` names it.
        model: The model the paper measured.
        value: The published value, on our scale (fractions, not percent).
        source: Where it is published (``"CogLM Table 9"``).
        protocol: How it was measured.
        differs: How our default protocol differs; ``""`` where it does not.
    """

    benchmark: str
    measure: str
    model: str
    value: float
    source: str
    protocol: str
    differs: str = ""

    def as_row(self) -> dict[str, object]:
        """The row as JSON."""
        return {
            "benchmark": self.benchmark,
            "measure": self.measure,
            "model": self.model,
            "value": self.value,
            "source": self.source,
            "protocol": self.protocol,
            "differs": self.differs,
        }
