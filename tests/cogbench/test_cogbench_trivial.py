"""CogBench's constant raters are scored per trajectory on exactly the model row's trajectories.

A trajectory's value is its κ payload; the headline's statistic (``kappa_of_sums``) reads it.
"""

from __future__ import annotations

import pytest

from cog_tasks.cogbench.intervals import kappa_statistic
from cog_tasks.cogbench.loader import load_trajectories
from cog_tasks.cogbench.metrics import RatingTally
from cog_tasks.cogbench.trivial import STRATEGIES
from cog_tasks.common.results import sum_statistic
from cog_tasks.common.runs import RunIdentity
from cog_tasks.common.spec import load
from cog_tasks.common.stats import headline_of

KAPPA = sum_statistic(kappa_statistic(None))

RUN = RunIdentity.of("cogbench@4.2.0", "chance", arguments={"subset": "a", "source": "sample"})


def test_constant_raters_score_the_rows_trajectories_at_kappa_zero_or_one() -> None:
    trajectories, _ = load_trajectories("a", source="sample")
    units = [trajectory.id for trajectory in trajectories][:2]
    for strategy in STRATEGIES:
        scored = load(strategy.score)(units, RUN)
        assert set(scored) == {"authenticity_avg_a"}
        assert set(scored["authenticity_avg_a"]) == set(units), strategy.name
    rating_3 = load(STRATEGIES[2].score)(units, RUN)["authenticity_avg_a"]
    for trajectory in trajectories[:2]:
        kappas = [
            RatingTally.from_ratings(step.human_ratings, [3] * len(step.questions)).kappa()
            for step in trajectory.steps
            if step.iteration >= 1
        ]
        kappa = headline_of([rating_3[trajectory.id]], KAPPA)
        assert kappa == pytest.approx(sum(kappas) / len(kappas))
        assert all(kappa in (pytest.approx(0.0), pytest.approx(1.0)) for kappa in kappas)


def test_only_the_runs_iterations_count() -> None:
    trajectories, _ = load_trajectories("a", source="sample", max_iteration=1)
    units = [trajectory.id for trajectory in trajectories][:1]
    run = RunIdentity.of("cogbench@4.2.0", "m", arguments={"source": "sample", "iterations": "1"})
    [step] = [s for s in trajectories[0].steps if s.iteration == 1]
    expected = RatingTally.from_ratings(step.human_ratings, [2] * len(step.questions)).kappa()
    payload = load(STRATEGIES[1].score)(units, run)["authenticity_avg_a"][units[0]]
    assert set(payload) == {"0", "1"} and headline_of([payload], KAPPA) == pytest.approx(expected)


def test_a_trajectory_the_data_lacks_is_refused() -> None:
    with pytest.raises(ValueError, match="no trajectories"):
        load(STRATEGIES[0].score)(["a-nowhere-nobody"], RUN)
