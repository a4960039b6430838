"""Read CogBench results back from Inspect logs: per-iteration curves and eval-file export."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from pathlib import Path
from typing import Any

from inspect_ai.log import EvalLog

from cog_tasks.cogbench.evaluation import copy_previous_tallies
from cog_tasks.cogbench.inspect.scorer import authenticity_by_iteration
from cog_tasks.cogbench.inspect.solver import STORE_KEY
from cog_tasks.cogbench.metrics import check_weights, pooled_tallies
from cog_tasks.cogbench.parsing import profile_to_text
from cog_tasks.cogbench.records import Trajectory
from cog_tasks.cogbench.report import COPY_PREVIOUS, AgentCurves
from cog_tasks.common.logs import SUCCESS_ONLY, LogSet, read_log, read_logs

SCORER = "cogbench_scorer"
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


def curves_from_log(log: EvalLog) -> AgentCurves:
    """Pool every sample and epoch of a log into per-iteration Authenticity and Rationality."""
    args = log.eval.task_args
    weights = check_weights(args.get("weights"))
    scores = [(sample.scores or {}).get(SCORER) for sample in log.samples or []]
    values = [score.value for score in scores if score and isinstance(score.value, dict)]
    ratings, judged = pooled_tallies(values, weights)  # type: ignore[arg-type]
    kappa = str(args.get("kappa", "pooled"))
    metadata = log.eval.metadata or {}
    return AgentCurves(
        agent=str(args.get("agent", "coggpt")),
        model=log.eval.model,
        subset=str(args.get("subset", "a")),
        language=str(args.get("language", "english")),
        data=str(metadata.get("data", "")),
        authenticity=authenticity_by_iteration(values, weights, kappa),  # type: ignore[arg-type]
        rationality={t: tally.mean() for t, tally in judged.items() if tally.scored},
        invalid={t: tally.invalid for t, tally in ratings.items()},
        pairs={t: tally.pairs for t, tally in ratings.items()},
    )


def copy_previous_curves(log: EvalLog) -> AgentCurves:
    """The copy-previous-human-rating reference on a log's trajectories (first epoch)."""
    weights = check_weights(log.eval.task_args.get("weights"))
    trajectories = [
        Trajectory.from_metadata(sample.metadata)
        for sample in log.samples or []
        if sample.epoch == 1
    ]
    tallies = copy_previous_tallies(trajectories, weights)
    metadata = log.eval.metadata or {}
    return AgentCurves(
        agent=COPY_PREVIOUS,
        model="no model",
        subset=str(log.eval.task_args.get("subset", "a")),
        language=str(log.eval.task_args.get("language", "english")),
        data=str(metadata.get("data", "")),
        authenticity={t: tally.kappa() for t, tally in tallies.items()},
        rationality={},
        invalid={t: tally.invalid for t, tally in tallies.items()},
        pairs={t: tally.pairs for t, tally in tallies.items()},
    )


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
    is -1 (no human score); the judge's score, when there is one, goes to an
    extra ``judge_rationality`` field. Epochs after the first are skipped.

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


def latest_per_agent(logs: Iterable[EvalLog]) -> list[AgentCurves]:
    """Curves of the newest log for each (agent, model, subset, language, data).

    Each (subset, language, data) group also gets the copy-previous reference
    row, computed on the trajectories of its newest log.
    """
    newest: dict[tuple[str, ...], AgentCurves] = {}
    references: dict[tuple[str, ...], AgentCurves] = {}
    for log in logs:
        curves = curves_from_log(log)
        newest[(curves.agent, curves.model, curves.subset, curves.language, curves.data)] = curves
        references[(curves.subset, curves.language, curves.data)] = copy_previous_curves(log)
    return [*newest.values(), *references.values()]
