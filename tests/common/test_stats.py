"""The statistics module on cases with a known answer."""

from __future__ import annotations

import math

import numpy as np
import pytest

from cog_tasks.common.stats import (
    SMALL_N,
    WILSON_BELOW,
    Interval,
    bootstrap_interval,
    cluster_mean_interval,
    mean_interval,
    metric_values,
    no_interval,
    on_scale,
    paired_bootstrap,
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


def test_below_small_n_there_is_no_interval_anywhere() -> None:
    few = [
        mean_interval([0.5, 0.25, 1.0], unit="trajectory"),
        mean_interval([1.0, 0.0], unit="item"),
        wilson_interval(2, 2, unit="trajectory"),
        ratio_interval([(1.0, 2.0)] * 9, unit="game"),
        cluster_mean_interval([1.0, 0.0] * 4, [0, 0, 1, 1, 2, 2, 3, 3], unit="task"),
        paired_difference({0: 1.0}, {0: 1.0}, unit="item"),
        paired_bootstrap(lambda i: float(len(i)), lambda i: 0.0, SMALL_N - 1, unit="item"),
        bootstrap_interval(lambda i: float(len(i)), SMALL_N - 1, unit="item"),
    ]
    for interval in few:
        assert interval.method == "none" and not interval.defined, interval
        assert not interval.significant(-100.0)
        assert interval.bounds_text() == f"[no interval: {interval.reason}]"
    assert few[0].format() == "0.583 [no interval: 3 trajectories]"
    assert few[2].format() == "1.000 [no interval: 2 trajectories]"
    assert mean_interval([5.0, 5.1, 4.9] * 4, unit="game").significant(0.0)


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
    assert games.format() == "0.600 [no interval: 10 games, all alike]"
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
    assert clustered.format() == "0.500 [no interval: 2 tasks]"
    assert naive.high - naive.low < 0.3
    twelve = cluster_mean_interval(values * 6, [i // 50 for i in range(600)], unit="task")
    assert twelve.n == 12 and twelve.high - twelve.low > naive.high - naive.low


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
    units = [(1.0, 2.0), (3.0, 2.0), (0.0, 4.0)]
    interval = ratio_interval(units, unit="match", resamples=300)
    assert interval.value == pytest.approx(0.5)  # 4 / 8, not the mean of 0.5, 1.5 and 0
    assert interval.format() == "0.500 [no interval: 3 matches]"
    interval = ratio_interval(units * 4, unit="match", resamples=300)
    assert interval.low <= 0.5 <= interval.high and interval.n == 12
    assert math.isnan(ratio_interval([(0.0, 0.0)], unit="match").value)


def test_unanimous_binary_values_get_wilson_not_a_zero_width_interval() -> None:
    none_right = mean_interval([0.0] * 35, unit="statement")
    assert (none_right.value, none_right.low) == (0.0, 0.0)
    assert none_right.method == "wilson" and none_right.high > 0.09
    all_right = mean_interval([1.0] * 40, unit="item")
    assert all_right.low < 1.0 == all_right.high
    tasks = cluster_mean_interval([0.0] * 36, [i // 3 for i in range(36)], unit="task")
    assert tasks.n == 12 and tasks.method == "wilson" and tasks.high > 0.2
    # No invalid action in any match: Wilson over the matches that had actions.
    matches = ratio_interval([(0.0, 4.0)] * 59 + [(0.0, 0.0)], unit="match")
    assert (matches.value, matches.low, matches.n, matches.method) == (0.0, 0.0, 59, "wilson")
    assert matches.high > 0.05
    solved = cluster_mean_interval([1.0] * 24, [i // 2 for i in range(24)], unit="task")
    assert (solved.value, solved.high, solved.n, solved.method) == (1.0, 1.0, 12, "wilson")
    every_event = ratio_interval([(2.0, 2.0), (3.0, 3.0)] * 20, unit="match")
    assert (every_event.value, every_event.n, every_event.method) == (1.0, 40, "wilson")


def test_mixed_or_non_binary_values_are_bootstrapped() -> None:
    mixed = cluster_mean_interval([1.0, 0.0] * 20, list(range(40)), unit="task")
    assert mixed.method == "bootstrap"
    # Each cluster sums to its count, but the values are not 0/1: not unanimous.
    halves = cluster_mean_interval([0.5, 1.5] * 20, [i // 2 for i in range(40)], unit="task")
    assert halves.format() == "1.000 [no interval: 20 tasks, all alike]"
    assert ratio_interval([(1.0, 2.0), (2.0, 2.0)] * 20, unit="match").method == "bootstrap"


def test_paired_all_or_nothing_units_get_a_score_interval_not_a_zero_width_one() -> None:
    failed = {task: (0.0, 3.0) for task in range(12)}
    same = paired_difference(failed, dict(failed), unit="task")
    assert (same.value, same.method, same.n) == (0.0, "wilson", 12)
    assert same.low == -same.high and same.high == pytest.approx(
        wilson_interval(0, 12, unit="task").high
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


NAN = math.nan


@pytest.mark.parametrize(
    ("built", "shown"),
    [
        # Below SMALL_N units: compare's 0.000 [-0.793, 0.793] n=1, an invalid rate n=2.
        (Interval(0.0, -0.793, 0.793, 1, "item", "t"), "0.000 [no interval: 1 item]"),
        (
            Interval(1.0, 0.342, 1.0, 2, "trajectory", "wilson"),
            "1.000 [no interval: 2 trajectories]",
        ),
        (Interval(0.5, 0.2, 0.8, 6, "deal", "bootstrap"), "0.500 [no interval: 6 deals]"),
        # Zero width: CogLM's -66.7 [-66.7, -66.7], the expected chance 0.333 [0.333, 0.333].
        (
            Interval(-0.667, -0.667, -0.667, 40, "item", "bootstrap"),
            "-0.667 [no interval: 40 items, all alike]",
        ),
        (
            Interval(1 / 3, 1 / 3, 1 / 3, 60, "item", "bootstrap"),
            "0.333 [no interval: 60 items, all alike]",
        ),
        # Zero width up to rounding: CogLM's overall -1.7 [-1.7, -1.7] of one item per ability.
        (
            Interval(
                -1 / 60,
                math.nextafter(-1 / 60, -1),
                math.nextafter(-1 / 60, 0),
                10,
                "item",
                "bootstrap",
            ),
            "-0.017 [no interval: 10 items, all alike]",
        ),
        # A point outside its interval widens it to the point.
        (Interval(-1.1, 0.0, 2.8, 40, "item", "bootstrap"), "-1.100 [-1.100, 2.800]"),
        # Off the scale: the all-wrong age (-5.1) [0.0, 0.0] on an age scale from 0.
        (
            on_scale(Interval(-5.1, -6.0, -4.0, 40, "item", "bootstrap"), (0.0, math.inf)),
            "-5.100 [no interval: off the scale]",
        ),
        # A share stays within [0, 1]: raise_accuracy [-0.022, 0.689].
        (
            on_scale(Interval(0.33, -0.022, 0.689, 12, "match", "bootstrap"), (0.0, 1.0)),
            "0.330 [0.000, 0.689]",
        ),
        # NaN bounds and no units: one wording, with its reason.
        (Interval(0.4, NAN, NAN, 12, "game", "bootstrap"), "0.400 [no interval: 12 games]"),
        (no_interval(0.4, 12, "game", "the runs agree"), "0.400 [no interval: the runs agree]"),
        (no_interval(NAN, 0, "item"), "n/a"),
        # Resamples without a value (an age with no item of a stage drawn): said, not warned.
        (
            bootstrap_interval(lambda drawn: 1.0 if 0 in drawn else NAN, 30, unit="item"),
            "1.000 [no interval: a resample without a value]",
        ),
    ],
)
def test_every_interval_keeps_the_invariants(built: Interval, shown: str) -> None:
    assert built.format() == shown
    if built.defined:
        assert built.n >= SMALL_N and built.low < built.high
        assert built.low <= built.value <= built.high
    else:
        assert built.method == "none" and built.reason
        assert not built.significant(1e9) and built.as_list() == [None, None]
    assert Interval.from_dict(built.as_dict()).as_dict() == built.as_dict()
    logged = metric_values("headline", built)
    assert all(math.isfinite(value) for value in logged.values())
    assert ("headline_ci_low" in logged) == built.defined == ("headline_stderr" in logged)


def test_shares_stay_on_their_scale_from_every_builder() -> None:
    shares = [0.0] * 5 + [0.1] * 5 + [1.0]
    assert mean_interval(shares, unit="item").low >= 0.0
    assert ratio_interval([(0.0, 3.0)] * 11 + [(3.0, 3.0)], unit="match").low >= 0.0
    assert wilson_interval(10, 10, unit="game").as_list()[1] == 1.0


def test_paired_bootstrap_pairs_any_statistic() -> None:
    rng = np.random.default_rng(2)
    first, second = rng.normal(1.0, 1.0, 40), rng.normal(0.0, 1.0, 40)
    medians = paired_bootstrap(
        lambda i: float(np.median(first[i])), lambda i: float(np.median(second[i])), 40, unit="item"
    )
    assert medians.value == pytest.approx(float(np.median(first) - np.median(second)))
    assert medians.method == "bootstrap" and medians.excludes(0.0)
    alike = paired_bootstrap(
        lambda i: float(first[i].mean()), lambda i: float(first[i].mean()), 40, unit="item"
    )
    assert alike.format() == "0.000 [no interval: 40 items, all alike]"
