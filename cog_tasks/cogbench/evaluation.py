"""Score results stored in the authors' eval schema (``eval_cogbench_{a,v}.json``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from cog_tasks.cogbench.metrics import (
    IterationSummary,
    RatingTally,
    RationalityTally,
    WeightScheme,
    check_kappa_form,
    fleiss_kappa,
    iteration_value,
    judge_summaries,
    kappa_by_iteration,
    mean_pairwise_spearman,
    polarity,
    polarity_rating,
    pooled_tallies,
    summarize_iterations,
)
from cog_tasks.cogbench.rationality import (
    UNREADABLE,
    JudgeAgreement,
    JudgeItem,
    JudgeVerdict,
    judge_agreement,
    verdict_tally,
)
from cog_tasks.cogbench.records import (
    CogBenchRecord,
    MethodAnswer,
    QuestionnaireItem,
    RecordError,
    Trajectory,
)
from cog_tasks.cogbench.report import flagged
from cog_tasks.common.errors import UserError
from cog_tasks.common.params import ParameterError
from cog_tasks.common.results import CheckedRun, RunResults, UnitRecord, check_run
from cog_tasks.common.runs import RunIdentity


@dataclass(frozen=True)
class AnsweredItem:
    """One questionnaire item with one method's answer (``None`` if absent)."""

    record: CogBenchRecord
    item: QuestionnaireItem
    answer: MethodAnswer | None


def answered_items(
    records: Sequence[CogBenchRecord], method: str, source: str = "the file"
) -> list[AnsweredItem]:
    """Every item of the records with ``method``'s answer (a ``RecordError`` if it has none)."""
    methods = sorted({m for r in records for item in r.questionnaire for m in item.answers})
    if method not in methods:
        raise RecordError(
            f"no answers of method {method!r} in {source}; methods found: {methods or 'none'}"
        )
    return [
        AnsweredItem(record, item, item.answers.get(method))
        for record in records
        for item in record.questionnaire
    ]


def judge_items(items: Sequence[AnsweredItem]) -> list[JudgeItem]:
    """The answers as judge inputs: the stored (else initial) profile, the flows so far."""
    flows: dict[tuple[str, str], dict[int, str]] = {}
    for e in items:
        flows.setdefault(e.record.trajectory, {})[e.record.iteration] = e.record.information_flow
    return [
        JudgeItem(
            profile=(e.answer.profile if e.answer else "") or e.record.profile or {},
            flows=[
                f for t, f in sorted(flows[e.record.trajectory].items()) if t <= e.record.iteration
            ],
            question=e.item.question,
            rating=e.answer.rating if e.answer else None,
            reason=e.answer.reason if e.answer else "",
        )
        for e in items
    ]


def recorded_verdicts(items: Sequence[AnsweredItem]) -> list[JudgeVerdict | None] | None:
    """The verdicts kept in ``judge_rationality`` per item (``None`` if no item has one)."""
    verdicts = [entry.answer.judge if entry.answer else None for entry in items]
    return verdicts if any(verdict is not None for verdict in verdicts) else None


@dataclass(frozen=True)
class MethodScores:
    """Authenticity and Rationality of one method in one file."""

    method: str
    answers: int
    missing: int  # items without an answer of the method (counted as invalid)
    invalid: int
    unrated: int  # items without a human rating (left out of κ)
    authenticity: IterationSummary
    polarity: IterationSummary
    rationality: IterationSummary
    rationality_unset: int
    judge: IterationSummary | None = None  # mean per iteration, failures and no reasoning at 1
    judge_vs_human: JudgeAgreement | None = None
    checked: CheckedRun | None = None
    judge_readable: IterationSummary | None = None
    judge_asked: int = 0
    judge_invalid: int = 0
    no_reasoning: int = 0
    judge_missing: int = 0
    judge_source: str = ""


def _by_iteration(items: Sequence[AnsweredItem]) -> dict[int, list[AnsweredItem]]:
    grouped: dict[int, list[AnsweredItem]] = {}
    for entry in items:
        grouped.setdefault(entry.record.iteration, []).append(entry)
    return dict(sorted(grouped.items()))


def _ratings(
    group: Sequence[AnsweredItem], scale: Callable[[int | None], int | None] = lambda r: r
) -> tuple[list[int | None], list[int | None]]:
    """The human ratings of ``group`` and the method's, both through ``scale``."""
    human = [scale(e.item.human_rating) for e in group]
    return human, [scale(e.answer.rating if e.answer else None) for e in group]


