"""An audit of the published CogEval items that cannot be scored as published.

Three rules, each on what the items themselves hold (:data:`RULES`):

- ``start``: a route question names a start ("from the tulip room") that
  its expected routes do not start from (they start elsewhere), where the
  task's other prompts ask and expect alike (a task whose every prompt
  asks from the entrance and expects routes from the first room is the
  paper's convention, not a fault);
- ``first_move``: the task's other prompts expect routes, but this prompt's
  expected answers are single states, so a reply naming only its first state
  scores as a whole route;
- ``conflict``: two prompts of one task are the same text but expect
  different answers, so one reply cannot be right on both.

:func:`audit` names each flagged item with its rule; :data:`~cog_tasks.cogeval.published.UNSCORABLE`
lists them, and the tasks leave them out by default (``-T unscorable=true``
keeps them).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from cog_tasks.cogeval.published import PublishedTask, answer_kind, route_start
from cog_tasks.cogeval.published_graph import question_start

RULES = ("start", "first_move", "conflict")


@dataclass(frozen=True)
class Finding:
    """One item that cannot be scored as published.

    Attributes:
        item: The item's id.
        rule: Which rule flags it (:data:`RULES`).
        detail: What it holds, in a few words.
    """

    item: str
    rule: str
    detail: str


def audit(items: Sequence[PublishedTask]) -> list[Finding]:
    """The findings of every rule on ``items`` (each item's prompt is read)."""
    read = {item.id: item.load() for item in items}
    kinds = {item.id: answer_kind(item.condition, read[item.id].expected) for item in items}
    by_task: dict[str, list[PublishedTask]] = defaultdict(list)
    for item in items:
        by_task[item.task].append(item)
    found: list[Finding] = []
    for members in by_task.values():
        starts = {
            m.id: (question_start(read[m.id].turns), route_start(read[m.id].expected))
            for m in members
            if kinds[m.id] == "path"
        }
        usual = Counter(starts.values()).most_common(1)[0][0] if starts else None
        found += [
            Finding(item, "start", f"asks from {asked}, routes from {routed}")
            for item, (asked, routed) in starts.items()
            if asked and routed and asked != routed and (asked, routed) != usual
        ]
        routes = [m for m in members if kinds[m.id] == "path"]
        if routes:
            found += [
                Finding(m.id, "first_move", "single states where the task's prompts expect routes")
                for m in members
                if kinds[m.id] == "first_step"
            ]
        prompts: dict[tuple[str, ...], list[PublishedTask]] = defaultdict(list)
        for m in members:
            prompts[(read[m.id].system, *read[m.id].turns)].append(m)
        for same in prompts.values():
            if len({frozenset(read[m.id].expected) for m in same}) > 1:
                found += [
                    Finding(
                        m.id, "conflict", f"same prompt as {len(same) - 1} other(s), other answers"
                    )
                    for m in same
                ]
    return found
