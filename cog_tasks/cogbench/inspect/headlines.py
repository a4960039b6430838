"""CogBench's headline numbers of one Inspect log, for reports and the cross-benchmark profile.

Per subset (``a`` articles, ``v`` short videos): Authenticity averaged over
iterations 1 and above (the paper's Table 2 "avg."), the judge's Rationality
averaged likewise (Table 3 "avg.", when the run was judged) and the share of
ratings that stayed unreadable. Every interval is bootstrapped over
trajectories (:mod:`cog_tasks.cogbench.intervals`); unit ids are the
trajectory ids (``<subset>-<topic>-<profile>``), the same for every model.
"""

from __future__ import annotations

from inspect_ai.log import EvalLog

from cog_tasks.cogbench.intervals import (
    UNIT,
    UnitTallies,
    authenticity_interval,
    invalid_share_units,
    merge_units,
    rationality_interval,
    rationality_units,
)
from cog_tasks.cogbench.metrics import check_weights
from cog_tasks.common.headlines import Headline
from cog_tasks.common.logs import run_identity
from cog_tasks.common.stats import ratio_interval

BENCHMARK = "cogbench"
SCORER = "cogbench_scorer"
NOT_MEASUREMENT = ("memory_dir",)
"""Task arguments left out of a run's identity (where memory is kept changes nothing)."""

FIXTURE_NOTE = "fixture data: the bundled sample set, whose ratings are not human ratings"


def log_units(log: EvalLog) -> dict[str, UnitTallies]:
    """Each trajectory's tallies (epochs added up), keyed by sample id, in log order."""
    weights = check_weights((log.eval.task_args or {}).get("weights"))
    pairs = []
    for sample in log.samples or []:
        score = (sample.scores or {}).get(SCORER)
        if score is not None and isinstance(score.value, dict):
            pairs.append((str(sample.id), UnitTallies.from_value(score.value, weights)))
    return merge_units(pairs)


def judge_label(log: EvalLog) -> str:
    """Who judged Rationality: the ``judge`` role's model, ``self`` or ``none``."""
    args = log.eval.task_args or {}
    if not args.get("judge", True):
        return "none"
    roles = log.eval.model_roles or {}
    if "judge" in roles:
        return roles["judge"].model
    return f"self ({log.eval.model})"


def log_notes(log: EvalLog) -> str:
    """What a reader of the log's numbers must know (fixture data, who judged)."""
    notes = []
    if (log.eval.metadata or {}).get("fixture_ratings"):
        notes.append(FIXTURE_NOTE)
    judge = judge_label(log)
    if judge != "none":
        notes.append(f"judge: {judge}")
    return "; ".join(notes)


def headlines(log: EvalLog) -> list[Headline]:
    """The headline numbers of one successful CogBench log.

    Args:
        log: A full log of ``cog_tasks/cogbench`` (with samples).

    Returns:
        ``authenticity_avg_<subset>``, ``invalid_rate_<subset>`` and, when the
        run was judged, ``rationality_avg_<subset>``.
    """
    args = log.eval.task_args or {}
    subset = str(args.get("subset", "a"))
    units = log_units(log)
    listed = list(units.values())
    run = run_identity(log, ignore=NOT_MEASUREMENT)
    note = log_notes(log)
    found = [
        Headline(
            BENCHMARK,
            f"authenticity_avg_{subset}",
            authenticity_interval(listed, str(args.get("kappa", "pooled"))),
            run,
            note=note,
        ),
        Headline(
            BENCHMARK,
            f"invalid_rate_{subset}",
            ratio_interval(list(invalid_share_units(units).values()), unit=UNIT),
            run,
            units=invalid_share_units(units),
            note=note,
        ),
    ]
    if any(unit.judged for unit in listed):
        found.append(
            Headline(
                BENCHMARK,
                f"rationality_avg_{subset}",
                rationality_interval(listed),
                run,
                units=rationality_units(units),
                note=note,
            )
        )
    return found
