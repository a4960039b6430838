"""CogBench's headline numbers of one Inspect log: those of ``cogbench report``'s agent row."""

from __future__ import annotations

from inspect_ai.log import EvalLog

from cog_tasks.cogbench.inspect.logs import BENCHMARK, agent_row, checked_runs
from cog_tasks.cogbench.intervals import kappa_statistic
from cog_tasks.cogbench.metrics import KAPPA_UNDEFINED, subset_measure
from cog_tasks.cogbench.report import AgentCurves, no_valid_rating
from cog_tasks.common.headlines import Headline
from cog_tasks.common.stats import Interval

SELF_JUDGED = "self-judged: the model scored its own answers, not comparable with a judge's rows"
NO_HUMAN_AGREEMENT = (
    "judge-human agreement: not measured: no human scores (the authors' human Rationality "
    "scores are on the Hub only; cogbench score --judge-model measures it where they are)"
)


def _rationality_note(row: AgentCurves) -> str:
    """Who judged, agreement with humans, the judge's failures and the readable-only mean."""
    counts = row.counts
    readable = row.rationality_readable_avg
    return "; ".join(
        [
            *([SELF_JUDGED] if row.judge.startswith("self") else []),
            NO_HUMAN_AGREEMENT,
            f"{counts['judge_invalid']:g} of {counts['judge_asked']:g} judge replies unreadable "
            f"and {counts['no_reasoning']:g} answers without reasoning, each counted as 1; "
            "readable-only avg " + ("n/a" if readable is None else f"{readable:.3f}"),
        ]
    )


def headlines(log: EvalLog) -> list[Headline]:
    """The headline numbers of one successful CogBench log (Rationality's when judged)."""
    (run,) = checked_runs([log])
    row = agent_row(run)
    note = "; ".join([*row.notes, f"judge: {row.judge}"] if row.judge != "none" else row.notes)

    def headline(measure: str, interval: Interval, scale: str = "raw", extra: str = "") -> Headline:
        return Headline(
            BENCHMARK,
            subset_measure(measure, row.subset),
            interval,
            run.checked.identity,
            row.units.get(measure, {}),
            note="; ".join(part for part in (note, extra) if part),
            coverage=run.checked.coverage,
            scale=scale,
            statistic=kappa_statistic(run.weights) if scale == "kappa" else "",
        )

    replies = (
        f"{row.counts.get('truncated_replies', 0):g} replies cut at the token limit and "
        f"{row.counts.get('distill_failed', 0):g} failed distillations (all epochs)"
    )
    kappa_note = f"κ {KAPPA_UNDEFINED}; {replies}" if no_valid_rating(row) else replies
    found = [
        headline("authenticity_avg", row.authenticity_avg, "kappa", kappa_note),
        headline("invalid_rate", row.invalid_rate, extra=replies),
    ]
    if row.rationality_avg is not None and row.judge_invalid_rate is not None:
        found.append(headline("rationality_avg", row.rationality_avg, extra=_rationality_note(row)))
        found.append(headline("judge_invalid_rate", row.judge_invalid_rate))
    return found
