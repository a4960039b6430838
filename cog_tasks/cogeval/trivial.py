"""CogEval's trivial strategies: one fixed reply form, on the model row's own tasks."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping
from typing import Any

from cog_tasks.cogeval.headlines import (
    BALANCED,
    SUCCESS,
    TaskFacts,
    balanced_units,
    declared_sources,
)
from cog_tasks.cogeval.paper import condition_measure
from cog_tasks.cogeval.scoring import GraphContext, score_response
from cog_tasks.common.runs import RunIdentity
from cog_tasks.common.spec import TrivialStrategy
from cog_tasks.common.stats import UnitValue

_FROM = re.compile(r"\b[Ff]rom the\s+([\w'’ -]+?)\s*[,?.]")
Reply = Callable[[dict[str, Any], GraphContext | None], str]
#: Temperatures a run asks when its identity names none (the task's default: 0, 0.5, 1).
DEFAULT_REPEATS = 3


def _repeats(temperatures: str | None) -> float:
    """How many temperatures a run's ``temperatures`` argument (as text) asks."""
    if not temperatures:
        return float(DEFAULT_REPEATS)
    return float(len([part for part in temperatures.strip("[]()").split(",") if part.strip()]))


def _scored(
    units: Collection[str], run: RunIdentity, reply: Reply
) -> dict[str, dict[str, UnitValue]]:
    """The headline measures' per-task values of answering ``reply(record, context)``."""
    arguments = dict(run.arguments)
    wanted = set(units)
    declared = declared_sources(arguments)
    missing = wanted - {task for _, task, _ in declared}
    if missing:
        raise ValueError(f"CogEval's run declares no tasks {', '.join(sorted(missing)[:5])}")
    repeats = _repeats(arguments.get("temperatures"))
    hits: dict[str, UnitValue] = {}
    facts: dict[str, TaskFacts] = {}
    for item, task, task_facts in declared:
        if task not in wanted:
            continue
        record = item.to_record()
        facts[task] = task_facts
        found = record["graph_context"]
        context = GraphContext.from_dict(found) if found is not None else None
        result = score_response(
            reply(record, context),
            record["expected"],
            record.get("kind") or found["kind"],
            context,
            record.get("start"),
        )
        successes, dialogs = hits.get(task, (0.0, 0.0))  # type: ignore[misc]
        hits[task] = (successes + result.score * repeats, dialogs + repeats)
    values: dict[str, dict[str, UnitValue]] = {SUCCESS: dict(hits)}
    values[BALANCED] = balanced_units(hits, facts)
    for task, value in hits.items():
        values.setdefault(condition_measure(facts[task].condition), {})[task] = value
    return values


def _start(record: dict[str, Any], context: GraphContext | None) -> str:
    start = record.get("start") or (context.start if context else None)
    if not start:  # the question's own words: "From the entrance, where should you go"
        found = _FROM.findall(record["turns"][-1])
        start = found[-1] if found else ""
    return f"Answer: {start}"


def start_alone(units: Collection[str], run: RunIdentity) -> Mapping[str, dict[str, UnitValue]]:
    """The question's start state alone, on every question."""
    return _scored(units, run, _start)


def first_state(units: Collection[str], run: RunIdentity) -> Mapping[str, dict[str, UnitValue]]:
    """The story's first listed state alone, on every question."""
    return _scored(
        units, run, lambda _, graph: f"Answer: {graph.states[0] if graph and graph.states else ''}"
    )


STRATEGIES: tuple[TrivialStrategy, ...] = (
    TrivialStrategy("the start state alone", "cog_tasks.cogeval.trivial:start_alone"),
    TrivialStrategy("the first listed state alone", "cog_tasks.cogeval.trivial:first_state"),
)
