"""The statistics module on cases with a known answer."""

from __future__ import annotations

import math

import numpy as np
import pytest

from cog_tasks.common.stats import (
    SMALL_N,
    WILSON_BELOW,
    bootstrap_interval,
    cluster_mean_interval,
    mean_interval,
    paired_difference,
    ratio_interval,
    wilson_interval,
)


def test_wilson_matches_the_textbook_value() -> None:
    # 8 successes in 10: Wilson 95 % interval is (0.4902, 0.9433) (Newcombe 1998, z=1.96).
    interval = wilson_interval(8, 10, unit="game")
    assert (interval.low, interval.high) == pytest.approx((0.4902, 0.9433), abs=1e-4)
    assert interval.method == "wilson" and interval.n == 10
    zero = wilson_interval(0, 10, unit="game")
    assert zero.low == 0.0 and zero.high == pytest.approx(0.2775, abs=1e-4)


def test_small_proportions_get_wilson_and_large_ones_a_bootstrap() -> None:
    assert mean_interval([1, 0] * 10, unit="item").method == "wilson"
    assert mean_interval([1, 0] * WILSON_BELOW, unit="item").method == "bootstrap"
    assert mean_interval([0.5, 0.25, 1.0] * 4, unit="trajectory").method == "bootstrap"


def test_below_small_n_no_percentile_bootstrap_and_no_significance() -> None:
    # Three trajectories: a t interval (t(2) = 4.303), never a percentile bootstrap.
    values = [0.5, 0.25, 1.0]
    interval = mean_interval(values, unit="trajectory")
    half = 4.302652729911275 * np.std(values, ddof=1) / math.sqrt(3)
    assert interval.method == "t" and interval.n == 3
    assert (interval.low, interval.high) == pytest.approx(
        (np.mean(values) - half, np.mean(values) + half)
    )
    # Far from 0, yet below SMALL_N units nothing is marked significant.
    strong = mean_interval([5.0, 5.1, 4.9], unit="game")
    assert strong.excludes(0.0) and not strong.significant(0.0)
    assert mean_interval([5.0, 5.1, 4.9] * 4, unit="game").significant(0.0)
    # A generic statistic over few units gets no interval at all.
    assert bootstrap_interval(lambda i: float(len(i)), SMALL_N - 1, unit="item").method == "none"


def test_bootstrap_of_a_mean_agrees_with_the_normal_interval() -> None:
    values = np.random.default_rng(7).normal(10.0, 2.0, size=400)
    interval = mean_interval(values, unit="item", seed=1)
    half_width = 1.96 * values.std(ddof=1) / math.sqrt(len(values))
    assert interval.value == pytest.approx(values.mean())
    assert interval.low == pytest.approx(values.mean() - half_width, abs=0.03)
    assert interval.high == pytest.approx(values.mean() + half_width, abs=0.03)


def test_bootstrap_is_seeded_and_constant_data_gives_no_interval() -> None:
    values = np.random.default_rng(3).integers(0, 2, size=100)
    assert mean_interval(values, unit="item", seed=5) == mean_interval(values, unit="item", seed=5)
    assert mean_interval(values, unit="item", seed=5) != mean_interval(values, unit="item", seed=6)
    # Constant scores that are not 0/1 outcomes (a rating, a per-game win share)
    # would bootstrap to a point: no interval instead, at any count.
    for count in (4, 40):
        constant = mean_interval([0.5] * count, unit="item")
        assert (constant.value, constant.method, constant.n) == (0.5, "none", count)
        assert math.isnan(constant.low) and not constant.significant(0.0)
    # A ratio of sums whose every unit has the same share: 10 games each won 6 of 10.
    games = ratio_interval([(6.0, 10.0)] * 10, unit="game")
    assert games.value == pytest.approx(0.6) and games.method == "none"
    assert games.format() == "0.600 [no interval: 10 games]"
    # One unit apart: an interval again.
    assert ratio_interval([(6.0, 10.0)] * 9 + [(5.0, 10.0)], unit="game").method != "none"


def test_statistic_is_bootstrapped_through_its_formula() -> None:
    # A ratio of sums, not a mean of ratios: the value is the pooled ratio.
    top = np.array([1.0, 2.0, 3.0, 4.0])
    bottom = np.array([2.0, 2.0, 2.0, 2.0])
    top, bottom = np.tile(top, 3), np.tile(bottom, 3)
    interval = bootstrap_interval(
        lambda i: float(top[i].sum() / bottom[i].sum()), 12, unit="item", resamples=500
    )
    assert interval.method == "bootstrap"
    assert interval.value == pytest.approx(1.25)
    assert 0.5 <= interval.low < 1.25 < interval.high <= 2.0


def test_no_units_and_nan_values() -> None:
    assert math.isnan(mean_interval([], unit="item").value)
    assert mean_interval([], unit="item").format() == "n/a"
    with pytest.raises(ValueError, match="NaN"):
        mean_interval([1.0, float("nan")], unit="item")


def test_cluster_bootstrap_resamples_whole_tasks() -> None:
    # Two tasks, each with 50 identical dialogs: 100 rows but 2 independent units.
    values = [1.0] * 50 + [0.0] * 50
    clusters = ["a"] * 50 + ["b"] * 50
    clustered = cluster_mean_interval(values, clusters, unit="task", resamples=500)
    naive = mean_interval(values, unit="dialog", resamples=500)
    assert clustered.n == 2 and naive.n == 100
    # Two units: a t interval (t(1) = 12.7), cut to a share's range [0, 1].
    assert clustered.method == "t"
    assert clustered.low == 0.0 and clustered.high == 1.0
    assert naive.high - naive.low < 0.3


