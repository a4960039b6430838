"""Assemble the static environment: every scenario's items from one seed.

Sizes count different things per scenario: stories for Daily Life (six
questions each), hands for Blackjack (four or five questions each) and items
for Counterfactual and New World. Users who hold the authors' records pass
``data_file`` and get those items in place of the generated Daily Life ones.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from cog_tasks.egosocial.blackjack import generate_blackjack
from cog_tasks.egosocial.counterfactual import generate_counterfactual
from cog_tasks.egosocial.daily_life import generate_daily_life
from cog_tasks.egosocial.new_world import generate_new_world
from cog_tasks.egosocial.records import SCENARIOS, EgoItem, load_authors_records

GENERATORS: dict[str, Callable[[int, int], list[EgoItem]]] = {
    "daily_life": generate_daily_life,
    "counterfactual": generate_counterfactual,
    "new_world": generate_new_world,
    "blackjack": generate_blackjack,
}
#: Default sizes: 40 stories (240 items), 120 items, 40 items, 30 hands (~145 items).
DEFAULT_SIZES = {"daily_life": 40, "counterfactual": 120, "new_world": 40, "blackjack": 30}


def build_static_items(
    scenario: str = "all",
    seed: int = 0,
    size: int | None = None,
    data_file: str | Path | None = None,
) -> list[EgoItem]:
    """Build the items of one scenario, or of all four.

    Args:
        scenario: ``all`` or one of :data:`~cog_tasks.egosocial.records.SCENARIOS`.
        seed: Seed for every generator.
        size: Size per scenario (see the module docstring); defaults to
            :data:`DEFAULT_SIZES`.
        data_file: Authors' records (JSON/JSONL) that replace the generated
            Daily Life items.

    Returns:
        The items, scenario by scenario.

    Raises:
        ValueError: For an unknown scenario.
    """
    if scenario != "all" and scenario not in SCENARIOS:
        raise ValueError(f"unknown scenario {scenario!r}; expected 'all' or one of {SCENARIOS}")
    items: list[EgoItem] = []
    for name in SCENARIOS if scenario == "all" else (scenario,):
        if name == "daily_life" and data_file is not None:
            items += load_authors_records(data_file, scenario="daily_life")
        else:
            items += GENERATORS[name](seed, size if size is not None else DEFAULT_SIZES[name])
    return items
