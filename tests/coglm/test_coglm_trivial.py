"""CogLM's trivial strategies are scored on exactly the model row's items, as its headlines are."""

from __future__ import annotations

import pytest

from cog_tasks.coglm.headlines import chance_items, item_headlines
from cog_tasks.coglm.metrics import calibrated_unit
from cog_tasks.coglm.records import load_records
from cog_tasks.coglm.trivial import POOLED_MEASURES, STRATEGIES
from cog_tasks.common.runs import RunIdentity
from cog_tasks.common.spec import load

RUN = RunIdentity.of("coglm_chat@2.6.0", "chance")


@pytest.fixture(scope="module")
def records():
    """Two abilities' first items, one stage apart (a partial model row)."""
    found = load_records(["early", "plan"])
    return [r for r in found if r.ability == "early"][:12] + [
        r for r in found if r.ability == "plan"
    ][:9]


def test_every_strategy_scores_the_model_rows_items_and_measures(records) -> None:
    model = item_headlines(chance_items(records, seed=3), RUN, pooled_measure=POOLED_MEASURES[0])
    wanted = {headline.measure: set(headline.units) for headline in model if headline.units}
    units = [record.id for record in records]
    for strategy in STRATEGIES:
        scored = load(strategy.score)(units, RUN)
        for measure, keys in wanted.items():
            assert set(scored[measure]) == keys, (strategy.name, measure)


def test_constant_letters_are_calibrated_like_the_headline(records) -> None:
    units = [record.id for record in records]
    by_name = {strategy.name: load(strategy.score)(units, RUN) for strategy in STRATEGIES}
    for at, letter in enumerate("ABCD"):
        pooled = by_name[f"constant {letter}"]["calibrated_acc_pooled"]
        for record in records:
            assert pooled[record.id] == calibrated_unit(record.answer == at, len(record.choices))
    last = by_name["last listed option"]["calibrated_acc_pooled"]
    for record in records:
        expected = record.answer == len(record.choices) - 1
        assert last[record.id] == calibrated_unit(expected, len(record.choices))
    # Every item's gold is one of the positions: the four constants share its right answers.
    total = sum(
        by_name[f"constant {letter}"]["calibrated_acc_pooled"][r.id][0] + 1 / len(r.choices)
        for letter in "ABCD"
        for r in records
        if len(r.choices) == 4
    )
    assert total == pytest.approx(sum(1 for r in records if len(r.choices) == 4))


def test_an_item_the_benchmark_lacks_is_refused() -> None:
    with pytest.raises(ValueError, match="no items"):
        load(STRATEGIES[0].score)(["early-9999"], RUN)
