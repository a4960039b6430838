"""CogBench's trivial strategies: a constant rating, on the model row's own trajectories.

Each rates every statement alike (1-5, or the run's most common human rating), scored per
trajectory as κ averaged over iterations >= 1; a constant's κ is 0 wherever humans vary.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping

from cog_tasks.cogbench.loader import load_trajectories
from cog_tasks.cogbench.metrics import LIKERT, RatingTally, check_weights
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


def _constant(units: Collection[str], run: RunIdentity, rating: int | None) -> dict[str, float]:
    """Per trajectory, the κ of rating every statement ``rating`` (``None``: the majority)."""
    trajectories = _trajectories(units, run)
    weights = check_weights(dict(run.arguments).get("weights") or None)
    if rating is None:
        counts = Counter(
            h for t in trajectories for step in t.steps for h in step.human_ratings if h
        )
        rating = counts.most_common(1)[0][0] if counts else LIKERT[len(LIKERT) // 2]
    values: dict[str, float] = {}
    for trajectory in trajectories:
        kappas = [
            kappa
            for step in trajectory.steps
            if step.iteration >= 1
            and (
                kappa := RatingTally.from_ratings(
                    step.human_ratings, [rating] * len(step.human_ratings), weights
                ).kappa()
            )
            is not None
        ]
        if kappas:
            values[trajectory.id] = sum(kappas) / len(kappas)
    return values


def _scores(
    units: Collection[str], run: RunIdentity, rating: int | None
) -> dict[str, dict[str, UnitValue]]:
    subset = dict(run.arguments).get("subset", "a")
    return {f"{MEASURE}_{subset}": _constant(units, run, rating)}


def rating_1(units: Collection[str], run: RunIdentity) -> Mapping[str, dict[str, UnitValue]]:
    """Rating 1 on every statement."""
    return _scores(units, run, 1)


def rating_2(units: Collection[str], run: RunIdentity) -> Mapping[str, dict[str, UnitValue]]:
    """Rating 2 on every statement."""
    return _scores(units, run, 2)


def rating_3(units: Collection[str], run: RunIdentity) -> Mapping[str, dict[str, UnitValue]]:
    """Rating 3 on every statement."""
    return _scores(units, run, 3)


def rating_4(units: Collection[str], run: RunIdentity) -> Mapping[str, dict[str, UnitValue]]:
    """Rating 4 on every statement."""
    return _scores(units, run, 4)


def rating_5(units: Collection[str], run: RunIdentity) -> Mapping[str, dict[str, UnitValue]]:
    """Rating 5 on every statement."""
    return _scores(units, run, 5)


def human_majority(units: Collection[str], run: RunIdentity) -> Mapping[str, dict[str, UnitValue]]:
    """The most common human rating of the run's trajectories on every statement."""
    return _scores(units, run, None)


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
