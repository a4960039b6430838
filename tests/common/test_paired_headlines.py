"""Every headline pairs between two runs: CogBench's κ per trajectory, CogLM's age per item.

Both go through the one path of the results model: per-unit payloads, the headline's statistic
(the function its report computes it with), one draw of shared units per replicate.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from cog_tasks.cogbench.intervals import (
    UnitTallies,
    authenticity_interval,
    kappa_payload,
    kappa_statistic,
)
from cog_tasks.cogbench.metrics import RatingTally
from cog_tasks.coglm.abilities import ABILITIES
from cog_tasks.coglm.headlines import item_headlines
from cog_tasks.coglm.metrics import AGE_MAPPING, ScoredItem, cognitive_age, stage_scores
from cog_tasks.common.headlines import Headline
from cog_tasks.common.results import YEARS_SPAN, compare_units, difference_bounds, sum_statistic
from cog_tasks.common.runs import RunIdentity
from cog_tasks.common.stats import headline_of


def _trajectories(noise: float, seed: int, weights: str | None = None) -> dict[str, UnitTallies]:
    rng = np.random.default_rng(seed)
    units = {}
    for trajectory in range(14):
        tallies = {}
        for iteration in (0, 1, 2):
            human = rng.integers(1, 6, size=10)
            agent = np.where(rng.random(10) < noise, rng.integers(1, 6, size=10), human)
            tallies[iteration] = RatingTally.from_ratings(human.tolist(), agent.tolist(), weights)
        units[f"t{trajectory}"] = UnitTallies.from_iterations(tallies)
    return units


def _kappa(units: dict[str, UnitTallies], payloads: dict) -> object:
    return compare_units(
        {key: kappa_payload(unit) for key, unit in units.items()},
        payloads,
        unit="trajectory",
        scale="kappa",
        statistic=kappa_statistic(None),
    ).difference


def test_kappa_pairs_per_trajectory() -> None:
    close, loose = _trajectories(0.2, 1), _trajectories(0.9, 2)
    loose_payloads = {key: kappa_payload(unit) for key, unit in loose.items()}
    difference = _kappa(close, loose_payloads)
    alone = [authenticity_interval(list(run.values())).value for run in (close, loose)]
    assert difference.value == pytest.approx(alone[0] - alone[1])
    assert difference.n == 14 and difference.method == "bootstrap" and difference.excludes(0.0)
    assert -2.0 <= difference.low < difference.value < difference.high <= 2.0
    # A run against itself: 0 inside an interval around it, never zero-width.
    same = _kappa(loose, loose_payloads)
    assert same.value == 0.0 and same.low < 0.0 < same.high and not same.excludes(0.0)
    assert -2.0 <= same.low and same.high <= 2.0
    few = _kappa(dict(list(close.items())[:4]), loose_payloads)
    assert few.format().endswith("[no interval: 4 trajectories]")


def test_the_kappa_statistic_is_the_reports_for_every_weighting() -> None:
    for weights in (None, "linear", "quadratic"):
        units = list(_trajectories(0.5, 3, weights).values())
        statistic = sum_statistic(kappa_statistic(weights))
        value = headline_of([kappa_payload(unit) for unit in units], statistic)
        assert value == authenticity_interval(units).value


def _items(share_right: float, seed: int) -> list[ScoredItem]:
    rng = np.random.default_rng(seed)
    return [
        ScoredItem(ability.code, 4, float(rng.random() < share_right), True, f"{ability.code}-{k}")
        for ability in ABILITIES
        for k in range(12)
    ]


def _age_headline(items: list[ScoredItem]) -> Headline:
    found = item_headlines(items, RunIdentity.of("t@1", "m"), pooled_measure="pooled")
    return next(headline for headline in found if headline.measure == "cognitive_age")


def _pair(first: Headline, second: Headline) -> object:
    return compare_units(
        first.units,
        second.units,
        unit=first.interval.unit,
        scale=first.scale,
        statistic=first.statistic,
    ).difference


def test_cognitive_age_pairs_per_item() -> None:
    strong, weak = _age_headline(_items(0.9, 3)), _age_headline(_items(0.4, 4))

    def age(items: list[ScoredItem]) -> float:
        by_ability: dict[str, list[float]] = {}
        for item in items:
            by_ability.setdefault(item.ability, []).append(float(item.correct))
        calibrated = {code: (np.mean(v) - 0.25) / 0.75 for code, v in by_ability.items()}
        return cognitive_age(stage_scores(calibrated))  # type: ignore[return-value]

    difference = _pair(strong, weak)
    assert difference.value == pytest.approx(age(_items(0.9, 3)) - age(_items(0.4, 4)))
    assert difference.value == pytest.approx(strong.interval.value - weak.interval.value)
    assert difference.unit == "item" and difference.n == len(strong.units) == 120
    assert difference.method == "bootstrap" and difference.excludes(0.0)
    # A run against itself: 0 inside an interval around it, within the ages' range.
    same = _pair(strong, strong)
    assert same.value == 0.0 and same.low < 0.0 < same.high and same.method == "wilson"
    assert -YEARS_SPAN <= same.low and same.high <= YEARS_SPAN


def test_the_years_span_covers_every_difference_of_two_ages() -> None:
    """Stage scores are calibrated accuracies, within [-1, 1]; the map is linear in them."""
    assert (
        2 * sum(AGE_MAPPING.stage_weights) <= YEARS_SPAN < 2 * sum(AGE_MAPPING.stage_weights) + 0.01
    )
    assert difference_bounds("years", {}, {}) == (-YEARS_SPAN, YEARS_SPAN)


def test_the_age_statistic_is_the_headlines_value() -> None:
    headline = _age_headline(_items(0.7, 5))
    assert headline.statistic == "cog_tasks.coglm.metrics:age_of_sums"
    value = headline_of(list(headline.units.values()), sum_statistic(headline.statistic))
    assert value == pytest.approx(headline.interval.value, abs=1e-12)
    assert not math.isnan(value)
