"""The results model: the one place where a run becomes numbers.

Every reader (Inspect logs, lm-eval ``--log_samples`` folders, the files the
``score`` commands accept) turns a run into a :class:`RunResults`: per-unit
:class:`UnitRecord` rows (unit id, epoch, measure values, status) under the
run's :class:`~cog_tasks.common.runs.RunIdentity`, together with the run's
*declared* unit set, the units it was meant to cover. :func:`check_run` then
applies the same checks for every benchmark and every command:

- a unit recorded twice in one epoch is refused, naming it;
- a unit outside the declared set is refused, naming it;
- units (and groups, e.g. CogLM's abilities) of the declared set that have no
  record are named, and the run is *partial*, whatever the command line said;
- where a unit holds several replies per epoch (CogEval's task: its items at
  each temperature), each reply has a *key*: a key recorded twice in one
  epoch, or outside the unit's declared keys, is refused, and a unit missing
  some of its declared keys is *incomplete* (the run is partial);
- replies that are invalid (unparseable, hedged), errored, truncated at the
  token limit or judged unreadably are counted per status and named;
- epochs are averaged within a unit (within each key, then over the unit's
  keys): a unit is never an epoch.

The result, a :class:`CheckedRun`, carries the per-unit values the
benchmark's headlines are computed from and a :class:`Coverage` that travels
with every headline (text, JSON, ``profile.json``, ``profile.md``).

:func:`distinct_runs` counts one run given twice (by content) once; :func:`compare_units` is
the statistics entry for two runs: a paired difference only between runs
whose identities differ in the compared factor alone.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from cog_tasks.common.errors import UserError
from cog_tasks.common.runs import RunIdentity, distinct_by_content, text_sha256
from cog_tasks.common.stats import Interval, UnitValue, paired_difference, plural

STATUSES = ("valid", "invalid", "error", "truncated", "judge_invalid")
"""A record's status: scored as read, unparseable or hedged, errored, cut at the
token limit, or with a judge reply that could not be read."""

FLAGGED = STATUSES[1:]
"""The statuses every headline row counts beside its number."""


class ResultsError(UserError):
    """A run that cannot become numbers as given (one line naming the run and the fault)."""


@dataclass(frozen=True)
class UnitRecord:
    """One reply of one run, scored.

    Attributes:
        unit: The benchmark's independent unit (item, task, trajectory, game) id.
        values: The measure values of this reply (an invalid reply is scored,
            e.g. as wrong, never left out).
        epoch: Which repeat of the unit this is (1-based).
        status: One of :data:`STATUSES`.
        group: The unit's group where the benchmark has them (CogLM's ability).
        key: The reply's place within its unit where a unit holds several
            replies per epoch (a CogEval task's items at each temperature);
            ``""`` where it holds one.
    """

    unit: str
    values: Mapping[str, float]
    epoch: int = 1
    status: str = "valid"
    group: str = ""
    key: str = ""


@dataclass(frozen=True)
class RunResults:
    """A run as read from its source, before any check.

    Attributes:
        benchmark: ``coglm``, ``cogeval``, ``cogbench`` or ``egosocial``.
        identity: The run's identity.
        unit: What a unit is (``"item"``, ``"task"``...).
        records: Every scored reply.
        declared: The units the run was meant to cover, each with its group,
            in the benchmark's order.
        source: Where it was read from (file or folder), for messages.
        protocol: One line on how it was scored, for reports.
        declared_keys: Per unit, the keys it was meant to cover, where units
            hold several replies per epoch (units left out are not checked
            for keys).
        content: The run's content key (:mod:`cog_tasks.common.runs`): an
            Inspect run's eval id and sample hash, an lm-eval run's samples
            hash, an input file's hash; ``""``: its records and identity.
    """

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
    """What a reader must know beside every number of a run.

    Attributes:
        units: Units with at least one record.
        declared: Units the run was meant to cover.
        missing: Declared units without a record (the first ones, up to 20,
            in ``missing_named``).
        missing_groups: Groups with no record at all (a CogLM ability whose
            samples file is gone).
        epochs: Records per unit (the most any unit has).
        uneven: Units with fewer epochs than the most.
        counts: Records per flagged status (:data:`FLAGGED`).
        named: Per flagged status, the first units (up to 20) with such a record.
        keyed: Whether the run declared keys within its units
            (:attr:`RunResults.declared_keys`); only then do ``incomplete``
            and ``missing_keys`` appear in :meth:`as_dict`.
        incomplete: Units with a record but missing some of their declared keys.
        missing_keys: Declared keys without a record, over those units.
        records: Every reply recorded (all epochs), the base of :meth:`flagged_share`.
    """

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

    @property
    def partial(self) -> bool:
        """Whether declared units, or declared keys of the units present, are missing."""
        return self.missing > 0 or self.incomplete > 0

    def flagged_share(self) -> float | None:
        """The share of replies flagged (invalid, error, truncated, judge-invalid), or ``None``."""
        if not self.records:
            return None
        return sum(self.counts.get(status, 0) for status in FLAGGED) / self.records

    def note(self, unit: str = "unit") -> str:
        """One line for every row this run touches: partial, missing groups, flagged counts."""
        parts = []
        if self.partial:
            gaps = (
                [f"{self.missing} of {self.declared} {plural(unit, self.declared)} missing"]
                if self.missing
                else []
            )
            if self.incomplete:
                gaps.append(
                    f"{self.incomplete} {plural(unit, self.incomplete)} incomplete "
                    f"({self.missing_keys} of their "
                    "declared replies missing)"
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
        return "; ".join(parts)

    def as_dict(self) -> dict[str, object]:
        """JSON fields: units, declared, missing, missing_groups, epochs, uneven, and each count.

        A keyed run adds ``incomplete`` and ``missing_keys``.
        """
        keys = {"incomplete": self.incomplete, "missing_keys": self.missing_keys}
        return {
            "units": self.units,
            "declared": self.declared,
            "missing": self.missing,
            "missing_groups": list(self.missing_groups),
            "epochs": self.epochs,
            "uneven": self.uneven,
            "records": self.records,
            **{status: self.counts.get(status, 0) for status in FLAGGED},
            **(keys if self.keyed else {}),
        }

    @classmethod
    def from_dict(cls, fields: Mapping[str, object]) -> Coverage:
        """The coverage of :meth:`as_dict`'s fields.

        Raises:
            ResultsError: If a field is missing or of the wrong type.
        """
        try:
            return cls(
                units=int(fields["units"]),  # type: ignore[call-overload]
                declared=int(fields["declared"]),  # type: ignore[call-overload]
                missing=int(fields["missing"]),  # type: ignore[call-overload]
                missing_groups=tuple(map(str, fields["missing_groups"])),  # type: ignore[call-overload]
                epochs=int(fields["epochs"]),  # type: ignore[call-overload]
                uneven=int(fields["uneven"]),  # type: ignore[call-overload]
                counts={status: int(fields[status]) for status in FLAGGED},  # type: ignore[call-overload]
                keyed="incomplete" in fields,
                incomplete=int(fields.get("incomplete", 0)),  # type: ignore[call-overload]
                missing_keys=int(fields.get("missing_keys", 0)),  # type: ignore[call-overload]
                records=int(fields.get("records", 0)),  # type: ignore[call-overload]
            )
        except (KeyError, TypeError, ValueError) as error:
            raise ResultsError(f"malformed coverage {dict(fields)!r} ({error})") from error


@dataclass(frozen=True)
class CheckedRun:
    """A run after :func:`check_run`: per-unit values averaged over epochs.

    Attributes:
        run: The run as read.
        values: Per unit (declared order), each measure's mean over the unit's epochs.
        groups: Each unit's group.
        coverage: What is missing or flagged.
        keys: Per unit, each key's measures averaged over its epochs (one
            key, ``""``, where units hold one reply per epoch); a unit's
            value is the mean over its keys.
    """

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
    """Apply every check to one run and average its epochs within units.

    Errored records are counted (``coverage.counts["error"]``) and left out of
    the values, as Inspect's metrics leave errored samples out.

    Args:
        run: The run as read.

    Returns:
        The checked run.

    Raises:
        ResultsError: Naming the run's source and the units, when a status is
            unknown, a unit (or a unit's key) appears twice in one epoch, or a
            unit (or key) lies outside the declared set; also when the run has
            no record at all.
    """
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
    )
    return CheckedRun(run, values, {unit: run.declared[unit] for unit in order}, coverage, keys)


def distinct_runs(runs: Sequence[RunResults]) -> list[RunResults]:
    """The runs with each content counted once (:meth:`RunResults.content_key`).

    A run given twice (the same path, or a copy elsewhere) is kept once, and
    one warning line names both sources; every other run stays its own row.

    Args:
        runs: The runs a command read.

    Returns:
        The runs, repeats of one content left out, in order.
    """
    return distinct_by_content(runs, RunResults.content_key, lambda run: run.source)


def pool_runs(runs: Sequence[RunResults], identity: RunIdentity) -> RunResults:
    """Runs of one identity but their seeds as one run, on request (``--pool-seeds``).

    Each run's epochs follow the last run's, so that a unit of two runs is
    one unit with the epochs of both; the sources are joined with `` + ``.

    Args:
        runs: The runs to pool (at least one), in order.
        identity: The pooled run's identity (the runs' identity without seed).
    """
    records: list[UnitRecord] = []
    for run in runs:
        offset = max((record.epoch for record in records), default=0)
        records += [replace(record, epoch=record.epoch + offset) for record in run.records]
    sources = " + ".join(run.source for run in runs)
    return replace(runs[0], identity=identity, records=tuple(records), source=sources)


def identity_differences(
    first: RunIdentity, second: RunIdentity, *, ignore: Iterable[str] = ()
) -> list[str]:
    """The identity fields in which two runs differ, as ``name: a vs b``.

    Args:
        first: One identity.
        second: Another.
        ignore: Field names not compared (``model`` when models are compared).
    """
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
    """The outcome of comparing one measure of two runs.

    Attributes:
        difference: First minus second over the shared units, or ``None``
            where it could not be paired.
        reason: Why it was not paired, or what a reader must know about
            the pairing (identities that differ, when allowed); ``""`` otherwise.
    """

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
) -> Pairing:
    """The statistics entry for two runs: a paired difference over shared units, or why not.

    Args:
        first: Per-unit values of the first run.
        second: Per-unit values of the second run.
        unit: What a unit is.
        differences: The identity fields in which the runs differ besides the
            compared factor (:func:`identity_differences`).
        allow_different: Pair them anyway; the reason then says what differs.
        seed: Seed of the resampling.
        scale: The headline's scale (:data:`cog_tasks.common.headlines.SCALES`),
            which bounds the difference (:func:`difference_bounds`).

    Returns:
        The pairing: refused (with its reason) where identities differ and
        pairing was not allowed, where either run has no per-unit values, or
        where no unit is shared.
    """
    if differences and not allow_different:
        return Pairing(None, "runs differ in " + "; ".join(differences))
    if not first or not second:
        return Pairing(None, "no per-unit values")
    shared = [key for key in first if key in second]
    if not shared:
        return Pairing(None, f"no shared {unit}s")
    note = "PAIRED DESPITE " + "; ".join(differences) if differences else ""
    unshared = len(set(first) ^ set(second))
    if unshared:
        note = "; ".join(
            part for part in (note, f"{unshared} {plural(unit, unshared)} in one run only") if part
        )
    bounds = difference_bounds(scale, first, second)
    return Pairing(paired_difference(first, second, unit=unit, seed=seed, bounds=bounds), note)


def difference_bounds(
    scale: str, first: Mapping[str, UnitValue], second: Mapping[str, UnitValue]
) -> tuple[float, float]:
    """The range of the difference of two headlines on ``scale``.

    Calibrated accuracies and kappas lie in [-1, 1], so they differ by at most
    2; a raw measure whose every unit value in both runs is a share (a number
    in [0, 1], or ``(events, trials)`` with ``0 <= events <= trials``) differs
    by at most 1; anything else (a mean rating, an age) is left unbounded.

    Args:
        scale: ``calibrated``, ``kappa``, ``raw`` or ``years``.
        first: Per-unit values of the first run.
        second: Per-unit values of the second run.

    Returns:
        ``(low, high)`` of the difference.
    """
    if scale in ("calibrated", "kappa"):
        return (-2.0, 2.0)

    def share(value: UnitValue) -> bool:
        top, bottom = value if isinstance(value, tuple) else (value, 1.0)
        return 0.0 <= top <= bottom

    values = [*first.values(), *second.values()]
    if scale == "raw" and values and all(share(value) for value in values):
        return (-1.0, 1.0)
    return (-math.inf, math.inf)
