"""The one path from runs to report rows, for every benchmark and every source."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Generic, TypeVar

from cog_tasks.common.headlines import Headline, TrivialResult
from cog_tasks.common.results import (
    CheckedRun,
    Coverage,
    RunResults,
    check_run,
    compare_units,
    distinct_runs,
    pool_runs,
    sum_statistic,
)
from cog_tasks.common.runs import RunIdentity, distinguishing_labels, group_runs
from cog_tasks.common.spec import TrivialStrategy, load
from cog_tasks.common.stats import UnitValue, headline_of

Extra = TypeVar("Extra")


@dataclass(frozen=True)
class Row(Generic[Extra]):
    """One report row: a checked run (or runs pooled on request), its label and its runs' extras."""

    checked: CheckedRun
    label: str
    extras: tuple[Extra, ...]
    pooling: str = ""

    @property
    def extra(self) -> Extra:
        """What the row's first run came with."""
        return self.extras[0]

    @property
    def identity(self) -> RunIdentity:
        """The row's identity (without seed where seeds were pooled)."""
        return self.checked.identity

    @property
    def coverage(self) -> Coverage:
        """What is missing or flagged."""
        return self.checked.coverage

    def note(self) -> str:
        """What a reader must know beside every number of the row: pooling and coverage."""
        return "; ".join(part for part in (self.pooling, self.checked.note()) if part)


def row_labels(
    identities: Sequence[RunIdentity],
    keys: Sequence[Hashable] | None = None,
    models: Sequence[str] | None = None,
) -> list[str]:
    """Row labels: the model, told apart by identity among rows of one key (``None``: one key)."""
    keys = [None] * len(identities) if keys is None else list(keys)
    if len(identities) != len(keys):
        raise ValueError(f"{len(identities)} identities but {len(keys)} keys")
    positions: dict[Hashable, list[int]] = {}
    for position, key in enumerate(keys):
        positions.setdefault(key, []).append(position)
    labels = list(models) if models is not None else [i.model for i in identities]
    for shared in positions.values():
        if len(shared) > 1:
            shown = distinguishing_labels([identities[position] for position in shared])
            for position, label in zip(shared, shown, strict=True):
                labels[position] = label
    return labels


def checked_rows(
    read: Sequence[tuple[RunResults, Extra]],
    *,
    pool_seeds: bool = False,
    key: Callable[[RunResults, Extra], Hashable] | None = None,
    model: Callable[[RunResults, Extra], str] | None = None,
    row: type[Row[Extra]] = Row,
) -> list[Row[Extra]]:
    """Check every run and label it; one content given twice is read once, never merged silently."""
    kept = distinct_runs([run for run, _ in read])  # a copy counts once, the first kept
    read = [entry for entry in read if kept and entry[0] is kept[0] and kept.pop(0)]
    groups = group_runs(read, lambda entry: entry[0].identity, pool_seeds=pool_seeds)
    keys = None if key is None else [key(*group.runs[0]) for group in groups]
    models = None if model is None else [model(*group.runs[0]) for group in groups]
    labels = row_labels([group.identity for group in groups], keys, models)
    rows = []
    for group, label in zip(groups, labels, strict=True):
        members = [run for run, _ in group.runs]
        run = pool_runs(members, group.identity) if group.pooled else members[0]
        extras = tuple(extra for _, extra in group.runs)
        rows.append(row(check_run(run), label, extras, group.pooling_note()))
    return rows


def best_trivial(
    headline: Headline, strategies: Sequence[TrivialStrategy], seed: int = 0
) -> TrivialResult | None:
    """The best trivial strategy on the headline's own units and the model's paired difference."""
    if not headline.units:
        return None
    statistic = sum_statistic(headline.statistic) if headline.statistic else None
    scored: list[tuple[float, str, Mapping[str, UnitValue]]] = []
    for strategy in strategies:
        values = load(strategy.score)(list(headline.units), headline.run).get(headline.measure)
        if values:
            scored.append((headline_of(list(values.values()), statistic), strategy.name, values))
    if not scored:
        return None
    value, name, values = max(scored, key=lambda entry: entry[0])
    pairing = compare_units(
        headline.units,
        values,
        unit=headline.interval.unit,
        seed=seed,
        scale=headline.scale,
        statistic=headline.statistic,
    )
    return TrivialResult(name, value, pairing.difference)


def with_trivial(
    headlines: Sequence[Headline], strategies: Sequence[TrivialStrategy], seed: int = 0
) -> list[Headline]:
    """Each headline with its best trivial strategy (:func:`best_trivial`) beside it."""
    if not strategies:
        return list(headlines)
    return [replace(h, trivial=best_trivial(h, strategies, seed)) for h in headlines]
