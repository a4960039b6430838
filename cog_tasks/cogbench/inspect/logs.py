"""CogBench Inspect logs on the shared results model: one record per trajectory and epoch."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from inspect_ai.log import EvalLog, EvalSample

from cog_tasks.cogbench.evaluation import FOLLOWED_FEEDBACK, follower_tallies
from cog_tasks.cogbench.inspect.solver import STORE_KEY
from cog_tasks.cogbench.intervals import (
    UNIT,
    UnitTallies,
    authenticity_interval,
    invalid_share_units,
    kappa_payload,
    rationality_interval,
    rationality_units,
)
from cog_tasks.cogbench.metrics import (
    RatingTally,
    RationalityTally,
    WeightScheme,
    check_weights,
    judge_summaries,
    pooled_tallies,
)
from cog_tasks.cogbench.parsing import profile_to_text
from cog_tasks.cogbench.records import Trajectory
from cog_tasks.cogbench.report import (
    AGENT_LABELS,
    FEEDBACK_AGENTS,
    FOLLOWER,
    REFERENCE_LABELS,
    AgentCurves,
)
from cog_tasks.common.logs import (
    SUCCESS_ONLY,
    LogSet,
    read_log,
    read_logs,
    run_identity,
    sample_status,
)
from cog_tasks.common.pipeline import Row, checked_rows
from cog_tasks.common.results import CheckedRun, ResultsError, RunResults, UnitRecord, check_run
from cog_tasks.common.stats import Interval, UnitValue, ratio_interval

TASK = "cogbench"
BENCHMARK = "cogbench"
SCORER = "cogbench_scorer"
NOT_MEASUREMENT = ("memory_dir",)
"""Task arguments left out of a run's identity (where memory is kept changes nothing)."""

FIXTURE_NOTE = "fixture data: the bundled sample set, whose ratings are not human ratings"
COUNTS = ("truncated_replies", "distill_failed", "judge_asked", "judge_invalid", "no_reasoning")
"""The score metadata's counts a record carries beside its tallies."""


def read_cogbench_log(path: str | Path, statuses: Collection[str] = SUCCESS_ONLY) -> EvalLog:
    """One CogBench log file (successful only by default), with its samples."""
    return read_log(path, tasks={TASK}, statuses=statuses)


def read_cogbench_logs(source: Path, statuses: Collection[str] = SUCCESS_ONLY) -> LogSet:
    """The CogBench logs under ``source`` (successful only by default), oldest first."""
    return read_logs(source, tasks={TASK}, statuses=statuses)


def declared_trajectories(log: EvalLog) -> dict[str, Trajectory]:
    """The trajectories the log's task arguments build, by sample id, in dataset order."""
    from cog_tasks.cogbench.inspect import cogbench

    try:
        task = cogbench(**(log.eval.task_args or {}))
    except (OSError, TypeError, ValueError) as error:
        raise ResultsError(
            f"{log.location}: cannot rebuild its declared trajectories ({error})"
        ) from error
    return {
        str(sample.id): Trajectory.from_metadata(sample.metadata or {}) for sample in task.dataset
    }


def _failed_values(trajectory: Trajectory, weights: WeightScheme, args: Mapping) -> dict:
    """An errored trajectory's values (their names; ``check_run`` and the counts leave it out)."""
    values = dict.fromkeys(COUNTS, 0.0) | trajectory.rated_alike(None, weights, args.get("kappa"))
    for step in trajectory.steps if args.get("judge", True) else ():
        unread: list[int | None] = [None] * len(step.human_ratings)
        values.update(RationalityTally.from_scores(unread).to_value(step.iteration))
    return values


def _record(
    sample: EvalSample, trajectory: Trajectory | None, weights: WeightScheme, args: Mapping
) -> UnitRecord:
    """One sample's record (see the module docstring)."""
    score = (sample.scores or {}).get(SCORER)
    if sample.error is not None or score is None or not isinstance(score.value, dict):
        source = trajectory or Trajectory.from_metadata(sample.metadata)
        values = _failed_values(source, weights, args)
        return UnitRecord(str(sample.id), values, sample.epoch, "error")
    metadata = score.metadata or {}
    values = {key: float(value) for key, value in score.value.items()}
    values.update({key: float(metadata.get(key, 0)) for key in COUNTS})
    ratings, _ = pooled_tallies([values], weights)
    status = sample_status(sample, invalid=any(tally.invalid for tally in ratings.values()))
    if status != "truncated" and metadata.get("truncated_replies"):
        status = "truncated"
    elif status in ("valid", "invalid") and metadata.get("judge_invalid"):
        status = "judge_invalid"
    return UnitRecord(str(sample.id), values, sample.epoch, status)


