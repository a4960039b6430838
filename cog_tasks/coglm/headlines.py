"""CogLM's unit, records and headline numbers of one run (no framework here).

Each item's pooled unit is ``(correct - 1/n, 1 - 1/n)``; ``overall`` and the stages
scale it by ``1 / B_a`` (``B_a``: the sum of ``1 - 1/n`` over its ability).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from cog_tasks.coglm.abilities import ABILITIES, ABILITY_BY_CODE
from cog_tasks.coglm.metrics import (
    ScoredItem,
    calibrated_interval,
    calibrated_unit,
    chance_count,
    summary_intervals,
)
from cog_tasks.coglm.records import CogLMRecord, load_records
from cog_tasks.coglm.rules import DEFAULT_CHANCE
from cog_tasks.common.headlines import Headline
from cog_tasks.common.results import CheckedRun, Coverage, ResultsError, UnitRecord
from cog_tasks.common.runs import RunIdentity
from cog_tasks.common.stats import Interval, UnitValue

FITTED_AGES: tuple[float, float] = (6.0, 20.0)
"""Ages of the testers the paper's map was fitted on (Sec. 2.3); at chance it gives 3.7 years."""
BELOW = "below the fitted range"
ABOVE = "above the fitted range"


def age_flag(age: float | None, interval: Sequence[float | None] | None = None) -> str | None:
    """:data:`BELOW`/:data:`ABOVE` for the age, else where its interval leaves the fitted range."""
    if age is None:
        return None
    low, high = FITTED_AGES
    if round(age, 1) < low:
        return BELOW
    if round(age, 1) > high:
        return ABOVE
    if not interval or None in interval:
        return None
    below = round(interval[0], 1) < low  # type: ignore[arg-type]
    above = round(interval[1], 1) > high  # type: ignore[arg-type]
    if below and above:
        return "interval reaches past both ends of the fitted range"
    if below or above:
        return f"interval reaches {'below' if below else 'above'} the fitted range"
    return None


BENCHMARK = "coglm"
UNIT = "item"
AGE_OF_SUMS = "cog_tasks.coglm.metrics:age_of_sums"  # The age's statistic of per-item payloads.
#: The pooled measure of ``coglm_chat``, its first headline and first logged metric.
CHAT_POOLED = "calibrated_acc_pooled"
OVERALL = "overall"


def stage_measure(stage: int | str) -> str:
    """The headline measure of one stage (``stage1``), as the profile and the logs name it."""
    return f"stage{stage}"


def declared_benchmark() -> dict[str, str]:
    """CogLM's declared unit set: every item of the ten abilities, record id -> ability code."""
    return {
        record.id: record.ability
        for record in load_records([ability.code for ability in ABILITIES])
    }


def item_record(item: ScoredItem, epoch: int = 1, status: str | None = None) -> UnitRecord:
    """One scored reply as a results-model record (unit: the record id; group: the ability)."""
    return UnitRecord(
        unit=item.id,
        values={
            "correct": item.outcome,
            "valid": float(item.valid),
            "num_choices": float(item.num_choices),
        },
        epoch=epoch,
        status=status or ("valid" if item.valid else "invalid"),
        group=item.ability,
    )


def checked_items(checked: CheckedRun) -> list[ScoredItem]:
    """The checked run's items, each averaged over its epochs."""
    return [
        ScoredItem(
            checked.groups[unit],
            int(values["num_choices"]),
            values["correct"],
            values["valid"],
            unit,
        )
        for unit, values in checked.values.items()
    ]


def run_headlines(checked: CheckedRun, *, pooled_measure: str, seed: int = 0) -> list[Headline]:
    """The headlines of a checked run, each carrying its coverage (see :func:`item_headlines`)."""
    return item_headlines(
        checked_items(checked),
        checked.identity,
        pooled_measure=pooled_measure,
        seed=seed,
        coverage=checked.coverage,
    )


def headline_units(
    items: Sequence[ScoredItem], pooled_measure: str
) -> dict[str, dict[str, UnitValue]]:
    """Per headline measure (pooled, ``overall``, each stage, the age), each item's unit value."""
    pooled: dict[str, UnitValue] = {
        item.id: calibrated_unit(item.outcome, item.num_choices) for item in items
    }
    weight: dict[str, float] = {}
    for item in items:
        weight[item.ability] = weight.get(item.ability, 0.0) + (1.0 - 1.0 / item.num_choices)

    def scaled(keep: Iterable[str]) -> dict[str, UnitValue]:
        kept = set(keep)
        return {
            item.id: tuple(part / weight[item.ability] for part in pooled[item.id])  # type: ignore[union-attr]
            for item in items
            if item.ability in kept
        }

    units = {pooled_measure: pooled, OVERALL: scaled(weight)}
    units["cognitive_age"] = {i.id: {i.ability: list(pooled[i.id])} for i in items}  # type: ignore
    for stage in sorted({ABILITY_BY_CODE[code].stage for code in weight}):
        units[stage_measure(stage)] = scaled(c for c in weight if ABILITY_BY_CODE[c].stage == stage)
    return units


def item_headlines(
    items: Sequence[ScoredItem],
    run: RunIdentity,
    *,
    pooled_measure: str,
    note: str = "",
    seed: int = 0,
    coverage: Coverage | None = None,
) -> list[Headline]:
    """The headlines of one run, ``note`` and ``coverage`` on each (items need distinct ids)."""
    ids = [item.id for item in items]
    if not all(ids) or len(set(ids)) != len(ids):
        raise ResultsError("every scored CogLM item needs its own record id")
    outcomes = [item.outcome for item in items]
    counts = [item.num_choices for item in items]
    units = headline_units(items, pooled_measure)
    intervals = summary_intervals([item.ability for item in items], outcomes, counts, seed=seed)
    pooled_note = "pooled over items (Table 9's Acc and lm-eval's group row: overall)"

    def headline(
        measure: str, interval: Interval, text: str = note, scale: str = "calibrated"
    ) -> Headline:
        values = units.get(measure, {})
        statistic = AGE_OF_SUMS if measure == "cognitive_age" else ""
        return Headline(
            BENCHMARK, measure, interval, run, values, text, coverage, scale, statistic=statistic
        )

    pooled = calibrated_interval(outcomes, counts, seed=seed)
    headlines = [
        headline(pooled_measure, pooled, "; ".join(part for part in (pooled_note, note) if part)),
        headline(OVERALL, intervals.overall),
        *(headline(stage_measure(stage), ci) for stage, ci in intervals.stages.items()),
    ]
    if intervals.cognitive_age is not None:
        age = intervals.cognitive_age
        flag = age_flag(age.value, [age.low, age.high] if age.defined else None)
        fitted = f"{flag} (the map was fitted on ages {FITTED_AGES[0]:g}-{FITTED_AGES[1]:g})"
        headlines.append(headline("cognitive_age", age, fitted if flag else note, "years"))
    return headlines


def chance_items(
    records: Sequence[CogLMRecord], seed: int = 0, chance: str = DEFAULT_CHANCE
) -> list[ScoredItem]:
    """A seeded uniform guess among each record's listed options, scored (seeded per record id)."""
    guesses = [random.Random(f"{seed}|{r.id}").randrange(len(r.choices)) for r in records]
    return [answered(record, guess, chance) for record, guess in zip(records, guesses, strict=True)]


def answered(record: CogLMRecord, chosen: int, chance: str) -> ScoredItem:
    """A record answered with option ``chosen``, scored under the chance rule."""
    count = chance_count(record.choices, chance)
    return ScoredItem(record.ability, count, chosen == record.answer, True, record.id)
