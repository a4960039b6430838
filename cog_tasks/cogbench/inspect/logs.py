"""Read CogBench results back from Inspect logs: report rows with intervals, eval-file export."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from pathlib import Path
from typing import Any

from inspect_ai.log import EvalLog

from cog_tasks.cogbench.evaluation import FOLLOWED_FEEDBACK, follower_tallies
from cog_tasks.cogbench.inspect.headlines import (
    FIXTURE_NOTE,
    NOT_MEASUREMENT,
    SCORER,
    judge_label,
    log_units,
)
from cog_tasks.cogbench.inspect.solver import STORE_KEY
from cog_tasks.cogbench.intervals import (
    UnitTallies,
    authenticity_interval,
    merge_units,
    rationality_interval,
)
from cog_tasks.cogbench.metrics import check_weights
from cog_tasks.cogbench.parsing import profile_to_text
from cog_tasks.cogbench.records import Trajectory
from cog_tasks.cogbench.report import (
    AGENT_LABELS,
    FEEDBACK_AGENTS,
    FOLLOWER,
    REFERENCE_LABELS,
    AgentCurves,
)
from cog_tasks.common.logs import SUCCESS_ONLY, LogSet, read_log, read_logs, run_identity
from cog_tasks.common.runs import distinguishing_labels, group_runs
from cog_tasks.common.stats import Interval

TASK = "cogbench"


def read_cogbench_log(path: str | Path, statuses: Collection[str] = SUCCESS_ONLY) -> EvalLog:
    """One CogBench log file (successful only by default), with its samples.

    Raises:
        FileNotFoundError: If the file does not exist.
        ValueError: Naming the file when it is not an Inspect log of the
            ``cogbench`` task with one of ``statuses``.
    """
    return read_log(path, tasks={TASK}, statuses=statuses)


def read_cogbench_logs(source: Path, statuses: Collection[str] = SUCCESS_ONLY) -> LogSet:
    """The CogBench logs under ``source`` (successful only by default), oldest first."""
    return read_logs(source, tasks={TASK}, statuses=statuses)


def _iteration_intervals(units: Sequence[UnitTallies], kappa: str) -> dict[int, Interval]:
    iterations = sorted({t for unit in units for t, _ in unit.ratings})
    return {t: authenticity_interval(units, kappa, t) for t in iterations}


def _rationality_intervals(units: Sequence[UnitTallies]) -> dict[int, Interval]:
    iterations = sorted({t for unit in units for t in unit.judged})
    return {t: rationality_interval(units, t) for t in iterations}


def _curves(
    agent: str,
    label: str,
    log: EvalLog,
    units: Sequence[UnitTallies],
    kappa: str,
    notes: tuple[str, ...],
    judge: str = "none",
    reference_for: str = "",
) -> AgentCurves:
    args = log.eval.task_args or {}
    judged = any(unit.judged for unit in units)
    pooled = [tally for unit in units for (_, q), tally in unit.ratings.items() if q is None]
    return AgentCurves(
        agent=agent,
        label=label,
        subset=str(args.get("subset", "a")),
        language=str(args.get("language", "english")),
        data=str((log.eval.metadata or {}).get("data", "")),
        authenticity=_iteration_intervals(units, kappa),
        rationality=_rationality_intervals(units),
        authenticity_avg=authenticity_interval(units, kappa),
        rationality_avg=rationality_interval(units) if judged else None,
        invalid=int(sum(tally.invalid for tally in pooled)),
        pairs=int(sum(tally.pairs for tally in pooled)),
        judge=judge,
        notes=notes,
        reference_for=reference_for,
    )


def _first_epoch_trajectories(logs: Sequence[EvalLog]) -> dict[str, Trajectory]:
    found: dict[str, Trajectory] = {}
    for log in logs:
        for sample in log.samples or []:
            found.setdefault(str(sample.id), Trajectory.from_metadata(sample.metadata))
    return found


def reference_modes(log: EvalLog) -> list[str]:
    """The feedback followers a row gets: its own feedback's, then copy-previous (``rating``)."""
    args = log.eval.task_args or {}
    modes = ["rating"]
    feedback = str(args.get("feedback", "rating"))
    if args.get("agent") in FEEDBACK_AGENTS and feedback in FOLLOWED_FEEDBACK:
        modes.insert(0, feedback)
    return list(dict.fromkeys(modes))