def _mean(values: Sequence[int | None]) -> float | None:
    present = [v for v in values if v is not None]
    return sum(present) / len(present) if present else None


def file_results(
    method: str,
    items: Sequence[AnsweredItem],
    source: str,
    weights: WeightScheme = None,
    verdicts: Sequence[JudgeVerdict | None] | None = None,
    per_question: bool = False,
) -> CheckedRun:
    """One method's answers as a checked run per trajectory (judge reply, else rating unread)."""
    verdict_of = {} if verdicts is None else dict(zip(map(id, items), verdicts, strict=True))
    cells: dict[str, dict[int, list[AnsweredItem]]] = {}
    for entry in items:
        by_iteration = cells.setdefault(" / ".join(entry.record.trajectory), {})
        by_iteration.setdefault(entry.record.iteration, []).append(entry)
    records = []
    for unit, by_iteration in cells.items():
        values: dict[str, float] = {}
        status = "valid"
        for t, group in by_iteration.items():
            questions = [e.item.question for e in group]
            values.update(iteration_value(t, questions, *_ratings(group), weights, per_question))
            status = "invalid" if values[f"t{t}_invalid"] and status == "valid" else status
            if verdicts is not None:
                judged = [v for e in group if (v := verdict_of[id(e)]) is not None]
                values.update(verdict_tally(judged).to_value(t))
                if any(v.status == UNREADABLE for v in judged):
                    status = "judge_invalid"
        records.append(UnitRecord(unit, values, status=status))
    arguments = {"weights": weights, "judged": verdicts is not None}
    run = RunResults(
        "cogbench",
        RunIdentity.of(f"cogbench-file:{source}", method, arguments=arguments),
        "trajectory",
        tuple(records),
        dict.fromkeys(cells, ""),
        source,
        "an eval-schema file: one answer per item",
    )
    return check_run(run)


def score_method(
    method: str,
    items: Sequence[AnsweredItem],
    weights: WeightScheme = None,
    verdicts: Sequence[JudgeVerdict | None] | None = None,
    kappa: str = "pooled",
    source: str = "the file",
    judge_source: str = "",
) -> MethodScores:
    """The paper's numbers for one method (judge failures at 1, ``None`` verdicts left out)."""
    per_question = check_kappa_form(kappa) == "per_question"
    checked = file_results(method, items, source, weights, verdicts, per_question)
    groups = _by_iteration(items)
    tallies, judged = pooled_tallies(checked.values.values(), weights)
    rated = sum(tallies.values(), RatingTally(weights))
    polarity = {
        t: RatingTally.from_ratings(*_ratings(group, polarity_rating), weights).kappa()
        for t, group in groups.items()
    }
    humans = [e.answer.rationality if e.answer else None for e in items]
    rationality = {
        t: _mean([e.answer.rationality if e.answer else None for e in group])
        for t, group in groups.items()
    }
    judge = readable = agreement = None
    total = RationalityTally()
    if verdicts is not None:
        judge, readable, total = judge_summaries(judged)
        pairs = [(h, v.score) for h, v in zip(humans, verdicts, strict=True) if v is not None]
        agreement = judge_agreement([h for h, _ in pairs], [score for _, score in pairs])
    return MethodScores(
        method=method,
        answers=len(items),
        missing=sum(1 for e in items if e.answer is None),
        invalid=int(rated.invalid),
        unrated=int(rated.unrated),
        authenticity=summarize_iterations(
            kappa_by_iteration(checked.values.values(), weights, kappa, warn=False)
        ),
        polarity=summarize_iterations(polarity),
        rationality=summarize_iterations(rationality),
        rationality_unset=sum(1 for value in humans if value is None),
        judge=judge,
        judge_vs_human=agreement,
        checked=checked,
        judge_readable=readable,
        judge_asked=int(total.asked),
        judge_invalid=int(total.invalid),
        no_reasoning=int(total.no_reasoning),
        judge_missing=0 if verdicts is None else sum(v is None for v in verdicts),
        judge_source=judge_source if verdicts is not None else "",
    )


FOLLOWED_FEEDBACK: tuple[str, ...] = ("direction", "rating")
"""Feedback modes that a model-free follower can use (``none`` gives nothing to follow)."""

NEUTRAL = 3


