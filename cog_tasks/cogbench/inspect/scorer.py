"""Scorer and metrics: pooled Authenticity κ (from additive tallies) and judged Rationality."""

from __future__ import annotations

from collections import Counter
from typing import Any

from inspect_ai.model import get_model
from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, metric, scorer
from inspect_ai.solver import TaskState

from cog_tasks.cogbench.inspect.solver import (
    JUDGE_ROLE,
    STORE_KEY,
    ModelGenerator,
    check_judge_role,
    iteration_lines,
)
from cog_tasks.cogbench.intervals import (
    UnitTallies,
    authenticity_interval,
    merge_units,
    rationality_interval,
)
from cog_tasks.cogbench.metrics import (
    RatingTally,
    WeightScheme,
    check_kappa_form,
    check_weights,
    iteration_value,
    judge_summaries,
    kappa_by_iteration,
    pooled_tallies,
    subset_measure,
    summarize_iterations,
)
from cog_tasks.cogbench.rationality import (
    JUDGED,
    NO_REASONING,
    UNREADABLE,
    JudgeItem,
    judge_answers,
    verdict_tally,
)
from cog_tasks.cogbench.records import Trajectory
from cog_tasks.common.stats import metric_values


def _values(scores: list[SampleScore]) -> list[dict[str, float]]:
    return [s.score.value for s in scores if isinstance(s.score.value, dict)]  # type: ignore[misc]


def _units(scores: list[SampleScore], weights: WeightScheme) -> dict[str, UnitTallies]:
    """Each trajectory's tallies (epochs added up): the unit the intervals resample."""
    return merge_units(
        (str(sample.sample_id), UnitTallies.from_value(sample.score.value, weights))  # type: ignore[arg-type]
        for sample in scores
        if isinstance(sample.score.value, dict)
    )


@metric
def authenticity(weights: str | None = None, kappa: str = "pooled", subset: str = "a") -> Metric:
    """Cohen's κ per iteration: average over 1-10 (with interval), 0th, 5th, 10th; invalid rate."""
    scheme = check_weights(weights)
    check_kappa_form(kappa)

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        values = _values(scores)
        ratings, _ = pooled_tallies(values, scheme)
        summary = summarize_iterations(kappa_by_iteration(values, scheme, kappa))
        result = summary.headline("authenticity", subset)
        if (average := subset_measure("authenticity_avg", subset)) in result:
            interval = authenticity_interval(list(_units(scores, scheme).values()), kappa)
            result = metric_values(average, interval) | result
        total = sum(ratings.values(), RatingTally(scheme))
        invalid = total.invalid / total.pairs if total.pairs else 0.0
        result[subset_measure("invalid_rate", subset)] = invalid
        return result

    return compute


@metric
def rationality(subset: str = "a") -> Metric:
    """Mean judged Rationality (failures at 1; ``*_readable_*``: readable scores alone)."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        _, judged = pooled_tallies(_values(scores))
        if not any(tally.scored for tally in judged.values()):
            return {}
        summary, readable, total = judge_summaries(judged)
        result = summary.headline("rationality", subset)
        if (average := subset_measure("rationality_avg", subset)) in result:
            interval = rationality_interval(list(_units(scores, None).values()))
            result = metric_values(average, interval) | result
        result.update(readable.headline("rationality_readable"))
        invalid = total.invalid / total.asked if total.asked else 0.0
        result[subset_measure("judge_invalid_rate", subset)] = invalid
        result["no_reasoning_rate"] = total.no_reasoning / total.scored
        return result

    return compute


def judge_inputs(trajectory: Trajectory, records: list[dict[str, Any]]) -> list[JudgeItem]:
    """Judge inputs for every answer, in order: the profile held then, the flows so far."""
    return [
        JudgeItem(
            profile=record.get("state", {}).get("profile") or trajectory.profile,
            flows=[
                s.information_flow for s in trajectory.steps if s.iteration <= record["iteration"]
            ],
            question=answer["question"],
            rating=answer["rating"],
            reason=answer["reason"],
        )
        for record in records
        for answer in record["answers"]
    ]


TRUNCATED_STEPS: tuple[str, ...] = ("distill", "update", "reflection", "answer")


def score_metadata(counts: Counter[str], judged: list[dict[str, Any]] | None) -> dict[str, Any]:
    """A trajectory's counts (truncations, failed distillations, verdict statuses) and verdicts."""
    by_step = {step: counts[step] for step in TRUNCATED_STEPS}
    metadata: dict[str, Any] = {
        "truncated_replies": sum(by_step.values()),
        "truncated_by_step": by_step,
        "distill_failed": counts["distill_failed"],
    }
    if judged is not None:
        metadata.update(
            rationality=judged,
            judge_asked=counts[JUDGED] + counts[UNREADABLE],
            judge_invalid=counts[UNREADABLE],
            no_reasoning=counts[NO_REASONING],
        )
    return metadata


@scorer(metrics=[authenticity(), rationality()])
def cogbench_scorer(
    judge: bool = True,
    weights: str | None = None,
    kappa: str = "pooled",
    self_judge: bool = False,
    judge_chars: int | None = None,
) -> Scorer:
    """Tally ratings against humans' and, with ``judge``, judge the reasoning (role ``judge``)."""
    scheme: WeightScheme = check_weights(weights)
    per_question = check_kappa_form(kappa) == "per_question"

    async def score(state: TaskState, target: Target) -> Score:
        records: list[dict[str, Any]] = state.store.get(STORE_KEY, [])
        trajectory = Trajectory.from_metadata(state.metadata)
        verdicts = []
        if judge:
            check_judge_role(self_judge)
            generator = ModelGenerator(get_model() if self_judge else get_model(role=JUDGE_ROLE))
            verdicts = await judge_answers(
                generator, judge_inputs(trajectory, records), context_chars=judge_chars
            )
        value: dict[str, float] = {}
        judged: list[dict[str, Any]] = []
        counts = Counter[str]()
        cursor = 0
        for record in records:
            answers, iteration = record["answers"], record["iteration"]
            value.update(
                iteration_value(
                    iteration,
                    [a["question"] for a in answers],
                    [a["human_rating"] for a in answers],
                    [a["rating"] for a in answers],
                    scheme,
                    per_question,
                )
            )
            counts.update(record.get("truncated", []))
            counts["distill_failed"] += record.get("perception", {}).get("distill_failed", 0)
            if judge:
                batch = verdicts[cursor : cursor + len(answers)]
                cursor += len(answers)
                counts.update(v.status for v in batch)
                value.update(verdict_tally(batch).to_value(iteration))
                judged.append(
                    {
                        "iteration": iteration,
                        "scores": [v.recorded() for v in batch],
                        "replies": [v.raw for v in batch],
                    }
                )
        return Score(
            value=value,
            answer=iteration_lines(records),
            explanation="Per iteration: agent ratings | human ratings ('?' = no readable rating).",
            metadata=score_metadata(counts, judged if judge else None),
        )

    return score
