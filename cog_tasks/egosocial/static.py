"""Assemble the static environment: the authors' items, generated items, or both."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

from cog_tasks.common.params import ParameterError, split_names
from cog_tasks.egosocial.authors import CHOICE_FILES, ERRATA, load_choice_items
from cog_tasks.egosocial.blackjack import generate_blackjack
from cog_tasks.egosocial.counterfactual import generate_counterfactual
from cog_tasks.egosocial.daily_life import generate_daily_life
from cog_tasks.egosocial.new_world import generate_new_world
from cog_tasks.egosocial.records import SCENARIOS, EgoItem, Scenario

SOURCES = ("authors", "generated", "both")
GENERATORS: dict[str, Callable[[int, int], list[EgoItem]]] = {
    "daily_life": generate_daily_life,
    "counterfactual": generate_counterfactual,
    "new_world": generate_new_world,
    "blackjack": generate_blackjack,
}
#: Default sizes: 40 stories (240 belief items + 200 others), 120 items, 40 items, 30 hands.
DEFAULT_SIZES = {"daily_life": 40, "counterfactual": 120, "new_world": 40, "blackjack": 30}


def parse_scenarios(scenarios: str | Sequence[str] | None, source: str) -> tuple[Scenario, ...]:
    """The scenarios to build, in canonical order; ``None`` or ``all``: every one the source has."""
    if source not in SOURCES:
        raise ParameterError(f"unknown source {source!r}; expected one of {SOURCES}")
    names = [name for name in split_names(scenarios or []) if name]
    if not names or names == ["all"]:
        return tuple(CHOICE_FILES) if source == "authors" else SCENARIOS  # type: ignore[return-value]
    unknown = [name for name in names if name not in SCENARIOS]
    if unknown:
        raise ParameterError(
            f"scenarios: unknown scenario(s) {unknown}; expected 'all' or some of {SCENARIOS}"
        )
    return tuple(name for name in SCENARIOS if name in names)


def build_static_items(
    source: str = "authors",
    scenarios: str | Sequence[str] | None = None,
    seed: int = 0,
    size: int | None = None,
    data_file: str | os.PathLike[str] | None = None,
    exclude_errata: bool = False,
) -> list[EgoItem]:
    """Build the static items of some scenarios, the authors' first under ``both``."""
    selected = parse_scenarios(scenarios, source)
    if size is not None and size < 1:
        raise ParameterError(f"size must be at least 1, got {size}")
    if data_file is not None:
        if source == "generated":
            raise ParameterError(
                "data_file holds records in the authors' format; use source=authors"
            )
        if len(selected) != 1:
            raise ParameterError(
                f"data_file replaces the items of one scenario; name it with scenarios=..., "
                f"not {','.join(selected)}"
            )
    items: list[EgoItem] = []
    for name in selected:
        if source in ("authors", "both") and (data_file is not None or name in CHOICE_FILES):
            items += load_choice_items(name, data_file=data_file)
        elif source == "authors":
            items += load_choice_items(name)  # raises: the authors have no items here
        if source in ("generated", "both"):
            items += GENERATORS[name](seed, size if size is not None else DEFAULT_SIZES[name])
    return [item for item in items if not (exclude_errata and item.id in ERRATA)]
