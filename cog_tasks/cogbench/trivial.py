"""CogBench's trivial strategies: a constant rating, pooled into κ on the model's trajectories."""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from functools import partial

from cog_tasks.cogbench.intervals import UnitTallies, kappa_payload
from cog_tasks.cogbench.loader import load_trajectories
from cog_tasks.cogbench.metrics import LIKERT, check_weights
from cog_tasks.cogbench.records import Trajectory
from cog_tasks.common.runs import RunIdentity
from cog_tasks.common.spec import TrivialStrategy
from cog_tasks.common.stats import UnitValue

MEASURE = "authenticity_avg"


def _trajectories(units: Collection[str], run: RunIdentity) -> list[Trajectory]:
    """The run's trajectories of ``units``, from its own data arguments, to its last iteration."""
    arguments = dict(run.arguments)
    found, _ = load_trajectories(
        arguments.get("subset", "a"),
        arguments.get("language", "english"),
        arguments.get("source") or None,
        arguments.get("revision") or None,
        max_iteration=int(arguments["iterations"]) if arguments.get("iterations") else None,
    )
    wanted = set(units)
    kept = [trajectory for trajectory in found if trajectory.id in wanted]
    missing = wanted - {trajectory.id for trajectory in kept}
    if missing:
        raise ValueError(f"CogBench has no trajectories {', '.join(sorted(missing)[:5])}")
    return kept


def _scores(
    units: Collection[str], run: RunIdentity, rating: int | None
) -> dict[str, dict[str, UnitValue]]:
    """Per trajectory, the κ payload of rating every statement ``rating`` (``None``: majority)."""
    trajectories = _trajectories(units, run)
    arguments = dict(run.arguments)
    weights = check_weights(arguments.get("weights") or None)
    kappa = arguments.get("kappa") or "pooled"
    if rating is None:
        counts = Counter(
            h for t in trajectories for step in t.steps for h in step.human_ratings if h
        )
        rating = counts.most_common(1)[0][0] if counts else LIKERT[len(LIKERT) // 2]
    values: dict[str, UnitValue] = {}
    for trajectory in trajectories:
        value = trajectory.rated_alike(rating, weights, kappa)
        values[trajectory.id] = kappa_payload(UnitTallies.from_value(value, weights), kappa)
    return {f"{MEASURE}_{arguments.get('subset', 'a')}": values}


rating_1 = partial(_scores, rating=1)
rating_2 = partial(_scores, rating=2)
rating_3 = partial(_scores, rating=3)
rating_4 = partial(_scores, rating=4)
rating_5 = partial(_scores, rating=5)
human_majority = partial(_scores, rating=None)
"""The strategies' scoring functions: one constant rating, or the human majority."""

STRATEGIES: tuple[TrivialStrategy, ...] = (
    *(
        TrivialStrategy(
            f"rating {rating} on every statement", f"cog_tasks.cogbench.trivial:rating_{rating}"
        )
        for rating in LIKERT
    ),
    TrivialStrategy(
        "the most common human rating on every statement",
        "cog_tasks.cogbench.trivial:human_majority",
    ),
)
