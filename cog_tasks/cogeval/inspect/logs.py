"""CogEval score tables from Inspect logs, read with the shared log reader."""

from __future__ import annotations

import os
from collections.abc import Collection

import pandas as pd

from cog_tasks.common.logs import SUCCESS_ONLY, LogSet, read_logs

SCORER_NAME = "cogeval_scorer"
TASK_NAME = "cogeval"


def score_table_from_logs(
    source: str | os.PathLike[str], statuses: Collection[str] = SUCCESS_ONLY
) -> tuple[pd.DataFrame, LogSet]:
    """One row per scored sample (and epoch) of the CogEval Inspect logs in ``source``.

    Args:
        source: A log folder (searched recursively) or a log file.
        statuses: Log statuses to keep; successful logs only by default.

    Returns:
        The score table (columns of
        :data:`cog_tasks.cogeval.metrics.SCORE_COLUMNS` plus ``cot``,
        ``failure_mode``, ``epoch`` and ``id``) and the logs read, whose
        ``skipped_note()`` says what was left out.

    Raises:
        ValueError: If the logs hold no scored CogEval sample.
    """
    log_set = read_logs(source, tasks={TASK_NAME}, statuses=statuses)
    rows = []
    for log in log_set.logs:
        for sample in log.samples or []:
            score = (sample.scores or {}).get(SCORER_NAME)
            metadata = sample.metadata or {}
            if score is None or "condition" not in metadata:
                continue
            value = score.value if isinstance(score.value, dict) else {}
            rows.append(
                {
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
    if not rows:
        note = log_set.skipped_note()
        raise ValueError(
            f"{source}: no scored CogEval samples in these Inspect logs"
            + (f"; {note}" if note else "")
        )
    return pd.DataFrame(rows), log_set
