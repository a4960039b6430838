"""CogEval Inspect logs into the shared results model: each log one run, each sample a dialog."""

from __future__ import annotations

import os
from collections.abc import Collection, Sequence

from inspect_ai.log import EvalLog, EvalSample

from cog_tasks.cogeval.headlines import (
    CLUSTER,
    Declared,
    declared_items,
    dialog_record,
    reply_status,
    run_results,
)
from cog_tasks.cogeval.inspect.cogeval import parse_temperatures
from cog_tasks.common.logs import SUCCESS_ONLY, LogSet, read_logs, run_identity, sample_status
from cog_tasks.common.results import ResultsError, RunResults

SCORER_NAME = "cogeval_scorer"
TASK_NAME = "cogeval"


def log_results(log: EvalLog) -> tuple[RunResults, Declared]:
    """One ``cogeval`` log as an unchecked run with its declared set (errored samples score 0)."""
    arguments = log.eval.task_args or {}
    limit = log.eval.model_generate_config.max_tokens or (
        log.plan.config.max_tokens if log.plan else None
    )
    try:
        temperatures = parse_temperatures(arguments.get("temperatures"))
        declared = Declared.of(
            (*entry, temperature)
            for entry in declared_items(arguments)
            for temperature in temperatures
        )
    except ValueError as error:
        raise ResultsError(f"{log.location}: {error}") from error
    records = []
    for sample in log.samples or []:
        key = str(sample.id)
        # Logs of task version 2.0 carry no task field: their ids end in ".t<temperature>".
        task = str((sample.metadata or {}).get(CLUSTER) or key.rsplit(".t", 1)[0])
        score = (sample.scores or {}).get(SCORER_NAME)
        value = score.value if score is not None and isinstance(score.value, dict) else {}
        failure = (score.metadata or {}).get("failure_mode") if score is not None else None
        status = sample_status(sample, invalid=reply_status(failure) == "invalid")
        if status != "error" and _at_limit(sample, limit):
            status = "truncated"
        facts = declared.tasks.get(task)
        condition, acc = (facts.condition if facts else ""), float(value.get("acc", 0.0))
        records.append(dialog_record(task, key, condition, acc, failure, sample.epoch, status))
    protocol = "Inspect, multi-turn, the reply the paper scored"
    return run_results(run_identity(log), records, declared, str(log.location), protocol), declared


def _at_limit(sample: EvalSample, limit: int | None) -> bool:
    """Whether the last reply used the whole token budget (``hf`` gives no stop reason)."""
    usage = sample.output.usage if sample.output is not None else None
    return limit is not None and usage is not None and usage.output_tokens >= limit


def read_inspect_runs(
    source: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    statuses: Collection[str] = SUCCESS_ONLY,
) -> tuple[list[tuple[RunResults, Declared]], LogSet]:
    """Every ``cogeval`` log in ``source`` as runs, oldest first, and the logs read."""
    log_set = read_logs(source, tasks={TASK_NAME}, statuses=statuses)
    return [log_results(log) for log in log_set.logs], log_set
