"""CogLM's trivial strategies (a constant letter or position), scored as a run's items are."""

from __future__ import annotations

from collections.abc import Callable, Collection
from functools import partial

from cog_tasks.coglm.headlines import CHAT_POOLED, answered, headline_units
from cog_tasks.coglm.records import CogLMRecord, load_records
from cog_tasks.coglm.rules import DEFAULT_CHANCE, RULES
from cog_tasks.common.runs import RunIdentity
from cog_tasks.common.spec import TrivialStrategy
from cog_tasks.common.stats import UnitValue

#: Every name the pooled calibrated accuracy takes (Inspect, then lm-eval's choice rules).
POOLED_MEASURES = (CHAT_POOLED, *(f"calibrated_{name}" for name in RULES.values()))


def _scored(
    units: Collection[str], run: RunIdentity, pick: Callable[[CogLMRecord], int]
) -> dict[str, dict[str, UnitValue]]:
    """The headline measures' per-item values of answering ``pick(record)`` on ``units``."""
    chance = dict(run.arguments).get("chance", DEFAULT_CHANCE)
    wanted = set(units)
    records = [record for record in load_records() if record.id in wanted]
    missing = wanted - {record.id for record in records}
    if missing:
        raise ValueError(f"CogLM has no items {', '.join(sorted(missing)[:5])}")
    items = [answered(record, pick(record), chance) for record in records]
    found = headline_units(items, POOLED_MEASURES[0])
    for name in POOLED_MEASURES[1:]:
        found[name] = found[POOLED_MEASURES[0]]
    return found


# Option A, B, C or D on every item, and the last listed option on every item.
constant_a, constant_b, constant_c, constant_d = (
    partial(_scored, pick=lambda record, index=index: index) for index in range(4)
)
last_listed = partial(_scored, pick=lambda record: len(record.choices) - 1)
STRATEGIES: tuple[TrivialStrategy, ...] = (
    *(
        TrivialStrategy(f"constant {letter}", f"cog_tasks.coglm.trivial:constant_{letter.lower()}")
        for letter in "ABCD"
    ),
    TrivialStrategy("last listed option", "cog_tasks.coglm.trivial:last_listed"),
)
