"""Every headline pairs between two runs: CogBench's κ per trajectory, CogLM's age per item."""

from __future__ import annotations

import numpy as np
import pytest

from cog_tasks.cogbench.intervals import UnitTallies, authenticity_difference, authenticity_interval
from cog_tasks.cogbench.metrics import RatingTally
from cog_tasks.coglm.abilities import ABILITIES
from cog_tasks.coglm.metrics import ScoredItem, age_difference, cognitive_age, stage_scores


def _trajectories(noise: float, seed: int) -> dict[str, UnitTallies]:
    rng = np.random.default_rng(seed)
    units = {}
    for trajectory in range(14):
        tallies = {}
        for iteration in (0, 1, 2):
            human = rng.integers(1, 6, size=10)
            agent = np.where(rng.random(10) < noise, rng.integers(1, 6, size=10), human)
            tallies[iteration] = RatingTally.from_ratings(human.tolist(), agent.tolist())
        units[f"t{trajectory}"] = UnitTallies.from_iterations(tallies)
    return units


def test_kappa_pairs_per_trajectory() -> None:
    close, loose = _trajectories(0.2, 1), _trajectories(0.9, 2)
    difference = authenticity_difference(close, loose)
    alone = [authenticity_interval(list(run.values())).value for run in (close, loose)]
    assert difference.value == pytest.approx(alone[0] - alone[1])
    assert difference.n == 14 and difference.method == "bootstrap" and difference.excludes(0.0)
    same = authenticity_difference(close, dict(close))
    assert same.format() == "0.000 [no interval: 14 trajectories, all alike]"
    few = authenticity_difference(dict(list(close.items())[:4]), loose)
    assert few.format().endswith("[no interval: 4 trajectories]")


def _items(share_right: float, seed: int) -> dict[str, ScoredItem]:
    rng = np.random.default_rng(seed)
    return {
        f"{ability.code}-{k}": ScoredItem(ability.code, 4, float(rng.random() < share_right))
        for ability in ABILITIES
        for k in range(12)
    }


def test_cognitive_age_pairs_per_item() -> None:
    strong, weak = _items(0.9, 3), _items(0.4, 4)

    def age(run: dict[str, ScoredItem]) -> float:
        by_ability: dict[str, list[float]] = {}
        for item in run.values():
            by_ability.setdefault(item.ability, []).append(float(item.correct))
        calibrated = {code: (np.mean(v) - 0.25) / 0.75 for code, v in by_ability.items()}
        return cognitive_age(stage_scores(calibrated))  # type: ignore[return-value]

    difference = age_difference(strong, weak)
    assert difference.value == pytest.approx(age(strong) - age(weak))
    assert difference.unit == "item" and difference.n == len(strong)
    assert difference.excludes(0.0)