def report_rows(logs: Sequence[EvalLog], pool_seeds: bool = False) -> list[AgentCurves]:
    """One row per run (or per identity with ``pool_seeds``), each followed by its references.

    Runs with different identities (task version, model, judge, feedback,
    any measurement-changing argument, seed) are never merged; a row that
    pools seeds says so. The reference rows of a row are computed on that
    row's own trajectories.

    Args:
        logs: Successful CogBench logs.
        pool_seeds: Pool runs whose identities differ only by seed.

    Returns:
        The rows, in log order.
    """
    groups = group_runs(
        logs, lambda log: run_identity(log, ignore=NOT_MEASUREMENT), pool_seeds=pool_seeds
    )
    labels = distinguishing_labels([group.identity for group in groups])
    rows: list[AgentCurves] = []
    for group, label in zip(groups, labels, strict=True):
        first = group.runs[0]
        args = first.eval.task_args or {}
        agent = str(args.get("agent", "coggpt"))
        kappa = str(args.get("kappa", "pooled"))
        weights = check_weights(args.get("weights"))
        units = merge_units(
            (unit_id, unit) for log in group.runs for unit_id, unit in log_units(log).items()
        )
        fixture = (FIXTURE_NOTE,) if (first.eval.metadata or {}).get("fixture_ratings") else ()
        pooling = (group.pooling_note(),) if group.pooled else ()
        row_label = f"{AGENT_LABELS.get(agent, agent)}: {label}"
        rows.append(
            _curves(
                agent,
                row_label,
                first,
                list(units.values()),
                kappa,
                fixture + pooling,
                judge_label(first),
            )
        )
        trajectories = _first_epoch_trajectories(group.runs)
        for mode in reference_modes(first):
            followed = [
                UnitTallies.from_iterations(follower_tallies(trajectory, mode, weights))
                for trajectory in trajectories.values()
            ]
            rows.append(
                _curves(
                    FOLLOWER,
                    f"{REFERENCE_LABELS[mode]} (no model)",
                    first,
                    followed,
                    "pooled",
                    fixture,
                    reference_for=row_label,
                )
            )
    return rows


def _export_item(
    answer: dict[str, Any], judge_score: int | None, method: str, profile: str
) -> dict[str, Any]:
    """One questionnaire item in the eval schema."""
    return {
        "question": answer["question"],
        "answer": {
            "human_rating": -1 if answer["human_rating"] is None else answer["human_rating"],
            method: {
                "profile": profile,
                "rating": -1 if answer["rating"] is None else answer["rating"],
                "reason": answer["reason"],
                "rationality": -1,
                "judge_rationality": -1 if judge_score is None else judge_score,
            },
        },
    }


def export_eval_records(log: EvalLog) -> list[dict[str, Any]]:
    """Write a log's answers in the authors' eval schema (one record per sample and iteration).

    The method name is the agent's (``CogGPT``, ``CoT``...). ``rationality``
    is -1 (no human score); ``judge_rationality`` holds the judge's score,
    ``"unreadable"``, ``"no reasoning"``, or -1 when the run was not judged.
    Epochs after the first are skipped.

    Args:
        log: A full CogBench log.

    Returns:
        JSON-ready records that :func:`cog_tasks.cogbench.loader.load_records` reads.
    """
    method = str((log.eval.metadata or {}).get("method", log.eval.task_args.get("agent")))
    records = []
    for sample in log.samples or []:
        if sample.epoch != 1:
            continue
        trajectory = Trajectory.from_metadata(sample.metadata)
        flows = {step.iteration: step.information_flow for step in trajectory.steps}
        score = (sample.scores or {}).get(SCORER)
        judged = {
            entry["iteration"]: entry["scores"]
            for entry in ((score.metadata or {}).get("rationality", []) if score else [])
        }
        for iteration in sample.store.get(STORE_KEY, []):
            number = iteration["iteration"]
            profile = profile_to_text(iteration["state"].get("profile", trajectory.profile))
            judge_scores = judged.get(number, [None] * len(iteration["answers"]))
            records.append(
                {
                    "topic": trajectory.topic,
                    "iteration": number,
                    "profile": dict(trajectory.profile),
                    "information_flow": [flows[number]] if flows.get(number) else [],
                    "questionnaire": [
                        _export_item(answer, judge_score, method, profile)
                        for answer, judge_score in zip(
                            iteration["answers"], judge_scores, strict=True
                        )
                    ],
                }
            )
    return records
