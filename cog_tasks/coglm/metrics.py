"""CogLM metrics: calibrated accuracy, stage and overall scores, cognitive age.

All accuracies here are fractions (0.42, not 42%).

Calibrated accuracy removes the chance level of guessing among the options:

- pooled form (default, :func:`calibrated_accuracy`): ``(acc - c) / (1 - c)``
  with ``c`` the mean over items of ``1 / num_choices``. This is the form that
  reproduces the published Table 9.
- per-item form (:func:`calibrated_accuracy_per_item`, the paper's Eq. 1):
  the mean over items of ``(1[correct] - 1/n_i) / (1 - 1/n_i)``. The two agree
  when every item has the same number of options.

What ``num_choices`` counts: every frontend passes the number of *distinct*
option texts (:attr:`cog_tasks.coglm.records.CogLMRecord.num_distinct_choices`). 39
upstream items list a wrong option twice (38 in ``plan``, 1 in ``induc``: 32
with 3 distinct texts among 4, 7 with 2), and a guesser choosing among what it
can tell apart has ``1/3`` or ``1/2`` chance there, not ``1/4``:

- distinct-option chance (used here): ``n_i`` = distinct texts;
- listed-option chance (the authors' count, ``len(candidates)``): ``n_i`` = 4
  for those items. Pass :attr:`~cog_tasks.coglm.records.CogLMRecord.num_choices`
  to get it. It gives a slightly higher calibrated accuracy on ``plan`` and
  ``induc`` for the same answers; the other eight abilities are unaffected.

Stage score = unweighted mean of its abilities; overall = unweighted mean of
the abilities; cognitive age = ``AGE_MAPPING`` applied to the four stage scores.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from statistics import fmean
from typing import Any

import numpy as np

from cog_tasks.coglm.abilities import ABILITIES, ABILITY_BY_CODE, STAGES
from cog_tasks.coglm.reference import ReferenceRow, fit_rows
from cog_tasks.common.stats import RESAMPLES, Interval, bootstrap_interval


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
        raise ValueError("calibrated accuracy of an empty set is undefined")
    if min(num_choices) < 2:
        raise ValueError("every item needs at least 2 choices")


def calibrated_accuracy(correct: Sequence[bool | float], num_choices: Sequence[int]) -> float:
    """Pooled calibrated accuracy ``(acc - c) / (1 - c)``, ``c = mean(1/n)``.

    Args:
        correct: Per-item outcome (True/1 correct, False/0 wrong or invalid).
        num_choices: Per-item number of options the guesser has (distinct texts;
            see the module docstring for the listed-option form).

    Returns:
        The calibrated accuracy; 0 is chance, 1 is perfect, negative is below chance.
    """
    _check_lengths(correct, num_choices)
    accuracy = fmean(float(c) for c in correct)
    chance = fmean(1.0 / n for n in num_choices)
    return (accuracy - chance) / (1.0 - chance)


def calibrated_interval(
    correct: Sequence[bool | float],
    num_choices: Sequence[int],
    *,
    seed: int = 0,
    resamples: int = RESAMPLES,
) -> Interval:
    """Pooled calibrated accuracy with its 95 % bootstrap interval over items.

    Items are drawn with replacement (outcome and option count together), and
    each resample's pooled calibrated accuracy is computed
    (:func:`cog_tasks.common.stats.bootstrap_interval`).

    Args:
        correct: Per-item outcome (1/0, or a mean over epochs).
        num_choices: Per-item number of options.
        seed: Seed of the resampling.
        resamples: Number of bootstrap resamples.

    Returns:
        The calibrated accuracy with its interval (unit ``item``).
    """
    _check_lengths(correct, num_choices)
    outcomes = np.asarray(correct, dtype=float)
    chances = 1.0 / np.asarray(num_choices, dtype=float)

    def pooled(indices: np.ndarray) -> float:
        chance = chances[indices].mean()
        return float((outcomes[indices].mean() - chance) / (1.0 - chance))

    return bootstrap_interval(pooled, len(outcomes), unit="item", seed=seed, resamples=resamples)


def calibrated_accuracy_per_item(
    correct: Sequence[bool | float], num_choices: Sequence[int]
) -> float:
    """Per-item calibrated accuracy, the paper's Eq. 1.

    Args:
        correct: Per-item outcome.
        num_choices: Per-item number of options.

    Returns:
        Mean over items of ``(1[correct] - 1/n) / (1 - 1/n)``.
    """
    _check_lengths(correct, num_choices)
    return fmean(
        (float(c) - 1.0 / n) / (1.0 - 1.0 / n) for c, n in zip(correct, num_choices, strict=True)
    )


def stage_scores(ability_scores: Mapping[str, float]) -> dict[int, float]:
    """Macro-average ability scores within each stage that has any.

    Args:
        ability_scores: Score per ability code.

    Returns:
        Score per stage (1-4) for the stages represented.
    """
    unknown = set(ability_scores) - set(ABILITY_BY_CODE)
    if unknown:
        raise ValueError(f"unknown ability code(s) {sorted(unknown)}")
    by_stage: dict[int, list[float]] = {}
    for ability in ABILITIES:
        if ability.code in ability_scores:
            by_stage.setdefault(ability.stage, []).append(ability_scores[ability.code])
    return {stage: fmean(values) for stage, values in sorted(by_stage.items())}


def overall_score(ability_scores: Mapping[str, float]) -> float:
    """Macro average over the abilities given."""
    if not ability_scores:
        raise ValueError("no ability scores to average")
    return fmean(ability_scores.values())


def cognitive_age(stages: Mapping[int, float], mapping: AgeMapping = AGE_MAPPING) -> float | None:
    """Cognitive age in years, or ``None`` unless all four stages are scored."""
    if any(stage not in stages for stage in STAGES):
        return None
    return mapping(stages)


def stage_fractions(row: ReferenceRow) -> dict[int, float]:
    """Stage scores (fractions) of a published Table 9 row."""
    return stage_scores({code: value / 100.0 for code, value in row.abilities.items()})


def fit_age_mapping(rows: Iterable[ReferenceRow] | None = None) -> AgeMapping:
    """Fit the age mapping by least squares on Table 9 rows.

    Args:
        rows: Rows to fit; defaults to the table's 12 distinct rows.

    Returns:
        The fitted mapping (weights rounded to 3 decimals, as in ``AGE_MAPPING``).
    """
    chosen = list(rows if rows is not None else fit_rows())
    design = np.array([[stage_fractions(row)[s] for s in STAGES] + [1.0] for row in chosen])
    target = np.array([row.age for row in chosen])
    solution, *_ = np.linalg.lstsq(design, target, rcond=None)
    weights = tuple(round(float(w), 3) for w in solution[:4])
    return AgeMapping(stage_weights=weights, intercept=round(float(solution[4]), 3))  # type: ignore[arg-type]


@dataclass(frozen=True)
class ScoredItem:
    """One scored CogLM item.

    Attributes:
        ability: Ability code.
        num_choices: Number of distinct options (the chance level is one over it).
        correct: Whether the chosen option is the answer (False when invalid).
        valid: Whether a choice could be identified at all.
    """

    ability: str
    num_choices: int
    correct: bool
    valid: bool = True


def summarize(items: Iterable[ScoredItem]) -> dict[str, Any]:
    """Aggregate scored items into the report every frontend prints.

    Invalid items count as wrong and are reported in ``invalid``; none is dropped.

    Returns:
        ``{"abilities": {code: {"n", "accuracy", "calibrated_accuracy",
        "calibrated_accuracy_per_item", "invalid"}}, "stages": {"1": float, ...},
        "overall": float, "cognitive_age": float | None}``.
    """
    grouped: dict[str, list[ScoredItem]] = {}
    for item in items:
        if item.ability not in ABILITY_BY_CODE:
            raise ValueError(f"unknown ability code {item.ability!r}")
        grouped.setdefault(item.ability, []).append(item)
    if not grouped:
        raise ValueError("no scored items to summarize")
    abilities: dict[str, dict[str, Any]] = {}
    for ability in ABILITIES:
        scored = grouped.get(ability.code)
        if not scored:
            continue
        outcomes = [item.correct and item.valid for item in scored]
        counts = [item.num_choices for item in scored]
        abilities[ability.code] = {
            "n": len(scored),
            "accuracy": fmean(float(o) for o in outcomes),
            "calibrated_accuracy": calibrated_accuracy(outcomes, counts),
            "calibrated_accuracy_per_item": calibrated_accuracy_per_item(outcomes, counts),
            "invalid": sum(not item.valid for item in scored),
        }
    return assemble_summary(abilities)


def assemble_summary(abilities: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """Add stage scores, the overall score and the cognitive age to ability rows.

    Args:
        abilities: Per ability code, a row holding at least ``calibrated_accuracy``
            (other keys, such as ``n`` and ``accuracy``, are passed through).

    Returns:
        The report dict described in :func:`summarize`, abilities in canonical order.
    """
    if not abilities:
        raise ValueError("no ability scores to summarize")
    unknown = sorted(set(abilities) - set(ABILITY_BY_CODE))
    if unknown:
        raise ValueError(f"unknown ability code(s) {unknown}")
    ordered = {a.code: dict(abilities[a.code]) for a in ABILITIES if a.code in abilities}
    calibrated = {code: row["calibrated_accuracy"] for code, row in ordered.items()}
    stages = stage_scores(calibrated)
    return {
        "abilities": ordered,
        "stages": {str(stage): value for stage, value in stages.items()},
        "overall": overall_score(calibrated),
        "cognitive_age": cognitive_age(stages),
    }
