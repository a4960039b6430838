"""The results model: the one place where a run becomes numbers, checked the same way."""

from __future__ import annotations

import importlib
import math
import re
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from cog_tasks.common.errors import UserError
from cog_tasks.common.runs import UNRECORDED, RunIdentity, distinct_by_content, text_sha256
from cog_tasks.common.stats import (
    SUM_STATISTICS,
    Interval,
    SumStatistic,
    UnitValue,
    paired_difference,
    plural,
)

STATUSES = ("valid", "invalid", "error", "truncated", "judge_invalid")
"""A record's status (``judge_invalid``: an unreadable judge reply)."""
FLAGGED = STATUSES[1:]  # The statuses every headline row counts beside its number.
WEIGHTS = re.compile(r"@(\w+:[0-9a-f]{8,})")  # A weights hash in a model name: ``@llamacpp:<sha>``
YEARS_SPAN = 38.4  # CogLM's ages differ by at most twice its age map's stage weights.


class ResultsError(UserError):
    """A run that cannot become numbers as given (one line naming the run and the fault)."""


@dataclass(frozen=True)
class UnitRecord:
    """One reply of one run, scored (``key``: its place where a unit holds several replies)."""

    unit: str
    values: Mapping[str, float]
    epoch: int = 1
    status: str = "valid"
    group: str = ""
    key: str = ""


@dataclass(frozen=True)
class RunResults:
    """A run as read from its source (records, declared units and keys), before any check."""

    benchmark: str
    identity: RunIdentity
    unit: str
    records: tuple[UnitRecord, ...]
    declared: Mapping[str, str]
    source: str
    protocol: str = ""
    declared_keys: Mapping[str, Collection[str]] = field(default_factory=dict)
    content: str = ""

    def content_key(self) -> str:
        """:attr:`content`, or a hash of the identity and records where none was given."""
        return self.content or text_sha256(repr(self.identity), *map(repr, self.records))


