"""CogLM's unit, records and headline numbers of one run (no framework here).

The frontends read their outputs (lm-eval samples files, Inspect logs,
predictions files) into :class:`~cog_tasks.common.results.UnitRecord` rows
(:func:`item_record`) over the declared items (:func:`declared_benchmark`); the
results model checks them (:func:`cog_tasks.common.results.check_run`), and
:func:`run_headlines` computes the headlines of the checked run.
The unit is the item, identified by its record id (``plan-0007``), stable across
models and runs on the same data. The measures:

- ``<pooled>`` (``calibrated_acc_authors`` for the log-likelihood family,
  ``calibrated_acc_pooled`` for the chat protocol): the calibrated accuracy
  pooled over every item, ``sum(correct - 1/n) / sum(1 - 1/n)``; each item's
  unit value is ``(correct - 1/n, 1 - 1/n)``, so the ratio of sums is the
  number. It weighs abilities by their item counts, so it differs from the
  ``coglm`` group row lm-eval prints and from Table 9's Acc, which are
  ``overall``; its note says so;
- ``overall``: the mean of the abilities' calibrated accuracies (Table 9's Acc);
- ``stage1`` ... ``stage4``: the mean of each stage's abilities;
- ``cognitive_age``: :data:`~cog_tasks.coglm.metrics.AGE_MAPPING` of the four
  stages, bootstrapped through its formula (no unit values: it is not a ratio of sums).

For ``overall`` and the stages, an item's unit value is scaled by ``1 / B_a``,
where ``B_a`` is the sum of ``1 - 1/n`` over its ability's items: the ratio of
the sums is then exactly the mean of the abilities. The scale depends on the
items' option counts only, so it is the same for every model on the same items.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import replace

from cog_tasks.coglm.abilities import ABILITIES, ABILITY_BY_CODE, STAGES
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
from cog_tasks.common.stats import UnitValue

BENCHMARK = "coglm"
UNIT = "item"
STAGE_MEASURES = tuple(f"stage{stage}" for stage in STAGES)


def declared_benchmark() -> dict[str, str]:
    """CogLM's declared unit set: every item of the ten abilities, record id -> ability code.

    A run of fewer items (``--limit``, ``per_ability``, some abilities) is
    partial against it, whatever its command line said.
    """
    return {
        record.id: record.ability
        for record in load_records([ability.code for ability in ABILITIES])
    }


def item_record(item: ScoredItem, epoch: int = 1, status: str | None = None) -> UnitRecord:
    """One scored reply as a results-model record (unit: the record id; group: the ability).

    Args:
        item: The scored reply.
        epoch: Its epoch (1-based).
        status: Its status; by default ``valid``, or ``invalid`` when no
            option could be read.
    """
    return UnitRecord(
        unit=item.id,
        values={
            "correct": float(item.correct) if item.valid else 0.0,
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
    """The headlines of a checked run, each carrying its coverage (see :func:`item_headlines`).

    What is missing or flagged travels as the coverage, not repeated in the note.
    """
    return item_headlines(
        checked_items(checked),
        checked.identity,
        pooled_measure=pooled_measure,
        seed=seed,
        coverage=checked.coverage,
    )


def _outcome(item: ScoredItem) -> float:
    return float(item.correct) if item.valid else 0.0


def headline_units(
    items: Sequence[ScoredItem], pooled_measure: str
) -> dict[str, dict[str, UnitValue]]:
    """Per headline measure (pooled, ``overall``, each stage present), each item's unit value.

    The pooled measure's value of an item is ``(correct - 1/n, 1 - 1/n)``;
    ``overall``'s and a stage's are those scaled by ``1 / B_a`` (see the module docstring).
    """
    pooled: dict[str, UnitValue] = {
        item.id: calibrated_unit(_outcome(item), item.num_choices) for item in items
    }
    weight: dict[str, float] = {}
    for item in items:
        weight[item.ability] = weight.get(item.ability, 0.0) + (1.0 - 1.0 / item.num_choices)

    def scaled(keep: Iterable[str]) -> dict[str, UnitValue]:
        kept = set(keep)
        return {
            item.id: (
                pooled[item.id][0] / weight[item.ability],  # type: ignore[index]
                pooled[item.id][1] / weight[item.ability],  # type: ignore[index]
            )
            for item in items
            if item.ability in kept
        }

    units = {pooled_measure: pooled, "overall": scaled(weight)}
    for stage in sorted({ABILITY_BY_CODE[code].stage for code in weight}):
        units[f"stage{stage}"] = scaled(c for c in weight if ABILITY_BY_CODE[c].stage == stage)
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
    """The headlines of one run (see the module docstring).

    Args:
        items: The run's scored items, each with its record id.
        run: The run's identity.
        pooled_measure: Name of the pooled calibrated accuracy.
        note: What a reader must know (a partial run...), on every headline.
        seed: Seed of the bootstrap.
        coverage: The run's coverage, on every headline.

    Returns:
        The pooled accuracy, ``overall``, the stages present and, with all four
        stages, ``cognitive_age``.

    Raises:
        ResultsError: If there are no items, or an item has no id or a repeated one.
    """
    ids = [item.id for item in items]
    if not all(ids) or len(set(ids)) != len(ids):
        raise ResultsError("every scored CogLM item needs its own record id")
    outcomes = [_outcome(item) for item in items]
    counts = [item.num_choices for item in items]
    units = headline_units(items, pooled_measure)
    intervals = summary_intervals([item.ability for item in items], outcomes, counts, seed=seed)
    pooled_note = "pooled over items (Table 9's Acc and lm-eval's group row: overall)"
    headlines = [
        Headline(
            BENCHMARK,
            pooled_measure,
            calibrated_interval(outcomes, counts, seed=seed),
            run,
            units[pooled_measure],
            "; ".join(part for part in (pooled_note, note) if part),
            coverage,
        ),
        Headline(
            BENCHMARK,
            "overall",
            intervals.overall,
            run,
            units["overall"],
            note,
            coverage,
        ),
    ]
    for stage, interval in intervals.stages.items():
        measure = f"stage{stage}"
        headlines.append(
            Headline(BENCHMARK, measure, interval, run, units[measure], note, coverage)
        )
    if intervals.cognitive_age is not None:
        headlines.append(
            Headline(
                BENCHMARK,
                "cognitive_age",
                intervals.cognitive_age,
                run,
                {},
                note,
                coverage,
                scale="years",
            )
        )
    return [
        headline if headline.scale == "years" else replace(headline, scale="calibrated")
        for headline in headlines
    ]


def chance_items(
    records: Sequence[CogLMRecord], seed: int = 0, chance: str = DEFAULT_CHANCE
) -> list[ScoredItem]:
    """A seeded uniform guess among each record's listed options, scored.

    The draw of each item is seeded on ``seed`` and the record id, so the same
    seed gives the same guesses on any subset of items.

    Args:
        records: The items.
        seed: The guesser's seed.
        chance: The chance rule of the scores (:data:`~cog_tasks.coglm.rules.CHANCE_RULES`).

    Returns:
        One scored item per record.
    """
    scored = []
    for record in records:
        guess = random.Random(f"{seed}|{record.id}").randrange(len(record.choices))
        scored.append(
            ScoredItem(
                record.ability,
                chance_count(record.choices, chance),
                guess == record.answer,
                True,
                record.id,
            )
        )
    return scored