def follower_tallies(
    trajectory: Trajectory, feedback: str, weights: WeightScheme = None
) -> dict[int, RatingTally]:
    """Tallies per later iteration of a model-free rater following ``rating`` or ``direction``."""
    if feedback not in FOLLOWED_FEEDBACK:
        raise ParameterError(
            f"no follower of feedback {feedback!r}; use one of {FOLLOWED_FEEDBACK}"
        )
    tallies: dict[int, RatingTally] = {}
    own = {question: NEUTRAL for question in trajectory.steps[0].questions}
    for previous, step in zip(trajectory.steps, trajectory.steps[1:], strict=False):
        earlier = dict(zip(previous.questions, previous.human_ratings, strict=True))
        if feedback == "rating":
            ratings: list[int | None] = [earlier.get(q) for q in step.questions]
        else:
            moved = {}
            for question, human in earlier.items():
                rating = own.get(question, NEUTRAL)
                if human is not None:
                    rating += (rating < human) - (rating > human)
                moved[question] = rating
            own = {q: moved.get(q, NEUTRAL) for q in step.questions}
            ratings = [own[q] for q in step.questions]
        tallies[step.iteration] = RatingTally.from_ratings(step.human_ratings, ratings, weights)
    return tallies


def copy_previous_tallies(
    trajectories: Sequence[Trajectory], weights: WeightScheme = None
) -> dict[int, RatingTally]:
    """Pooled tallies per later iteration of the ``rating`` follower (copy previous)."""
    tallies: dict[int, RatingTally] = {}
    for trajectory in trajectories:
        for iteration, tally in follower_tallies(trajectory, "rating", weights).items():
            tallies[iteration] = tallies.get(iteration, RatingTally(weights)) + tally
    return dict(sorted(tallies.items()))


HUMAN_RATER = "human_rating"


@dataclass(frozen=True)
class RaterAgreement:
    """Agreement among several raters of the same questionnaire items (paper's Table 4)."""

    raters: tuple[str, ...]
    scores: str
    items: int  # items every rater rated (the rows used)
    left_out: int
    fleiss: float
    fleiss_polarity: float
    spearman: float | None
    polarity_counts: dict[str, tuple[int, int, int]]
    coverage: dict[str, CheckedRun] = field(default_factory=dict)  # per rater, unit: trajectory


def _score_of(item: QuestionnaireItem, method: str, rationality: bool) -> int | None:
    """A rater's rating of an item, or its Rationality score of ``method``'s reasoning."""
    if method == HUMAN_RATER:
        if rationality:
            raise UserError("Rationality agreement needs FILE:METHOD raters (whose reasoning)")
        return item.human_rating
    if (answer := item.answers.get(method)) is None:
        return None
    return answer.rationality if rationality else answer.rating


def rater_agreement(
    raters: Sequence[tuple[str, Sequence[CogBenchRecord], str]], rationality: bool = False
) -> RaterAgreement:
    """Fleiss' κ, pairwise Spearman, polarity over items all ``(label, records, method)`` rated."""
    if len(raters) < 2:
        raise UserError(f"agreement needs at least two raters, got {len(raters)}")
    labels = [label for label, _, _ in raters]
    if len(set(labels)) < len(labels):
        raise UserError(f"rater labels must differ, got {labels}")
    columns: list[dict[tuple[str, int, str, str], int | None]] = []
    for _, records, method in raters:
        column = {}
        for record in records:
            for item in record.questionnaire:
                topic, name = record.trajectory
                key = (topic, record.iteration, name, item.question)
                column[key] = _score_of(item, method, rationality)
        columns.append(column)
    every_key = set().union(*columns)
    declared_keys: dict[str, set[str]] = {}
    for topic, iteration, name, question in every_key:
        declared_keys.setdefault(f"{topic} / {name}", set()).add(f"t{iteration} {question}")
    coverage = {
        label: check_run(
            RunResults(
                "cogbench",
                RunIdentity.of("cogbench-agreement", label, arguments={"method": method}),
                "trajectory",
                tuple(
                    UnitRecord(
                        f"{topic} / {name}",
                        {"score": float(score or 0)},
                        status="invalid" if score is None else "valid",
                        key=f"t{iteration} {question}",
                    )
                    for (topic, iteration, name, question), score in column.items()
                ),
                dict.fromkeys(sorted(declared_keys), ""),
                label,
                declared_keys=declared_keys,
            )
        )
        for (label, _, method), column in zip(raters, columns, strict=True)
    }
    shared = sorted(k for k in every_key if all(column.get(k) is not None for column in columns))
    if not shared:
        raise UserError("no questionnaire item is rated by every rater")
    rows = [[column[key] for column in columns] for key in shared]
    polar = [[polarity_rating(value) for value in row] for row in rows]
    counts = {}
    for index, (label, _, _) in enumerate(raters):
        groups = [polarity(row[index]) for row in rows]  # type: ignore[arg-type]
        counts[label] = (groups.count(-1), groups.count(0), groups.count(1))
    return RaterAgreement(
        raters=tuple(label for label, _, _ in raters),
        scores="rationality" if rationality else "ratings",
        items=len(shared),
        left_out=len(every_key) - len(shared),
        fleiss=fleiss_kappa(rows),  # type: ignore[arg-type]
        fleiss_polarity=fleiss_kappa(polar),  # type: ignore[arg-type]
        spearman=mean_pairwise_spearman(rows),  # type: ignore[arg-type]
        polarity_counts=counts,
        coverage=coverage,
    )