@dataclass(frozen=True)
class Coverage:
    """What a reader must know beside every number of a run: gaps, flags, data check, weights."""

    units: int
    declared: int
    missing: int
    missing_named: tuple[str, ...] = ()
    missing_groups: tuple[str, ...] = ()
    epochs: int = 1
    uneven: int = 0
    counts: Mapping[str, int] = field(default_factory=dict)
    named: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    keyed: bool = False
    incomplete: int = 0
    missing_keys: int = 0
    records: int = 0
    data: str = UNRECORDED
    weights: str = ""

    @property
    def partial(self) -> bool:
        """Whether declared units, or declared keys of the units present, are missing."""
        return self.missing > 0 or self.incomplete > 0

    def flagged_share(self) -> float | None:
        """The share of replies flagged (invalid, error, truncated, judge-invalid), or ``None``."""
        if not self.records:
            return None
        return sum(self.counts.get(status, 0) for status in FLAGGED) / self.records

    def provenance(self) -> str:
        """``data: <check>``, and ``weights: <hash>`` where the model name records one."""
        return f"data: {self.data}" + (f"; weights: {self.weights}" if self.weights else "")

    def note(self, unit: str = "unit", *, provenance: bool = True) -> str:
        """One line for every row this run touches: gaps, flagged counts and :meth:`provenance`."""
        parts = []
        if self.partial:
            gaps = []
            if self.missing:
                gaps.append(
                    f"{self.missing} of {self.declared} {plural(unit, self.declared)} missing"
                )
            if self.incomplete:
                gaps.append(
                    f"{self.incomplete} {plural(unit, self.incomplete)} incomplete "
                    f"({self.missing_keys} of their declared replies missing)"
                )
            parts.append("PARTIAL: " + ", ".join(gaps))
        if self.missing_groups:
            parts.append("no record for " + ", ".join(self.missing_groups))
        if self.uneven:
            parts.append(
                f"{self.uneven} {plural(unit, self.uneven)} with fewer than {self.epochs} epochs"
            )
        flagged = [f"{count} {status}" for status, count in self.counts.items() if count]
        if flagged:
            parts.append("replies " + ", ".join(flagged))
        return "; ".join(parts + ([self.provenance()] if provenance else []))

    def as_dict(self) -> dict[str, object]:
        """JSON fields: units, declared, missing, missing_groups, epochs, uneven, data, counts."""
        names = ("units", "declared", "missing", "missing_groups", "epochs", "uneven", "records")
        keys = ("incomplete", "missing_keys") if self.keyed else ()
        return {name: getattr(self, name) for name in (*names, "data")} | {
            "missing_groups": list(self.missing_groups),
            "weights": self.weights or None,
            **{status: self.counts.get(status, 0) for status in FLAGGED},
            **{name: getattr(self, name) for name in keys},
        }

    @classmethod
    def from_dict(cls, fields: Mapping[str, Any]) -> Coverage:
        """The coverage of :meth:`as_dict`'s fields (:class:`ResultsError` if malformed)."""
        try:
            return cls(
                **{name: int(fields[name]) for name in ("units", "declared", "missing", "epochs")},
                **{name: int(fields.get(name, 0)) for name in ("incomplete", "missing_keys")},
                uneven=int(fields["uneven"]),
                missing_groups=tuple(map(str, fields["missing_groups"])),
                counts={status: int(fields[status]) for status in FLAGGED},
                keyed="incomplete" in fields,
                records=int(fields.get("records", 0)),
                data=str(fields.get("data", UNRECORDED)),
                weights=str(fields.get("weights") or ""),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise ResultsError(f"malformed coverage {dict(fields)!r} ({error})") from error


@dataclass(frozen=True)
class CheckedRun:
    """A run after :func:`check_run`: per-unit (and per-key) values averaged over epochs."""

    run: RunResults
    values: dict[str, dict[str, float]]
    groups: dict[str, str]
    coverage: Coverage
    keys: dict[str, dict[str, dict[str, float]]] = field(default_factory=dict)

    @property
    def identity(self) -> RunIdentity:
        """The run's identity."""
        return self.run.identity

    def note(self) -> str:
        """The coverage note in the run's unit."""
        return self.coverage.note(self.run.unit)

    def unit_values(self, measure: str) -> dict[str, float]:
        """One measure's per-unit values (epoch means)."""
        return {unit: values[measure] for unit, values in self.values.items()}


def _named(units: Iterable[str], limit: int = 20) -> tuple[str, ...]:
    return tuple(list(dict.fromkeys(units))[:limit])


def _place(unit: str, key: str) -> str:
    """A record's unit, with its key where it has one (``task item.t0``)."""
    return f"{unit} {key}" if key else unit


def _listing(units: Sequence[str], limit: int = 5) -> str:
    shown = ", ".join(units[:limit])
    return shown + (f" and {len(units) - limit} more" if len(units) > limit else "")


def check_run(run: RunResults) -> CheckedRun:
    """Apply every check to one run (:class:`ResultsError`) and average its epochs within units."""
    where = f"{run.source} ({run.identity.task}, {run.identity.model})"
    unknown = sorted({record.status for record in run.records} - set(STATUSES))
    if unknown:
        raise ResultsError(f"{where}: unknown status(es) {unknown}; known: {', '.join(STATUSES)}")
    if not run.records:
        raise ResultsError(f"{where}: no scored {run.unit}s")
    repeated = [
        f"{_place(unit, key)} (epoch {epoch})"
        for (unit, key, epoch), count in Counter(
            (record.unit, record.key, record.epoch) for record in run.records
        ).items()
        if count > 1
    ]
    if repeated:
        raise ResultsError(
            f"{where}: {len(repeated)} {run.unit}(s) recorded twice in one epoch: "
            f"{_listing(repeated)} (a file given twice, or duplicated lines?)"
        )
    outside = list(
        dict.fromkeys(
            _place(r.unit, r.key)
            for r in run.records
            if r.unit not in run.declared
            or (r.unit in run.declared_keys and r.key not in run.declared_keys[r.unit])
        )
    )
    if outside:
        raise ResultsError(
            f"{where}: {len(outside)} {run.unit}(s) not in the run's declared set: "
            f"{_listing(outside)}"
        )
    # An errored record is out of every number and counted beside it, as Inspect's
    # metrics never see errored samples: the log's metrics are the report's numbers.
    by_key: dict[str, dict[str, list[UnitRecord]]] = {}
    for record in run.records:
        if record.status != "error":
            by_key.setdefault(record.unit, {}).setdefault(record.key, []).append(record)
    if not by_key:
        raise ResultsError(f"{where}: every {run.unit} errored; nothing to score")
    order = [unit for unit in run.declared if unit in by_key]
    keys = {
        unit: {
            key: {
                measure: sum(record.values[measure] for record in records) / len(records)
                for measure in records[0].values
            }
            for key, records in by_key[unit].items()
        }
        for unit in order
    }
    values = {
        unit: {
            measure: sum(means[measure] for means in keys[unit].values()) / len(keys[unit])
            for measure in next(iter(keys[unit].values()))
        }
        for unit in order
    }
    recorded = {record.unit for record in run.records}
    missing = [unit for unit in run.declared if unit not in recorded]
    present_groups = {run.declared[unit] for unit in order}
    missing_groups = [
        group for group in dict.fromkeys(run.declared.values()) if group not in present_groups
    ]
    epochs = max(len(records) for unit in order for records in by_key[unit].values())
    gaps = {
        unit: len(set(run.declared_keys[unit]) - set(by_key[unit]))
        for unit in order
        if unit in run.declared_keys
    }
    coverage = Coverage(
        units=len(order),
        declared=len(run.declared),
        missing=len(missing),
        missing_named=_named(missing),
        missing_groups=tuple(missing_groups) if len(present_groups) else (),
        epochs=epochs,
        uneven=sum(
            1 for unit in order if any(len(records) < epochs for records in by_key[unit].values())
        ),
        counts={
            status: sum(1 for record in run.records if record.status == status)
            for status in FLAGGED
        },
        named={
            status: _named(r.unit for r in run.records if r.status == status) for status in FLAGGED
        },
        keyed=bool(run.declared_keys),
        incomplete=sum(1 for gap in gaps.values() if gap),
        missing_keys=sum(gaps.values()),
        records=len(run.records),
        data=run.identity.data,
        weights=match.group(1) if (match := WEIGHTS.search(run.identity.model)) else "",
    )
    return CheckedRun(run, values, {unit: run.declared[unit] for unit in order}, coverage, keys)


def distinct_runs(runs: Sequence[RunResults]) -> list[RunResults]:
    """The runs with each content counted once; one warning line names both sources."""
    return distinct_by_content(runs, RunResults.content_key, lambda run: run.source)


def pool_runs(runs: Sequence[RunResults], identity: RunIdentity) -> RunResults:
    """Runs of one identity but their seeds as one run (``--pool-seeds``), epochs appended."""
    records: list[UnitRecord] = []
    for run in runs:
        offset = max((record.epoch for record in records), default=0)
        records += [replace(record, epoch=record.epoch + offset) for record in run.records]
    sources = " + ".join(run.source for run in runs)
    return replace(runs[0], identity=identity, records=tuple(records), source=sources)


def identity_differences(
    first: RunIdentity, second: RunIdentity, *, ignore: Iterable[str] = ()
) -> list[str]:
    """The identity fields in which two runs differ (``ignore`` left out), as ``name: a vs b``."""
    skipped = set(ignore)
    one, other = first.fields(), second.fields()
    names = [name for name in dict.fromkeys([*one, *other]) if name not in skipped]
    return [
        f"{name}: {one.get(name, '-')} vs {other.get(name, '-')}"
        for name in names
        if one.get(name) != other.get(name)
    ]


@dataclass(frozen=True)
class Pairing:
    """One measure of two runs compared: the difference (or ``None``) and why, or ``""``."""

    difference: Interval | None
    reason: str = ""


def compare_units(
    first: Mapping[str, UnitValue],
    second: Mapping[str, UnitValue],
    *,
    unit: str,
    differences: Sequence[str] = (),
    allow_different: bool = False,
    seed: int = 0,
    scale: str = "raw",
    statistic: str = "",
) -> Pairing:
    """The statistics entry for two runs: a paired difference over shared units, or why not."""
    if differences and not allow_different:
        return Pairing(None, "runs differ in " + "; ".join(differences))
    if not first or not second:
        return Pairing(None, "no per-unit values")
    shared = [key for key in first if key in second]
    if not shared:
        return Pairing(None, f"no shared {unit}s")
    notes = ["PAIRED DESPITE " + "; ".join(differences)] if differences else []
    if unshared := len(set(first) ^ set(second)):
        notes.append(f"{unshared} {plural(unit, unshared)} in one run only")
    bounds = difference_bounds(scale, first, second)
    summed = sum_statistic(statistic) if statistic else None
    difference = paired_difference(
        first, second, unit=unit, seed=seed, bounds=bounds, statistic=summed
    )
    return Pairing(difference, "; ".join(notes))


def sum_statistic(reference: str) -> SumStatistic:
    """The registered headline statistic ``reference`` names (its module imported); no other."""
    if reference.startswith("cog_tasks."):
        importlib.import_module(reference.partition(":")[0])  # where it registers itself
    if reference not in SUM_STATISTICS:
        raise ResultsError(f"statistic {reference!r} is not a registered headline statistic")
    return SUM_STATISTICS[reference]


def difference_bounds(
    scale: str, first: Mapping[str, UnitValue], second: Mapping[str, UnitValue]
) -> tuple[float, float]:
    """The range of the difference of two headlines on ``scale`` (shares: 1; kappas: 2)."""
    if scale in ("calibrated", "kappa"):
        return (-2.0, 2.0)
    if scale == "years":
        return (-YEARS_SPAN, YEARS_SPAN)

    def share(value: UnitValue) -> bool:
        top, bottom = value if isinstance(value, tuple) else (value, 1.0)
        return 0.0 <= top <= bottom

    values = [*first.values(), *second.values()]
    if scale == "raw" and values and all(share(value) for value in values):
        return (-1.0, 1.0)
    return (-math.inf, math.inf)
