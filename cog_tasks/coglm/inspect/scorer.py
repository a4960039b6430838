"""Scorer and metrics of the CogLM chat protocol; the headlines are named as the profile's."""

from __future__ import annotations

from collections.abc import Sequence
from statistics import fmean

from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, Value, metric, scorer
from inspect_ai.solver import TaskState

from cog_tasks.coglm.extract import DEFAULT_EXTRACTOR, LETTERS, get_extractor
from cog_tasks.coglm.headlines import CHAT_POOLED, OVERALL, stage_measure
from cog_tasks.coglm.inspect.solvers import SAMPLES_STORE_KEY, vote_on
from cog_tasks.coglm.metrics import (
    calibrated_accuracy,
    calibrated_interval,
    cognitive_age,
    stage_scores,
    summary_intervals,
)
from cog_tasks.coglm.records import UPSTREAM_ITEM_COUNTS
from cog_tasks.common.stats import Interval, metric_values

SCORER = "coglm_scorer"
"""The name ``coglm_chat``'s scores are logged under."""


def score_value(value: Value, key: str) -> float:
    """One number of a sample's ``Score.value`` (``acc`` is ``correct`` in logs before 1.1)."""
    if key == "acc" and isinstance(value, dict) and "acc" not in value:
        key = "correct"
    return float(value[key])  # type: ignore[index]


def _key(scores: Sequence[SampleScore], key: str) -> list[float]:
    return [score_value(score.score.value, key) for score in scores]


def _chance_counts(scores: Sequence[SampleScore]) -> list[int]:
    """Option counts under the task's chance rule (``chance_options``; older logs: listed)."""
    metadata = [score.sample_metadata or {} for score in scores]
    return [int(sample.get("chance_options") or sample["num_choices"]) for sample in metadata]


def _calibrated(scores: Sequence[SampleScore]) -> float:
    return calibrated_accuracy(_key(scores, "acc"), _chance_counts(scores))


@metric
def coglm_summary() -> Metric:
    """The headlines (pooled first), per-ability rates, intervals, tie rate and partial flag."""

    def compute(scores: list[SampleScore]) -> Value:
        if not scores:  # every sample errored: no number, and never a NaN in the log
            return {}
        abilities = [(score.sample_metadata or {})["ability"] for score in scores]
        by_ability: dict[str, list[SampleScore]] = {}
        for score, ability in zip(scores, abilities, strict=True):
            by_ability.setdefault(ability, []).append(score)
        per_ability = {code: _calibrated(group) for code, group in by_ability.items()}
        stages = stage_scores(per_ability)
        intervals = summary_intervals(abilities, _key(scores, "acc"), _chance_counts(scores))
        pooled = calibrated_interval(_key(scores, "acc"), _chance_counts(scores))
        summary = metric_values(CHAT_POOLED, pooled)
        summary[OVERALL] = fmean(per_ability.values())
        _add_interval(summary, OVERALL, intervals.overall)
        for stage, value in stages.items():
            summary[stage_measure(stage)] = value
            _add_interval(summary, stage_measure(stage), intervals.stages[stage])
        for code, group in by_ability.items():
            summary[f"{code}_calibrated_acc"] = per_ability[code]
            _add_interval(summary, f"{code}_calibrated_acc", intervals.abilities[code])
            summary[f"{code}_acc"] = fmean(_key(group, "acc"))
            summary[f"{code}_invalid"] = fmean(_key(group, "invalid"))
        summary["acc"] = fmean(fmean(_key(group, "acc")) for group in by_ability.values())
        summary["invalid"] = fmean(fmean(_key(group, "invalid")) for group in by_ability.values())
        age = cognitive_age(stages)
        if age is not None and intervals.cognitive_age is not None:
            summary["cognitive_age"] = age
            _add_interval(summary, "cognitive_age", intervals.cognitive_age)
        summary["tie_rate"] = fmean(_key(scores, "tie"))
        summary["partial_run"] = float(
            set(by_ability) != set(UPSTREAM_ITEM_COUNTS)
            or any(len(group) < UPSTREAM_ITEM_COUNTS[code] for code, group in by_ability.items())
        )
        return summary

    return compute


def _add_interval(summary: dict[str, float], key: str, interval: Interval) -> None:
    """The interval's keys beside ``summary[key]`` (never a NaN: :func:`metric_values`)."""
    summary.update({k: v for k, v in metric_values(key, interval).items() if k != key})


@scorer(metrics=[coglm_summary()])
def coglm_scorer(extractor: str = DEFAULT_EXTRACTOR) -> Scorer:
    """Extract the chosen option (self-consistency: the vote) and compare it with the target."""
    read = get_extractor(extractor)

    async def score(state: TaskState, target: Target) -> Score:
        choices = [choice.value for choice in state.choices]
        completions = state.store.get(SAMPLES_STORE_KEY) or [state.output.completion]
        picks, vote = vote_on(completions, choices, read)
        answer = LETTERS.index(target.text)
        chosen = "" if vote.choice is None else LETTERS[vote.choice]
        metadata: dict[str, object] = {"invalid_samples": vote.invalid, "extractor": extractor}
        if len(completions) > 1:
            metadata["picks"] = [None if pick is None else LETTERS[pick] for pick in picks]
            metadata["votes"] = {LETTERS[option]: count for option, count in vote.counts.items()}
        return Score(
            value={
                "acc": float(vote.choice == answer),
                "invalid": float(vote.choice is None),
                "tie": float(vote.tie),
            },
            answer=chosen,
            explanation=state.output.completion,
            metadata=metadata,
        )

    return score
