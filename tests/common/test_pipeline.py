"""The one orchestration: runs -> distinct, grouped, labelled, pooled on request, checked rows;
and the best trivial strategy beside each headline."""

from __future__ import annotations

import pytest

from cog_tasks.common.headlines import Headline
from cog_tasks.common.pipeline import best_trivial, checked_rows, with_trivial
from cog_tasks.common.results import RunResults, UnitRecord
from cog_tasks.common.runs import RunIdentity
from cog_tasks.common.spec import TrivialStrategy
from cog_tasks.common.stats import ratio_interval

UNITS = [f"u{n}" for n in range(12)]


def run(seed: int, source: str, wrong: int = 0, model: str = "m") -> RunResults:
    identity = RunIdentity.of("t@1", model, arguments={"a": 1}, seed=seed)
    records = tuple(UnitRecord(u, {"acc": float(n >= wrong)}) for n, u in enumerate(UNITS))
    return RunResults("toy", identity, "item", records, dict.fromkeys(UNITS, ""), source)


def test_rows_are_checked_labelled_and_pooled_only_when_asked() -> None:
    read = [(run(0, "a"), "first"), (run(1, "b", wrong=6), "second")]
    rows = checked_rows(read)
    assert [row.label for row in rows] == ["m seed=0", "m seed=1"]
    assert [row.extra for row in rows] == ["first", "second"]
    assert rows[1].checked.unit_values("acc")["u0"] == 0.0 and not rows[1].pooling
    (pooled,) = checked_rows(read, pool_seeds=True)
    assert pooled.label == "m" and pooled.extras == ("first", "second")
    assert pooled.checked.coverage.epochs == 2 and "pooled 2 runs" in pooled.pooling
    assert pooled.checked.unit_values("acc")["u0"] == 0.5  # epochs averaged within a unit
    # A row whose key is its own is labelled by its model alone.
    keyed = checked_rows(read, key=lambda _, extra: extra)
    assert [row.label for row in keyed] == ["m", "m"]
    # The same run read twice (a copy) is one row.
    assert [row.extra for row in checked_rows([read[0], read[0]])] == ["first"]


def right_on_all_but_the_first_three(units: list[str], run: RunIdentity) -> dict:
    return {"acc": {unit: float(n >= 3) for n, unit in enumerate(units)}}


def always_wrong(units: list[str], run: RunIdentity) -> dict:
    return {"acc": dict.fromkeys(units, 0.0), "other": dict.fromkeys(units, 1.0)}


STRATEGIES = (
    TrivialStrategy("all but three", f"{__name__}:right_on_all_but_the_first_three"),
    TrivialStrategy("always wrong", f"{__name__}:always_wrong"),
)


def headline(wrong: int, measure: str = "acc") -> Headline:
    units = {unit: float(n >= wrong) for n, unit in enumerate(UNITS)}
    interval = ratio_interval(list(units.values()), unit="item")
    return Headline("toy", measure, interval, run(0, "a").identity, units)


def test_the_best_trivial_strategy_is_scored_on_the_rows_own_units() -> None:
    result = best_trivial(headline(wrong=6), STRATEGIES)
    assert result.name == "all but three" and result.value == pytest.approx(9 / 12)
    assert result.difference.value == pytest.approx(6 / 12 - 9 / 12)
    assert not result.beaten and result.as_dict()["beaten"] is False
    perfect = best_trivial(headline(wrong=0), STRATEGIES)
    assert perfect.difference.value == pytest.approx(3 / 12)
    # No strategy for the measure, no per-unit values, or none declared: nothing beside it.
    assert best_trivial(headline(wrong=0, measure="kappa"), STRATEGIES) is None
    no_units = Headline("toy", "acc", headline(0).interval, headline(0).run)
    assert best_trivial(no_units, STRATEGIES) is None
    assert with_trivial([headline(0)], ()) == [headline(0)]
    (shown,) = with_trivial([headline(0)], STRATEGIES)
    assert shown.as_row()["trivial"]["name"] == "all but three"


def test_kappa_and_age_rows_get_their_benchmarks_best_trivial_strategy() -> None:
    """Rows whose headline is a statistic of payloads: the strategies scored on the same units."""
    from cog_tasks.cogbench.intervals import (
        UnitTallies,
        authenticity_interval,
        kappa_payload,
        kappa_statistic,
    )
    from cog_tasks.cogbench.loader import load_trajectories
    from cog_tasks.cogbench.metrics import iteration_value
    from cog_tasks.cogbench.trivial import STRATEGIES as RATERS
    from cog_tasks.coglm.abilities import ABILITIES
    from cog_tasks.coglm.headlines import chance_items, item_headlines
    from cog_tasks.coglm.records import load_records
    from cog_tasks.coglm.trivial import STRATEGIES as ANSWERS

    trajectories, _ = load_trajectories("a", source="sample")
    agreeing = {
        t.id: UnitTallies.from_value(
            {
                key: value
                for step in t.steps
                for key, value in iteration_value(
                    step.iteration, step.questions, step.human_ratings, step.human_ratings, None
                ).items()
            },
            None,
        )
        for t in trajectories
    }
    kappa = Headline(
        "cogbench",
        "authenticity_avg_a",
        authenticity_interval(list(agreeing.values())),
        RunIdentity.of("cogbench@4.2.0", "m", arguments={"subset": "a", "source": "sample"}),
        {key: kappa_payload(unit) for key, unit in agreeing.items()},
        scale="kappa",
        statistic=kappa_statistic(None),
    )
    records = [r for a in ABILITIES for r in load_records([a.code])[:20]]
    run = RunIdentity.of("coglm_chat@2.6.0", "chance")
    found = item_headlines(chance_items(records, 1), run, pooled_measure="calibrated_acc_pooled")
    age = next(headline for headline in found if headline.measure == "cognitive_age")
    for headline, strategies in ((kappa, RATERS), (age, ANSWERS)):
        result = best_trivial(headline, strategies)
        assert result is not None and result.name in {s.name for s in strategies}
        gap = headline.interval.value - result.value
        assert result.difference.value == pytest.approx(gap), headline.measure
        assert with_trivial([headline], strategies)[0].as_row()["trivial"]["name"] == result.name
    # Humans vary on every trajectory: a constant rater's κ is 0, the agreeing model's 1.
    assert kappa.interval.value == 1.0 and best_trivial(kappa, RATERS).value == pytest.approx(0.0)
    assert best_trivial(kappa, RATERS).difference.format().endswith("[no interval: 4 trajectories]")
    difference = best_trivial(age, ANSWERS).difference
    assert difference.n == 200 and difference.low < difference.value < difference.high
