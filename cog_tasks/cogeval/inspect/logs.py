"""CogEval score tables from Inspect logs, read with the shared log reader."""

from __future__ import annotations

import os
from collections.abc import Collection, Sequence

import pandas as pd
from inspect_ai.log import EvalLog

from cog_tasks.common.logs import SUCCESS_ONLY, LogSet, read_logs, run_identity
from cog_tasks.common.runs import distinguishing_labels, group_runs

SCORER_NAME = "cogeval_scorer"
CLUSTER = "task"
TASK_NAME = "cogeval"


def score_table_from_logs(
    source: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    statuses: Collection[str] = SUCCESS_ONLY,
    *,
    pool_seeds: bool = False,
) -> tuple[pd.DataFrame, LogSet]:
    """One row per scored sample (and epoch) of the CogEval Inspect logs in ``source``.

    Every log is its own run (:func:`cog_tasks.common.runs.group_runs`): runs
    that differ in task, model, arguments (``cot``, temperatures, design...) or
    seed get different ``run`` labels, and are pooled only with ``pool_seeds``
    (identities that differ by seed alone), when ``pooling`` says so.

    Args:
        source: A log folder (searched recursively) or a log file, or several;
            the logs of all of them are read together.
        statuses: Log statuses to keep; successful logs only by default.
        pool_seeds: Pool the runs whose identities differ only by seed.

    Returns:
        The score table (columns of
        :data:`cog_tasks.cogeval.metrics.SCORE_COLUMNS` plus ``run``,
        ``pooling``, ``task``, ``cot``, ``failure_mode``, ``epoch`` and ``id``)
        and the logs read, whose ``skipped_note()`` says what was left out.

    Raises:
        ValueError: If the logs hold no scored CogEval sample.
    """
    log_set = read_logs(source, tasks={TASK_NAME}, statuses=statuses)
    groups = group_runs(log_set.logs, run_identity, pool_seeds=pool_seeds)
    labels = distinguishing_labels([group.identity for group in groups])
    rows = []
    for group, label in zip(groups, labels, strict=True):
        rows += _sample_rows(group.runs, label, group.pooling_note())
    if not rows:
        note = log_set.skipped_note()
        raise ValueError(
            f"{_names(source)}: no scored CogEval samples in these Inspect logs"
            + (f"; {note}" if note else "")
        )
    return pd.DataFrame(rows), log_set


def _names(source: str | os.PathLike[str] | Sequence[str | os.PathLike[str]]) -> str:
    """The folders or files read, for a message."""
    if isinstance(source, (str, os.PathLike)):
        return str(source)
    return ", ".join(map(str, source))


def _sample_rows(logs: list[EvalLog], run: str, pooling: str) -> list[dict[str, object]]:
    """The score-table rows of the logs of one run."""
    rows = []
    for log in logs:
        for sample in log.samples or []:
            score = (sample.scores or {}).get(SCORER_NAME)
            metadata = sample.metadata or {}
            if score is None or "condition" not in metadata:
                continue
            value = score.value if isinstance(score.value, dict) else {}
            rows.append(
                {
                    "run": run,
                    "pooling": pooling,
                    # Logs of task version 2.0 carry no task field: ids end in ".t<temperature>".
                    "task": metadata.get(CLUSTER) or str(sample.id).rsplit(".t", 1)[0],
                    "model": log.eval.model,
                    "graph": metadata["graph"],
                    "domain": metadata["domain"],
                    "condition": metadata["condition"],
                    "temperature": metadata["temperature"],
                    "cot": metadata.get("cot", "none"),
                    "score": float(value.get("acc", 0.0)),
                    "max_score": 1.0,
                    "failure_mode": (score.metadata or {}).get("failure_mode"),
                    "epoch": sample.epoch,
                    "id": sample.id,
                }
            )
    return rows