def format_agreement(agreement: RaterAgreement) -> str:
    """Human-readable agreement report."""
    lines = [
        f"raters: {', '.join(agreement.raters)} ({agreement.scores})",
        f"items scored by all: {agreement.items} (left out, unscored by some rater: "
        f"{agreement.left_out})",
        f"Fleiss kappa: {format_number(agreement.fleiss)}",
        f"Fleiss kappa (polarity 1-2 / 3 / 4-5): {format_number(agreement.fleiss_polarity)}",
        f"mean pairwise Spearman: {format_number(agreement.spearman)}",
        "polarity tallies (negative / neutral / positive):",
    ]
    lines.extend(
        f"  {label}: {negative} / {neutral} / {positive}"
        for label, (negative, neutral, positive) in agreement.polarity_counts.items()
    )
    lines.append("coverage per rater (unscored items are invalid):")
    for label, checked in agreement.coverage.items():
        gaps = checked.coverage.note(checked.run.unit, provenance=False) or "every item scored"
        lines.append(f"  {label}: {gaps}; {checked.coverage.provenance()}")
    return "\n".join(lines)


def format_number(value: float | None) -> str:
    """Three decimals, ``n/a`` for a missing value, never ``-0.000``."""
    return "n/a" if value is None else f"{value + 0.0:.3f}".replace("-0.000", "0.000")


def _summary_line(label: str, summary: IterationSummary) -> str:
    span = summary.averaged
    over = f"{span[0]}-{span[-1]}" if span else "-"
    average, fifth, tenth, first = (
        format_number(value)
        for value in (summary.average, summary.at(5), summary.at(10), summary.at(0))
    )
    line = f"{label:<24} avg({over}) {average}  5th {fifth}  10th {tenth}  0th {first}"
    if summary.undefined:
        line += f"  (undefined at iterations {summary.undefined})"
    return line


def format_scores(scores: MethodScores, source: str) -> str:
    """Human-readable report in the spirit of the authors' script."""
    lines = [
        f"======= {scores.method} on {source} =======",
        _summary_line("Authenticity (kappa)", scores.authenticity),
        _summary_line("Authenticity (polarity)", scores.polarity),
        _summary_line("Rationality (human)", scores.rationality),
    ]
    if scores.judge is not None:
        lines.append(_summary_line("Rationality (judge)", scores.judge))
        if scores.judge_readable is not None:
            lines.append(_summary_line("  readable scores only", scores.judge_readable))
        lines.append(f"  judge: {scores.judge_source or 'unnamed'}")
        lines.append(
            f"  judge replies unreadable {scores.judge_invalid} of {scores.judge_asked} asked, "
            f"answers without reasoning {scores.no_reasoning}: each counted as 1 above"
        )
        if scores.judge_missing:
            lines.append(
                f"  answers without a judge verdict {scores.judge_missing}: left out above"
            )
    if scores.judge_vs_human is not None:
        agreement = scores.judge_vs_human
        lines.append(
            f"Judge vs human Rationality: Spearman {format_number(agreement.spearman)}, "
            f"exact agreement {format_number(agreement.exact)}, kappa "
            f"{format_number(agreement.kappa)} on {agreement.pairs} answers with a human "
            f"score ({agreement.judge_invalid} of them without a readable judge score)"
        )
    lines.append(
        f"answers {scores.answers}: invalid ratings {scores.invalid} (of which missing "
        f"{scores.missing}), no human rating {scores.unrated}, no human Rationality "
        f"{scores.rationality_unset}"
    )
    if scores.checked is not None:
        lines.append(f"coverage {flagged(scores.checked.coverage)}")
    return "\n".join(lines)