def _even(records: Iterable[UnitRecord]) -> tuple[UnitRecord, ...]:
    """Give every record of a unit the same value names (a tally absent from an epoch is 0)."""
    listed = list(records)
    names: dict[str, dict[str, None]] = {}
    for record in listed:
        names.setdefault(record.unit, {}).update(dict.fromkeys(record.values))
    return tuple(
        UnitRecord(
            r.unit, {name: r.values.get(name, 0.0) for name in names[r.unit]}, r.epoch, r.status
        )
        for r in listed
    )


def log_results(log: EvalLog) -> tuple[RunResults, dict[str, Trajectory]]:
    """One CogBench log as an unchecked run, with its declared trajectories."""
    args = log.eval.task_args or {}
    weights = check_weights(args.get("weights"))
    declared = declared_trajectories(log)
    records = _even(
        _record(sample, declared.get(str(sample.id)), weights, args) for sample in log.samples or []
    )
    run = RunResults(
        BENCHMARK,
        run_identity(log, ignore=NOT_MEASUREMENT),
        UNIT,
        records,
        dict.fromkeys(declared, ""),
        str(log.location),
        "every trajectory of every epoch, epochs averaged within each trajectory",
    )
    return run, declared


class CogBenchRun(Row[tuple[EvalLog, Mapping[str, Trajectory]]]):
    """One report row labelled with its agent; its extra: the log and its trajectories."""

    @property
    def log(self) -> EvalLog:
        """The run's (first) log, for its task arguments and metadata."""
        return self.extra[0]

    @property
    def trajectories(self) -> Mapping[str, Trajectory]:
        """The declared trajectories, by unit id (for the followers)."""
        return self.extra[1]

    @property
    def args(self) -> Mapping[str, Any]:
        """The run's task arguments."""
        return self.log.eval.task_args or {}

    @property
    def agent(self) -> str:
        """The run's agent."""
        return str(self.args.get("agent", "coggpt"))

    @property
    def weights(self) -> WeightScheme:
        """The κ weighting the run was tallied with."""
        return check_weights(self.args.get("weights"))


def checked_runs(logs: Sequence[EvalLog], pool_seeds: bool = False) -> list[CogBenchRun]:
    """Check and label every log (a copy counts once); ``pool_seeds`` pools seeds into a row."""
    runs = [(run, (log, declared)) for log in logs for run, declared in (log_results(log),)]
    rows = checked_rows(runs, pool_seeds=pool_seeds, row=CogBenchRun)
    return [
        replace(row, label=f"{AGENT_LABELS.get(row.agent, row.agent)}: {row.label}") for row in rows
    ]


def judge_label(log: EvalLog) -> str:
    """Who judged Rationality: the ``judge`` role's model, ``self`` or ``none``."""
    args = log.eval.task_args or {}
    if not args.get("judge", True):
        return "none"
    roles = log.eval.model_roles or {}
    return roles["judge"].model if "judge" in roles else f"self ({log.eval.model})"


def reference_modes(log: EvalLog) -> list[str]:
    """The feedback followers a row gets: its own feedback's, then copy-previous (``rating``)."""
    args = log.eval.task_args or {}
    feedback = str(args.get("feedback", "rating"))
    followed = args.get("agent") in FEEDBACK_AGENTS and feedback in FOLLOWED_FEEDBACK
    return list(dict.fromkeys([feedback, "rating"] if followed else ["rating"]))


def _series(units: Sequence[UnitTallies], kappa: str) -> tuple[dict, dict]:
    """Authenticity and Rationality per iteration, each with its interval over trajectories."""
    ratings = sorted({t for unit in units for t, _ in unit.ratings})
    judged = sorted({t for unit in units for t in unit.judged})
    return (
        {t: authenticity_interval(units, kappa, t) for t in ratings},
        {t: rationality_interval(units, t) for t in judged},
    )


def _share(units: Mapping[str, UnitValue]) -> Interval:
    return ratio_interval(list(units.values()), unit=UNIT, bounds=(0.0, 1.0))