def test_paired_difference_uses_shared_units_only() -> None:
    first = {f"item{i}": float(i % 2) for i in range(60)}
    second = dict(first) | {"extra": 1.0}
    same = paired_difference(first, second, unit="item")
    bound = wilson_interval(0, 60, unit="item").high  # no discordant pair of 60
    assert same.n == 60 and same.as_list() == [-bound, bound] and not same.excludes(0.0)
    better = {key: 1.0 for key in first}
    difference = paired_difference(better, first, unit="item")
    assert difference.value == pytest.approx(0.5) and difference.excludes(0.0)


def test_paired_difference_of_ratios_of_sums() -> None:
    # Pooled calibrated accuracy as sum(correct - 1/n) / sum(1 - 1/n), 4 options each.
    first = {i: (1 - 0.25, 0.75) for i in range(40)}
    second = {i: ((i % 2) - 0.25, 0.75) for i in range(40)}
    difference = paired_difference(first, second, unit="item")
    # 1.0 against (0.5 - 0.25) / 0.75 = 1/3.
    assert difference.value == pytest.approx(2 / 3)
    assert difference.excludes(0.0)


def test_ratio_interval_is_a_ratio_of_sums() -> None:
    interval = ratio_interval([(1.0, 2.0), (3.0, 2.0), (0.0, 4.0)], unit="match", resamples=300)
    assert interval.value == pytest.approx(0.5)  # 4 / 8, not the mean of 0.5, 1.5 and 0
    assert interval.low <= 0.5 <= interval.high
    assert math.isnan(ratio_interval([(0.0, 0.0)], unit="match").value)


def test_unanimous_binary_values_get_wilson_not_a_zero_width_interval() -> None:
    none_right = mean_interval([0.0] * 35, unit="statement")
    assert (none_right.value, none_right.low) == (0.0, 0.0)
    assert none_right.method == "wilson" and none_right.high > 0.09
    all_right = mean_interval([1.0] * 40, unit="item")
    assert all_right.low < 1.0 == all_right.high
    tasks = cluster_mean_interval([0.0] * 27, [i // 3 for i in range(27)], unit="task")
    assert tasks.n == 9 and tasks.method == "wilson" and tasks.high > 0.25
    # No invalid action in any match: Wilson over the matches that had actions.
    matches = ratio_interval([(0.0, 4.0)] * 59 + [(0.0, 0.0)], unit="match")
    assert (matches.value, matches.low, matches.n, matches.method) == (0.0, 0.0, 59, "wilson")
    assert matches.high > 0.05
    solved = cluster_mean_interval([1.0] * 6, [0, 0, 1, 1, 2, 2], unit="task")
    assert (solved.value, solved.high, solved.n, solved.method) == (1.0, 1.0, 3, "wilson")
    every_event = ratio_interval([(2.0, 2.0), (3.0, 3.0)] * 20, unit="match")
    assert (every_event.value, every_event.n, every_event.method) == (1.0, 40, "wilson")


def test_mixed_or_non_binary_values_are_bootstrapped() -> None:
    mixed = cluster_mean_interval([1.0, 0.0] * 20, list(range(40)), unit="task")
    assert mixed.method == "bootstrap"
    # Each cluster sums to its count, but the values are not 0/1: not unanimous.
    halves = cluster_mean_interval([0.5, 1.5] * 20, [i // 2 for i in range(40)], unit="task")
    assert halves.method == "bootstrap"
    assert ratio_interval([(1.0, 2.0), (2.0, 2.0)] * 20, unit="match").method == "bootstrap"


def test_paired_all_or_nothing_units_get_a_score_interval_not_a_zero_width_one() -> None:
    failed = {task: (0.0, 3.0) for task in range(9)}
    same = paired_difference(failed, dict(failed), unit="task")
    assert (same.value, same.method, same.n) == (0.0, "wilson", 9)
    assert same.low == -same.high and same.high == pytest.approx(
        wilson_interval(0, 9, unit="task").high
    )
    # Identical mixed outcomes: the bound on discordant pairs, not zero width.
    mixed = {item: float(item % 2) for item in range(30)}
    alike = paired_difference(mixed, dict(mixed), unit="item")
    assert alike.high > 0.1 and alike.low < -0.1
    apart = paired_difference(
        dict.fromkeys(range(30), 1.0), dict.fromkeys(range(30), 0.0), unit="item"
    )
    assert (apart.value, apart.high, apart.method) == (1.0, 1.0, "newcombe")
    assert 0.8 < apart.low < 0.9
    # Any discordant pair in both directions: the paired bootstrap as before.
    assert (
        paired_difference(mixed, dict.fromkeys(range(30), 0.0), unit="item").method == "bootstrap"
    )


def test_identical_calibrated_runs_get_a_discordance_bound_not_zero_width() -> None:
    # Pooled calibrated accuracy units, alike in both runs on all 45 items.
    run = {i: ((i % 2) - 0.25, 0.75) for i in range(45)}
    alike = paired_difference(run, dict(run), unit="item", bounds=(-2.0, 2.0))
    bound = 2 * wilson_interval(0, 45, unit="item").high
    assert (alike.value, alike.method, alike.n) == (0.0, "wilson", 45)
    assert alike.as_list() == [pytest.approx(-bound), pytest.approx(bound)]
    assert not alike.significant()
    # An unbounded measure (a mean rating) claims no width at all.
    ratings = {i: float(1 + i % 5) for i in range(20)}
    unbounded = paired_difference(ratings, dict(ratings), unit="trajectory")
    assert unbounded.method == "none" and math.isnan(unbounded.low)
    # One unit apart: the paired bootstrap as before.
    other = dict(run) | {0: (1 - 0.25, 0.75)}
    assert paired_difference(run, other, unit="item", bounds=(-2.0, 2.0)).method == "bootstrap"
