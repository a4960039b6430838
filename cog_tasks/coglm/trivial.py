"""CogLM's trivial strategies (a constant letter or position), scored as a run's items are."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping

from cog_tasks.coglm.headlines import answered, headline_units
from cog_tasks.coglm.records import CogLMRecord, load_records
from cog_tasks.coglm.rules import DEFAULT_CHANCE, RULES
from cog_tasks.common.runs import RunIdentity
from cog_tasks.common.spec import TrivialStrategy
from cog_tasks.common.stats import UnitValue

#: Every name the pooled calibrated accuracy takes (Inspect, then lm-eval's choice rules).
POOLED_MEASURES = ("calibrated_acc_pooled", *(f"calibrated_{name}" for name in RULES.values()))


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


def constant_a(units: Collection[str], run: RunIdentity) -> Mapping[str, dict[str, UnitValue]]:
    """Option A on every item."""
    return _scored(units, run, lambda record: 0)


def constant_b(units: Collection[str], run: RunIdentity) -> Mapping[str, dict[str, UnitValue]]:
    """Option B on every item."""
    return _scored(units, run, lambda record: 1)


def constant_c(units: Collection[str], run: RunIdentity) -> Mapping[str, dict[str, UnitValue]]:
    """Option C on every item."""
    return _scored(units, run, lambda record: 2)


def constant_d(units: Collection[str], run: RunIdentity) -> Mapping[str, dict[str, UnitValue]]:
    """Option D on every item."""
    return _scored(units, run, lambda record: 3)


def last_listed(units: Collection[str], run: RunIdentity) -> Mapping[str, dict[str, UnitValue]]:
    """The last listed option on every item."""
    return _scored(units, run, lambda record: len(record.choices) - 1)


STRATEGIES: tuple[TrivialStrategy, ...] = (
    *(
        TrivialStrategy(f"constant {letter}", f"cog_tasks.coglm.trivial:constant_{letter.lower()}")
        for letter in "ABCD"
    ),
    TrivialStrategy("last listed option", "cog_tasks.coglm.trivial:last_listed"),
)
