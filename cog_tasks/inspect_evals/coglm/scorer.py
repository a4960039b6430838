"""Scorer and metrics of the CogLM chat protocol.

Each sample's ``Score.value`` is a dict of numbers, ``correct`` (1 when the
extracted option is the answer), ``invalid`` (1 when no option could be
extracted; such an answer is also wrong) and ``tie`` (1 when a
self-consistency vote was tied). With ``--epochs`` Inspect's reducer (mean by
default) averages these per sample, and the metrics below work on the
averages: pooled calibrated accuracy is linear in accuracy, so the result
equals the calibrated accuracy over all epochs' answers.
"""

from __future__ import annotations

from collections.abc import Sequence
from statistics import fmean

from inspect_ai.scorer import (
    Metric,
    SampleScore,
    Score,
    Scorer,
    Target,
    Value,
    grouped,
    metric,
    scorer,
)
from inspect_ai.solver import TaskState

from cog_tasks.coglm.extract import LETTERS
from cog_tasks.inspect_evals.coglm.solvers import SAMPLES_STORE_KEY, vote_on
from cog_tasks.metrics.coglm import (
    calibrated_accuracy,
    cognitive_age,
    overall_score,
    stage_scores,
)


def _key(scores: Sequence[SampleScore], key: str) -> list[float]:
    return [float(score.score.value[key]) for score in scores]  # type: ignore[index]


def _metadata(scores: Sequence[SampleScore], key: str) -> list:
    return [(score.sample_metadata or {})[key] for score in scores]


def _calibrated(scores: Sequence[SampleScore]) -> float:
    return calibrated_accuracy(_key(scores, "correct"), _metadata(scores, "num_distinct_choices"))


@metric
def choice_accuracy() -> Metric:
    """Fraction of answers that chose the right option (invalid ones count as wrong)."""

    def compute(scores: list[SampleScore]) -> Value:
        return fmean(_key(scores, "correct"))

    return compute


@metric
def calibrated_choice_accuracy() -> Metric:
    """Pooled calibrated accuracy ``(acc - c) / (1 - c)``; 0 is chance level."""

    def compute(scores: list[SampleScore]) -> Value:
        return _calibrated(scores)

    return compute


@metric
def invalid_rate() -> Metric:
    """Fraction of answers from which no option could be extracted."""

    def compute(scores: list[SampleScore]) -> Value:
        return fmean(_key(scores, "invalid"))

    return compute


@metric
def coglm_summary() -> Metric:
    """Stage scores, overall calibrated accuracy, cognitive age and overall rates.

    Stage ``k`` is the mean calibrated accuracy of its abilities, overall the
    mean over abilities; the cognitive age is reported only when all four
    stages are present.
    """

    def compute(scores: list[SampleScore]) -> Value:
        if not scores:
            return {"overall_calibrated": float("nan")}
        by_ability: dict[str, list[SampleScore]] = {}
        for score, ability in zip(scores, _metadata(scores, "ability"), strict=True):
            by_ability.setdefault(ability, []).append(score)
        per_ability = {code: _calibrated(group) for code, group in by_ability.items()}
        stages = stage_scores(per_ability)
        summary: dict[str, float] = {
            f"stage{stage}_calibrated": value for stage, value in stages.items()
        }
        summary["overall_calibrated"] = overall_score(per_ability)
        age = cognitive_age(stages)
        if age is not None:
            summary["cognitive_age"] = age
        summary["accuracy"] = fmean(_key(scores, "correct"))
        summary["invalid_rate"] = fmean(_key(scores, "invalid"))
        summary["tie_rate"] = fmean(_key(scores, "tie"))
        return summary

    return compute


@scorer(
    metrics=[
        grouped(choice_accuracy(), "ability", all=False, name_template="{group_name}_accuracy"),
        grouped(
            calibrated_choice_accuracy(),
            "ability",
            all=False,
            name_template="{group_name}_calibrated",
        ),
        grouped(invalid_rate(), "ability", all=False, name_template="{group_name}_invalid"),
        coglm_summary(),
    ]
)
def coglm_scorer() -> Scorer:
    """Extract the chosen option with the shared extractor and compare it with the target.

    With self-consistency the option is the majority vote over the sampled
    completions (see :mod:`cog_tasks.coglm.voting` for ties).
    """

    async def score(state: TaskState, target: Target) -> Score:
        choices = [choice.value for choice in state.choices]
        completions = state.store.get(SAMPLES_STORE_KEY) or [state.output.completion]
        picks, vote = vote_on(completions, choices)
        answer = LETTERS.index(target.text)
        chosen = "" if vote.choice is None else LETTERS[vote.choice]
        metadata: dict[str, object] = {"invalid_samples": vote.invalid}
        if len(completions) > 1:
            metadata["picks"] = [None if pick is None else LETTERS[pick] for pick in picks]
            metadata["votes"] = {LETTERS[option]: count for option, count in vote.counts.items()}
        return Score(
            value={
                "correct": float(vote.choice == answer),
                "invalid": float(vote.choice is None),
                "tie": float(vote.tie),
            },
            answer=chosen,
            explanation=state.output.completion,
            metadata=metadata,
        )

    return score
