"""CogLM metrics: calibrated accuracy, stage and overall scores, cognitive age (fractions)."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from statistics import fmean
from typing import Any

import numpy as np

from cog_tasks.coglm.abilities import ABILITIES, ABILITY_BY_CODE, STAGES
from cog_tasks.coglm.records import distinct_options
from cog_tasks.coglm.reference import ReferenceRow, fit_rows
from cog_tasks.coglm.rules import CHANCE_RULES, DEFAULT_CHANCE
from cog_tasks.common.params import ParameterError
from cog_tasks.common.results import ResultsError
from cog_tasks.common.stats import (
    RESAMPLES,
    SUM_STATISTICS,
    Interval,
    UnitValue,
    bootstrap_interval,
    on_scale,
    ratio_interval,
    wilson_interval,
)


def chance_count(choices: Sequence[str], chance: str = DEFAULT_CHANCE) -> int:
    """The option count of an item under a chance rule (:data:`CHANCE_RULES`)."""
    if chance == "listed":
        return len(choices)
    if chance == "distinct":
        return distinct_options(choices)
    raise ParameterError(f"chance must be one of {', '.join(CHANCE_RULES)}, got {chance!r}")


@dataclass(frozen=True)
class AgeMapping:
    """Linear map from the four stage calibrated accuracies (fractions) to years."""

    stage_weights: tuple[float, float, float, float]
    intercept: float

    def __call__(self, stage_scores: Mapping[int, float]) -> float:
        """Cognitive age for stage scores keyed 1-4."""
        return self.intercept + sum(
            weight * stage_scores[stage]
            for stage, weight in zip(STAGES, self.stage_weights, strict=True)
        )


# Least-squares fit of Table 9 (12 distinct rows, human included); see fit_age_mapping.
AGE_MAPPING = AgeMapping(stage_weights=(2.558, 6.673, 3.637, 6.331), intercept=3.674)


def _check_lengths(correct: Sequence[Any], num_choices: Sequence[int]) -> None:
    if len(correct) != len(num_choices):
        raise ValueError(f"{len(correct)} outcomes but {len(num_choices)} choice counts")
    if not correct:
        raise ResultsError("calibrated accuracy of an empty set is undefined")
    if min(num_choices) < 2:
        raise ResultsError("every item needs at least 2 choices")


def _check_codes(codes: Iterable[str]) -> None:
    unknown = sorted(set(codes) - set(ABILITY_BY_CODE))
    if unknown:
        raise ResultsError(f"unknown ability code(s) {unknown}")


def calibrated_accuracy(correct: Sequence[bool | float], num_choices: Sequence[int]) -> float:
    """Pooled calibrated accuracy ``(acc - c) / (1 - c)``, ``c = mean(1/n)``; 0 is chance."""
    _check_lengths(correct, num_choices)
    accuracy = fmean(float(c) for c in correct)
    chance = fmean(1.0 / n for n in num_choices)
    return (accuracy - chance) / (1.0 - chance)


def calibrated_unit(correct: float, num_choices: int) -> UnitValue:
    """One item's share ``(correct - 1/n, 1 - 1/n)``; their sums' ratio is the pooled score."""
    chance = 1.0 / num_choices
    return (float(correct) - chance, 1.0 - chance)


def calibrated_interval(
    correct: Sequence[bool | float],
    num_choices: Sequence[int],
    *,
    seed: int = 0,
    resamples: int = RESAMPLES,
) -> Interval:
    """Pooled calibrated accuracy with its 95 % interval over items (all alike: Wilson's)."""
    _check_lengths(correct, num_choices)
    chances = 1.0 / np.asarray(num_choices, dtype=float)
    outcomes = np.asarray(correct, dtype=float)
    if len(outcomes) and (np.all(outcomes == 0) or np.all(outcomes == 1)):
        # A bootstrap would have zero width; the score is linear in the accuracy.
        share = wilson_interval(float(outcomes.sum()), len(outcomes), unit="item")
        chance = float(chances.mean())
        value, low, high = (
            (a - chance) / (1.0 - chance) for a in (share.value, share.low, share.high)
        )
        return Interval(value, low, high, share.n, "item", "wilson")
    units = [
        calibrated_unit(outcome, count) for outcome, count in zip(correct, num_choices, strict=True)
    ]
    # A calibrated accuracy lies in [-1, 1] (-1: every two-option item wrong).
    return ratio_interval(units, unit="item", seed=seed, resamples=resamples, bounds=(-1.0, 1.0))


def calibrated_accuracy_per_item(
    correct: Sequence[bool | float], num_choices: Sequence[int]
) -> float:
    """Per-item calibrated accuracy (Eq. 1): mean of ``(1[correct] - 1/n) / (1 - 1/n)``."""
    _check_lengths(correct, num_choices)
    return fmean(
        (float(c) - 1.0 / n) / (1.0 - 1.0 / n) for c, n in zip(correct, num_choices, strict=True)
    )


def stage_scores(ability_scores: Mapping[str, float]) -> dict[int, float]:
    """Macro-average ability scores within each stage (1-4) that has any."""
    _check_codes(ability_scores)
    by_stage: dict[int, list[float]] = {}
    for ability in ABILITIES:
        if ability.code in ability_scores:
            by_stage.setdefault(ability.stage, []).append(ability_scores[ability.code])
    return {stage: fmean(values) for stage, values in sorted(by_stage.items())}


def cognitive_age(stages: Mapping[int, float], mapping: AgeMapping = AGE_MAPPING) -> float | None:
    """Cognitive age in years, or ``None`` unless all four stages are scored."""
    if any(stage not in stages for stage in STAGES):
        return None
    return mapping(stages)


def stage_fractions(row: ReferenceRow) -> dict[int, float]:
    """Stage scores (fractions) of a published Table 9 row."""
    return stage_scores({code: value / 100.0 for code, value in row.abilities.items()})


def fit_age_mapping(rows: Iterable[ReferenceRow] | None = None) -> AgeMapping:
    """Fit the age mapping by least squares on Table 9 rows (default: its 12 distinct rows)."""
    chosen = list(rows if rows is not None else fit_rows())
    design = np.array([[stage_fractions(row)[s] for s in STAGES] + [1.0] for row in chosen])
    target = np.array([row.age for row in chosen])
    solution, *_ = np.linalg.lstsq(design, target, rcond=None)
    weights = tuple(round(float(w), 3) for w in solution[:4])
    return AgeMapping(stage_weights=weights, intercept=round(float(solution[4]), 3))  # type: ignore[arg-type]


@dataclass(frozen=True)
class ScoredItem:
    """One scored item (``id``: the unit of intervals), ``correct``/``valid`` booleans or means."""

    ability: str
    num_choices: int
    correct: bool | float
    valid: bool | float = True
    id: str = ""

    @property
    def outcome(self) -> float:
        """``correct`` as a number; an invalid reply is wrong."""
        return float(self.correct) if self.valid else 0.0


def summarize(items: Iterable[ScoredItem]) -> dict[str, Any]:
    """Aggregate scored items into the report every frontend prints (invalid items wrong)."""
    grouped: dict[str, list[ScoredItem]] = {}
    for item in items:
        if item.ability not in ABILITY_BY_CODE:
            raise ResultsError(f"unknown ability code {item.ability!r}")
        grouped.setdefault(item.ability, []).append(item)
    if not grouped:
        raise ResultsError("no scored items to summarize")
    abilities: dict[str, dict[str, Any]] = {}
    for ability in ABILITIES:
        scored = grouped.get(ability.code)
        if not scored:
            continue
        outcomes = [item.outcome for item in scored]
        counts = [item.num_choices for item in scored]
        abilities[ability.code] = {
            "n": len(scored),
            "accuracy": fmean(float(o) for o in outcomes),
            "calibrated_accuracy": calibrated_accuracy(outcomes, counts),
            "calibrated_accuracy_per_item": calibrated_accuracy_per_item(outcomes, counts),
            "invalid": round(sum(1.0 - float(item.valid) for item in scored)),
        }
    summary = assemble_summary(abilities)
    every = [item for ability in ABILITIES for item in grouped.get(ability.code, [])]
    intervals = summary_intervals(
        [item.ability for item in every],
        [item.outcome for item in every],
        [item.num_choices for item in every],
    )
    return add_intervals(summary, intervals)


def assemble_summary(abilities: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """Add stage scores, overall score and cognitive age to rows holding ``calibrated_accuracy``."""
    if not abilities:
        raise ResultsError("no ability scores to summarize")
    _check_codes(abilities)
    ordered = {a.code: dict(abilities[a.code]) for a in ABILITIES if a.code in abilities}
    calibrated = {code: row["calibrated_accuracy"] for code, row in ordered.items()}
    stages = stage_scores(calibrated)
    return {
        "abilities": ordered,
        "stages": {str(stage): value for stage, value in stages.items()},
        "overall": fmean(calibrated.values()),  # macro average over the abilities
        "cognitive_age": cognitive_age(stages),
    }


@dataclass(frozen=True)
class SummaryIntervals:
    """The 95 % intervals of a CogLM report, all over items (age: ``None`` without all stages)."""

    abilities: dict[str, Interval]
    stages: dict[int, Interval]
    overall: Interval
    cognitive_age: Interval | None


def summary_intervals(
    abilities: Sequence[str],
    correct: Sequence[bool | float],
    num_choices: Sequence[int],
    *,
    seed: int = 0,
    resamples: int = RESAMPLES,
) -> SummaryIntervals:
    """Bootstrap every number of a report through its formula, resampling items."""
    _check_lengths(correct, num_choices)
    if len(abilities) != len(correct):
        raise ValueError(f"{len(abilities)} ability codes but {len(correct)} outcomes")
    _check_codes(abilities)
    codes = [ability.code for ability in ABILITIES if ability.code in set(abilities)]
    position = np.array([codes.index(code) for code in abilities])
    outcomes = np.asarray(correct, dtype=float)
    counts = np.asarray(num_choices, dtype=int)
    chances = 1.0 / counts
    tops, bottoms = outcomes - chances, 1.0 - chances
    everything = np.arange(len(outcomes))

    def per_ability(indices: np.ndarray) -> np.ndarray:
        top = np.bincount(position[indices], weights=tops[indices], minlength=len(codes))
        bottom = np.bincount(position[indices], weights=bottoms[indices], minlength=len(codes))
        drawn = bottom > 0
        values = full.copy()
        values[drawn] = top[drawn] / bottom[drawn]
        return values

    full = np.zeros(len(codes))
    full[:] = per_ability(everything)
    stage_of = np.array([ABILITY_BY_CODE[code].stage for code in codes])
    present = sorted(set(stage_of.tolist()))

    def stage_means(indices: np.ndarray) -> dict[int, float]:
        values = per_ability(indices)
        return {stage: float(values[stage_of == stage].mean()) for stage in present}

    def interval(statistic: Callable[[np.ndarray], float]) -> Interval:
        return bootstrap_interval(
            statistic, len(outcomes), unit="item", seed=seed, resamples=resamples
        )

    members = {code: position == index for index, code in enumerate(codes)}
    return SummaryIntervals(
        abilities={
            code: calibrated_interval(
                outcomes[members[code]].tolist(),
                counts[members[code]].tolist(),
                seed=seed,
                resamples=resamples,
            )
            for code in codes
        },
        # Every item is resampled, but only a stage's own items move its mean: n counts those.
        stages={
            stage: interval(lambda indices, stage=stage: stage_means(indices)[stage]).over(
                int((stage_of[position] == stage).sum())
            )
            for stage in present
        },
        overall=interval(lambda indices: float(per_ability(indices).mean())),
        cognitive_age=(
            on_scale(interval(lambda indices: AGE_MAPPING(stage_means(indices))), (0.0, math.inf))
            if present == list(STAGES)
            else None
        ),
    )


def add_intervals(summary: dict[str, Any], intervals: SummaryIntervals) -> dict[str, Any]:
    """Add the intervals as ``[low, high]`` lists (``*_ci`` keys); ``ci_reasons`` says why not.

    ``ci_reasons`` maps ``overall``, ``stage N``, an ability's code and ``cognitive_age`` to the
    reason its interval is missing (``[None, None]``), as the statistics entry words it.
    """
    named = {code: intervals.abilities[code] for code in summary["abilities"]}
    named |= {f"stage {stage}": ci for stage, ci in intervals.stages.items()}
    named |= {"overall": intervals.overall}
    if intervals.cognitive_age is not None:
        named["cognitive_age"] = intervals.cognitive_age
    for code, row in summary["abilities"].items():
        row["calibrated_accuracy_ci"] = named[code].as_list()
    summary["stages_ci"] = {str(stage): ci.as_list() for stage, ci in intervals.stages.items()}
    summary["overall_ci"] = intervals.overall.as_list()
    age = intervals.cognitive_age
    summary["cognitive_age_ci"] = None if age is None else age.as_list()
    summary["ci_reasons"] = {name: ci.reason for name, ci in named.items() if not ci.defined}
    return summary


def age_of_sums(summed: Mapping[str, np.ndarray]) -> float:
    """The cognitive age of summed ``{ability: calibrated unit}`` items (NaN without 4 stages)."""
    abilities = {code: top / bottom for code, (top, bottom) in summed.items() if bottom > 0}
    age = cognitive_age(stage_scores(abilities)) if abilities else None
    return math.nan if age is None else float(age)


SUM_STATISTICS[f"{__name__}:age_of_sums"] = age_of_sums
