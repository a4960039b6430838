"""CogEval's headline numbers of one Inspect log, for reports and the cross-benchmark profile.

The headlines are the success rate over every dialog (``success``) and per
condition (``success_<condition>``, lower case: the rows of the paper's Table
3). The unit is the task (graph, domain, condition and prompt variant): a
task's temperatures and repeats move together, so whole tasks are resampled
(:func:`cog_tasks.common.stats.cluster_mean_interval`) and each task
contributes ``(successes, dialogs)`` to a paired comparison. Task ids are the
item ids, stable across models and runs on the same items.
"""

from __future__ import annotations

from collections import defaultdict

from inspect_ai.log import EvalLog

from cog_tasks.cogeval.inspect.logs import CLUSTER, SCORER_NAME
from cog_tasks.cogeval.paper import BENCHMARK, condition_measure
from cog_tasks.common.headlines import Headline
from cog_tasks.common.logs import run_identity
from cog_tasks.common.runs import RunIdentity
from cog_tasks.common.stats import cluster_mean_interval

UNIT = "task"


def _headline(
    measure: str, rows: list[tuple[str, float]], run: RunIdentity, note: str = ""
) -> Headline:
    """One success headline over ``(task id, acc)`` rows."""
    interval = cluster_mean_interval(
        [acc for _, acc in rows], [task for task, _ in rows], unit=UNIT
    )
    units: dict[str, tuple[float, float]] = defaultdict(lambda: (0.0, 0.0))
    for task, acc in rows:
        successes, dialogs = units[task]
        units[task] = (successes + acc, dialogs + 1.0)
    return Headline(BENCHMARK, measure, interval, run, dict(units), note)


def headlines(log: EvalLog) -> list[Headline]:
    """The CogEval headline numbers of one successful ``cogeval`` Inspect log.

    Args:
        log: A log with samples, scored by ``cogeval_scorer``.

    Returns:
        ``success`` over every dialog, then ``success_<condition>`` per
        condition in the log, each with its 95 % interval over tasks. An
        unreadable reply is scored 0 and counted, never dropped.

    Raises:
        ValueError: If the log holds no scored CogEval sample.
    """
    run = run_identity(log)
    every: list[tuple[str, float]] = []
    by_condition: dict[str, list[tuple[str, float]]] = defaultdict(list)
    for sample in log.samples or []:
        score = (sample.scores or {}).get(SCORER_NAME)
        metadata = sample.metadata or {}
        if score is None or not isinstance(score.value, dict) or "condition" not in metadata:
            continue
        # Logs of task version 2.0 carry no task field: their ids end in ".t<temperature>".
        task = str(metadata.get(CLUSTER) or str(sample.id).rsplit(".t", 1)[0])
        row = (task, float(score.value.get("acc", 0.0)))
        every.append(row)
        by_condition[metadata["condition"]].append(row)
    if not every:
        raise ValueError(f"{log.location}: no scored CogEval samples in this log")
    result = [_headline("success", every, run)]
    result += [
        _headline(condition_measure(condition), rows, run)
        for condition, rows in sorted(by_condition.items())
    ]
    return result
