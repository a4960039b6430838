"""Scorer and metrics: pooled Authenticity κ and judged Rationality per iteration.

``Score.value`` holds additive per-iteration tallies (see
:mod:`cog_tasks.cogbench.metrics`): rating marginals, disagreements and
invalid counts, plus judge score sums. Means of these over epochs keep the
pooled κ exact, so ``--epochs`` works with the default mean reducer; the
metrics sum them over samples and compute κ per iteration, as the authors'
script pools all questions of an iteration.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from inspect_ai.model import get_model, model_roles
from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, metric, scorer
from inspect_ai.solver import TaskState

from cog_tasks.cogbench.inspect.solver import (
    JUDGE_ROLE,
    MISSING_JUDGE,
    STORE_KEY,
    ModelGenerator,
    summary_line,
)
from cog_tasks.cogbench.intervals import (
    UnitTallies,
    authenticity_interval,
    merge_units,
    rationality_interval,
)
from cog_tasks.cogbench.metrics import (
    RatingTally,
    RationalityTally,
    WeightScheme,
    check_kappa_form,
    check_weights,
    per_question_kappa,
    pooled_tallies,
    summarize_iterations,
)
from cog_tasks.cogbench.rationality import (
    JUDGED,
    NO_REASONING,
    UNREADABLE,
    JudgeItem,
    judge_answers,
)
from cog_tasks.cogbench.records import Trajectory
from cog_tasks.common.errors import UserError
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


def authenticity_by_iteration(
    values: list[dict[str, float]], weights: WeightScheme, kappa: str
) -> dict[int, float | None]:
    """κ per iteration, pooled (authors' code) or averaged per question (paper's Eq. 2)."""
    if kappa == "per_question":
        return per_question_kappa(values, weights)
    ratings, _ = pooled_tallies(values, weights)
    return {t: tally.kappa() for t, tally in ratings.items()}


@metric
def authenticity(weights: str | None = None, kappa: str = "pooled") -> Metric:
    """Cohen's κ per iteration: average over 1-10, 0th, 5th and 10th, and invalid rate.

    The average comes first, with its 95 % interval over trajectories
    (:func:`~cog_tasks.common.stats.metric_values`: no NaN in the log).

    Args:
        weights: κ weighting the scorer tallied with (``None``, linear, quadratic).
        kappa: ``pooled`` over all questions of an iteration (the authors'
            code) or ``per_question`` (the paper's Eq. 2).
    """
    scheme = check_weights(weights)
    check_kappa_form(kappa)

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        values = _values(scores)
        ratings, _ = pooled_tallies(values, scheme)
        summary = summarize_iterations(authenticity_by_iteration(values, scheme, kappa))
        result = summary.headline("authenticity")
        if "authenticity_avg" in result:
            interval = authenticity_interval(list(_units(scores, scheme).values()), kappa)
            result = metric_values("authenticity_avg", interval) | result
        pairs = sum(tally.pairs for tally in ratings.values())
        invalid = sum(tally.invalid for tally in ratings.values())
        result["invalid_rate"] = invalid / pairs if pairs else 0.0
        return result

    return compute


@metric
def rationality() -> Metric:
    """Mean judged Rationality per iteration: average over 1-10, 0th, 5th and 10th.

    The average counts every unreadable judge reply and every answer without
    reasoning as 1 (the floor) and carries its 95 % interval over
    trajectories (:func:`~cog_tasks.common.stats.metric_values`);
    ``rationality_readable_avg`` (and ``_t0``, ``_t5``, ``_t10``) is the same
    mean over the judge's readable scores alone. ``judge_invalid_rate`` is
    the share of unreadable replies among the answers the judge was asked
    about, ``no_reasoning_rate`` the share of answers left without reasoning.
    """

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        _, judged = pooled_tallies(_values(scores))
        if not any(tally.scored for tally in judged.values()):
            return {}
        summary = summarize_iterations({t: tally.mean() for t, tally in judged.items()})
        result = summary.headline("rationality")
        if "rationality_avg" in result:
            interval = rationality_interval(list(_units(scores, None).values()))
            result = metric_values("rationality_avg", interval) | result
        readable = summarize_iterations({t: tally.readable_mean() for t, tally in judged.items()})
        result.update(readable.headline("rationality_readable"))
        total = sum(judged.values(), RationalityTally())
        result["judge_invalid_rate"] = total.invalid / total.asked if total.asked else 0.0
        result["no_reasoning_rate"] = total.no_reasoning / total.scored
        return result

    return compute


def judge_inputs(trajectory: Trajectory, records: list[dict[str, Any]]) -> list[JudgeItem]:
    """Judge inputs for every answer of every iteration, in order.

    Each answer is judged with the same kind of context whatever the agent:
    the profile it held then (CogGPT's updated one) and the flows up to that
    iteration.
    """
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
    """A trajectory's counts for reports, and the judge's verdicts when it was judged.

    Args:
        counts: Replies cut at the token limit per step (``distill``...),
            ``distill_failed`` and, when judged, the verdict statuses.
        judged: Per iteration, the judge's recorded scores and replies.

    Returns:
        ``truncated_replies`` (all steps), ``truncated_by_step``,
        ``distill_failed`` and, when judged, ``rationality``,
        ``judge_asked`` (answers the judge was asked about), ``judge_invalid``
        (its replies without a readable score) and ``no_reasoning`` (answers
        given 1 without a judge call).
    """
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
    """Tally ratings against human ratings and, optionally, judge the reasoning.

    The judge is the model bound to the ``judge`` role
    (``--model-role judge=...``), or the evaluated model with ``self_judge``.

    Args:
        judge: Whether to score Rationality.
        self_judge: The evaluated model judges itself (refused with a judge role bound).
        judge_chars: Bound on the flows the judge sees, in characters (``None``: all, whole).
        weights: κ weighting (``None`` as in the paper, ``linear``, ``quadratic``).
        kappa: ``per_question`` also tallies every question apart (the
            paper's Eq. 2); ``pooled`` (default) does not need that.

    Returns:
        The scorer.
    """
    scheme: WeightScheme = check_weights(weights)
    per_question = check_kappa_form(kappa) == "per_question"

    async def score(state: TaskState, target: Target) -> Score:
        records: list[dict[str, Any]] = state.store.get(STORE_KEY, [])
        trajectory = Trajectory.from_metadata(state.metadata)
        verdicts = []
        if judge:
            bound = JUDGE_ROLE in model_roles()
            if bound == self_judge:
                raise UserError(
                    "-T self_judge=true and --model-role judge both name a judge; give one"
                    if bound
                    else MISSING_JUDGE
                )
            generator = ModelGenerator(get_model() if self_judge else get_model(role=JUDGE_ROLE))
            verdicts = await judge_answers(
                generator, judge_inputs(trajectory, records), context_chars=judge_chars
            )
        value: dict[str, float] = {}
        judged: list[dict[str, Any]] = []
        counts = Counter[str]()
        cursor = 0
        for record in records:
            answers = record["answers"]
            tally = RatingTally.from_ratings(
                [a["human_rating"] for a in answers], [a["rating"] for a in answers], scheme
            )
            value.update(tally.to_value(record["iteration"]))
            if per_question:
                for answer in answers:
                    single = RatingTally.from_ratings(
                        [answer["human_rating"]], [answer["rating"]], scheme
                    )
                    value.update(single.to_value(record["iteration"], answer["question"]))
            counts.update(record.get("truncated", []))
            counts["distill_failed"] += record.get("perception", {}).get("distill_failed", 0)
            if judge:
                batch = verdicts[cursor : cursor + len(answers)]
                cursor += len(answers)
                statuses = Counter(v.status for v in batch)
                counts.update(statuses)
                tally = RationalityTally.from_scores(
                    [v.score for v in batch], statuses[NO_REASONING]
                )
                value.update(tally.to_value(record["iteration"]))
                judged.append(
                    {
                        "iteration": record["iteration"],
                        "scores": [v.recorded() for v in batch],
                        "replies": [v.raw for v in batch],
                    }
                )
        return Score(
            value=value,
            answer="\n".join(summary_line(record) for record in records),
            explanation="Per iteration: agent ratings | human ratings ('?' = no readable rating).",
            metadata=score_metadata(counts, judged if judge else None),
        )

    return score