def _base(run: CogBenchRun) -> dict[str, Any]:
    return {
        "subset": str(run.args.get("subset", "a")),
        "language": str(run.args.get("language", "english")),
        "data": str((run.log.eval.metadata or {}).get("data", "")),
    }


def _fixture(run: CogBenchRun) -> tuple[str, ...]:
    return (FIXTURE_NOTE,) if (run.log.eval.metadata or {}).get("fixture_ratings") else ()


def agent_row(run: CogBenchRun) -> AgentCurves:
    """The run's own row: κ, Rationality, invalid shares; ``counts`` over unerrored records."""
    kappa = str(run.args.get("kappa", "pooled"))
    tallies = {
        unit: UnitTallies.from_value(values, run.weights)
        for unit, values in run.checked.values.items()
    }
    units = list(tallies.values())
    authenticity, rationality = _series(units, kappa)
    judged = any(unit.judged for unit in units)
    records = [record for record in run.checked.run.records if record.status != "error"]
    ratings, _ = pooled_tallies([record.values for record in records], run.weights)
    total = sum(ratings.values(), RatingTally(run.weights))
    counts = {
        "pairs": float(total.pairs),
        "invalid": float(total.invalid),
        **{name: sum(record.values.get(name, 0.0) for record in records) for name in COUNTS},
    }
    invalid_units = invalid_share_units(tallies)
    measures: dict[str, Mapping[str, UnitValue]] = {
        "invalid_rate": invalid_units,
        "authenticity_avg": {unit: kappa_payload(t, kappa) for unit, t in tallies.items()},
    }
    readable = judge_invalid = None
    if judged:
        measures["rationality_avg"] = rationality_units(tallies)
        measures["judge_invalid_rate"] = {
            unit: (values["judge_invalid"], values["judge_asked"])
            for unit, values in run.checked.values.items()
        }
        judge_invalid = _share(measures["judge_invalid_rate"])
        _, readable, _ = judge_summaries(pooled_tallies(run.checked.values.values())[1])
    return AgentCurves(
        agent=run.agent,
        label=run.label,
        **_base(run),
        authenticity=authenticity,
        rationality=rationality,
        authenticity_avg=authenticity_interval(units, kappa),
        rationality_avg=rationality_interval(units) if judged else None,
        rationality_readable_avg=readable.average if readable else None,
        invalid_rate=_share(invalid_units),
        judge_invalid_rate=judge_invalid,
        counts=counts,
        coverage=run.checked.coverage,
        units=measures,
        judge=judge_label(run.log),
        notes=tuple(note for note in (*_fixture(run), run.pooling) if note),
    )


def reference_rows(run: CogBenchRun, label: str) -> list[AgentCurves]:
    """The model-free followers of the run's feedback, on the agent row's own trajectories."""
    rows = []
    for mode in reference_modes(run.log):
        units = [
            UnitTallies.from_iterations(follower_tallies(run.trajectories[unit], mode, run.weights))
            for unit in run.checked.values
        ]
        authenticity, _ = _series(units, "pooled")
        invalid = invalid_share_units(dict(zip(run.checked.values, units, strict=True)))
        rows.append(
            AgentCurves(
                agent=FOLLOWER,
                label=f"{REFERENCE_LABELS[mode]} (no model)",
                **_base(run),
                authenticity=authenticity,
                rationality={},
                authenticity_avg=authenticity_interval(units, "pooled"),
                invalid_rate=_share(invalid),
                notes=_fixture(run),
                reference_for=label,
            )
        )
    return rows


def report_rows(logs: Sequence[EvalLog], pool_seeds: bool = False) -> list[AgentCurves]:
    """One row per run (or per identity with ``pool_seeds``), each followed by its references."""
    rows: list[AgentCurves] = []
    for run in checked_runs(logs, pool_seeds):
        row = agent_row(run)
        rows += [row, *reference_rows(run, row.label)]
    return rows


def _export_item(
    answer: dict[str, Any], judge_score: int | str | None, method: str, profile: str
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


def export_eval_records(log: EvalLog) -> tuple[list[dict[str, Any]], CheckedRun]:
    """Epoch 1 of a checked log in the authors' eval schema (``rationality`` -1), and its run."""
    checked = check_run(log_results(log)[0])
    method = str((log.eval.metadata or {}).get("method", log.eval.task_args.get("agent")))
    records = []
    for sample in log.samples or []:
        if sample.epoch != 1 or sample.error is not None:
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
    return records, checked
