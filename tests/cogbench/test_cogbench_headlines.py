"""Headline numbers with intervals over trajectories, paper rows and the feedback followers."""

import math
from pathlib import Path

import numpy as np
import pytest

from cog_tasks.cogbench.evaluation import copy_previous_tallies, follower_tallies
from cog_tasks.cogbench.inspect import cogbench
from cog_tasks.cogbench.inspect.chance import ChanceRater
from cog_tasks.cogbench.inspect.headlines import NO_HUMAN_AGREEMENT, SELF_JUDGED, headlines
from cog_tasks.cogbench.inspect.logs import FIXTURE_NOTE, checked_runs
from cog_tasks.cogbench.inspect.solver import STORE_KEY
from cog_tasks.cogbench.intervals import UnitTallies, authenticity_interval
from cog_tasks.cogbench.loader import load_trajectories
from cog_tasks.cogbench.metrics import RatingTally
from cog_tasks.cogbench.paper import PAPER_ROWS
from cog_tasks.common.scripted import run_chance_model
from cog_tasks.common.stats import SMALL_N


@pytest.fixture(scope="module")
def chance_log(tmp_path_factory: pytest.TempPathFactory):
    task = cogbench(agent="cot", source="sample", subset="a", iterations=3, self_judge=True)
    return run_chance_model(task, ChanceRater(seed=0), str(tmp_path_factory.mktemp("logs")))


@pytest.mark.slow
def test_headlines_of_a_chance_run(chance_log) -> None:
    found = {headline.measure: headline for headline in headlines(chance_log)}
    assert set(found) == {
        "authenticity_avg_a",
        "invalid_rate_a",
        "rationality_avg_a",
        "judge_invalid_rate_a",
    }
    assert found["authenticity_avg_a"].scale == "kappa"
    assert all(headline.coverage is not None for headline in found.values())
    kappa = found["authenticity_avg_a"].interval
    assert kappa.unit == "trajectory" and kappa.n == len(chance_log.samples)
    # four trajectories: below SMALL_N, so no percentile bootstrap (κ is no mean: no t interval)
    assert kappa.n < SMALL_N and kappa.method == "none" and math.isnan(kappa.low)
    # The headline equals the task's own metric.
    metric = chance_log.results.scores[0].metrics["authenticity_avg_a"].value
    assert kappa.value == pytest.approx(metric)
    judged = found["rationality_avg_a"]
    assert set(judged.units) == {str(sample.id) for sample in chance_log.samples}
    top = sum(value[0] for value in judged.units.values())
    bottom = sum(value[1] for value in judged.units.values())
    assert judged.interval.value == pytest.approx(top / bottom)
    assert FIXTURE_NOTE in judged.note and "judge: self" in judged.note
    asked = sum(len(it["answers"]) for s in chance_log.samples for it in s.store[STORE_KEY])
    assert f"0 of {asked} judge replies unreadable" in judged.note
    assert "readable-only avg" in judged.note
    assert SELF_JUDGED in judged.note and NO_HUMAN_AGREEMENT in judged.note
    assert found["judge_invalid_rate_a"].interval.value == 0.0
    assert found["invalid_rate_a"].interval.value == 0.0
    replies = "0 replies cut at the token limit and 0 failed distillations (all epochs)"
    assert replies in found["authenticity_avg_a"].note and replies in found["invalid_rate_a"].note
    assert dict(judged.run.arguments)["agent"] == "cot"


def test_interval_resamples_whole_trajectories() -> None:
    """Trajectories agreeing perfectly or not at all: κ's interval spans the two kinds.

    Below 10 trajectories no percentile bootstrap is drawn, so two give none.
    """
    perfect = RatingTally.from_ratings([1, 2, 3, 4, 5], [1, 2, 3, 4, 5])
    wrong = RatingTally.from_ratings([1, 2, 3, 4, 5], [2, 3, 4, 5, 1])
    two = [UnitTallies.from_iterations({1: perfect}), UnitTallies.from_iterations({1: wrong})]
    few = authenticity_interval(two)
    assert few.value == pytest.approx((perfect + wrong).kappa())
    assert few.method == "none" and math.isnan(few.low) and few.n == 2
    interval = authenticity_interval(two * 6)
    assert interval.method == "bootstrap" and interval.n == 12
    assert wrong.kappa() <= interval.low < interval.value < interval.high <= 1.0


def test_followers_on_the_sample_trajectories() -> None:
    trajectories, _ = load_trajectories("a", source="sample")
    pooled = copy_previous_tallies(trajectories)
    summed: dict[int, RatingTally] = {}
    for trajectory in trajectories:
        for t, tally in follower_tallies(trajectory, "rating").items():
            summed[t] = summed[t] + tally if t in summed else tally
    assert {t: s.kappa() for t, s in summed.items()} == {t: p.kappa() for t, p in pooled.items()}
    direction = [follower_tallies(t, "direction") for t in trajectories]
    # The direction follower starts at 3 and moves one step towards the last human rating.
    first = trajectories[0]
    step0 = dict(zip(first.steps[0].questions, first.steps[0].human_ratings, strict=True))
    expected = [3 + ((3 < h) - (3 > h)) for h in step0.values()]
    assert direction[0][1] == RatingTally.from_ratings(first.steps[1].human_ratings, expected)
    with pytest.raises(ValueError, match="no follower"):
        follower_tallies(first, "none")


def test_paper_rows_are_tables_2_and_3() -> None:
    rows = {(row.measure, row.model): row.value for row in PAPER_ROWS}
    assert rows[("authenticity_avg_a", "gpt-4-0613 (CogGPT agent)")] == 0.536
    assert rows[("rationality_avg_v", "gpt-4-0613 (Reflexion* agent)")] == 3.888
    assert len(PAPER_ROWS) == 16 and all(row.differs for row in PAPER_ROWS)


@pytest.mark.slow
def test_epochs_are_averaged_within_trajectories(tmp_path: Path) -> None:
    task = cogbench(agent="cot", source="sample", subset="v", iterations=1, judge=False)
    log = run_chance_model(task, ChanceRater(seed=1), str(tmp_path), epochs=2)
    (run,) = checked_runs([log])
    coverage = run.checked.coverage
    assert (coverage.units, coverage.epochs) == (len({s.id for s in log.samples}), 2)
    pairs = [values["t1_pairs"] for values in run.checked.values.values()]
    assert np.all(np.array(pairs) == 5)  # 5 statements, the mean of 2 epochs: a unit, not an epoch
    units = [UnitTallies.from_value(v, None) for v in run.checked.values.values()]
    assert authenticity_interval(units, iteration=1).n == coverage.units
