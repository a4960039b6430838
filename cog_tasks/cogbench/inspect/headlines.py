"""CogBench's headline numbers of one Inspect log, for the cross-benchmark profile.

The log is read into the shared results model and checked
(:func:`cog_tasks.cogbench.inspect.logs.checked_runs`); the headlines are the
numbers of ``cogbench report``'s agent row (:func:`agent_row`), so the
profile and the report show the same numbers over the same trajectories.
Per subset (``a`` articles, ``v`` short videos): Authenticity averaged over
iterations 1 and above (the paper's Table 2 "avg.", κ scale), the share of
ratings that stayed unreadable and, when the run was judged, Rationality
averaged likewise (Table 3 "avg.", every unreadable judge reply and every
answer without reasoning at the floor, 1; the note gives their counts and the
mean over readable scores alone) and the share of unreadable judge replies.
The Authenticity and invalid-rate notes count the replies cut at their token
limit and CogGPT's failed distillations.
Every headline carries the run's coverage; unit ids are the trajectory ids
(``<subset>-<topic>-<profile>``), the same for every model.
"""

from __future__ import annotations

from inspect_ai.log import EvalLog

from cog_tasks.cogbench.inspect.logs import BENCHMARK, agent_row, checked_runs
from cog_tasks.cogbench.metrics import KAPPA_UNDEFINED
from cog_tasks.cogbench.report import AgentCurves, no_valid_rating
from cog_tasks.common.headlines import Headline
from cog_tasks.common.stats import Interval

SELF_JUDGED = "self-judged: the model scored its own answers, not comparable with a judge's rows"
NO_HUMAN_AGREEMENT = (
    "judge-human agreement: not measured: no human scores (the authors' human Rationality "
    "scores are on the Hub only; cogbench score --judge-model measures it where they are)"
)


def _rationality_note(row: AgentCurves) -> str:
    """Who judged, how far the judge agrees with humans, its failures and the readable-only mean."""
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


def _replies_note(row: AgentCurves) -> str:
    """The replies cut at their token limit and the failed distillations, over every epoch."""
    counts = row.counts
    return (
        f"{counts.get('truncated_replies', 0):g} replies cut at the token limit and "
        f"{counts.get('distill_failed', 0):g} failed distillations (all epochs)"
    )


def headlines(log: EvalLog) -> list[Headline]:
    """The headline numbers of one successful CogBench log.

    Args:
        log: A full log of ``cog_tasks/cogbench`` (with samples).

    Returns:
        ``authenticity_avg_<subset>`` (κ scale), ``invalid_rate_<subset>``
        and, when the run was judged, ``rationality_avg_<subset>`` and
        ``judge_invalid_rate_<subset>`` (raw scale), each with the run's coverage.

    Raises:
        cog_tasks.common.results.ResultsError: From the shared checks.
    """
    (run,) = checked_runs([log])
    row = agent_row(run)
    notes = [*row.notes, f"judge: {row.judge}"] if row.judge != "none" else list(row.notes)
    note = "; ".join(notes)

    def headline(measure: str, interval: Interval, scale: str = "raw", extra: str = "") -> Headline:
        return Headline(
            BENCHMARK,
            f"{measure}_{row.subset}",
            interval,
            run.checked.identity,
            row.units.get(measure, {}),
            note="; ".join(part for part in (note, extra) if part),
            coverage=run.checked.coverage,
            scale=scale,
        )

    replies = _replies_note(row)
    kappa_note = f"κ {KAPPA_UNDEFINED}; {replies}" if no_valid_rating(row) else replies
    found = [
        headline("authenticity_avg", row.authenticity_avg, "kappa", kappa_note),
        headline("invalid_rate", row.invalid_rate, extra=replies),
    ]
    if row.rationality_avg is not None and row.judge_invalid_rate is not None:
        found.append(headline("rationality_avg", row.rationality_avg, extra=_rationality_note(row)))
        found.append(headline("judge_invalid_rate", row.judge_invalid_rate))
    return found
