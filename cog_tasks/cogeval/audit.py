"""Audit of the published items that cannot be scored as published (:data:`RULES`)."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from cog_tasks.cogeval.published import PublishedTask, answer_kind, route_start
from cog_tasks.cogeval.published_graph import question_start

RULES = ("start", "first_move", "conflict")


@dataclass(frozen=True)
class Finding:
    """One item that cannot be scored as published: its id, rule and a few words of detail."""

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
