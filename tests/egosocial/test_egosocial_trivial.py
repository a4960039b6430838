"""EgoSocialArena's trivial strategies are scored on exactly a model row's units."""

from __future__ import annotations

import pytest

from cog_tasks.common.runs import RunIdentity
from cog_tasks.common.spec import load
from cog_tasks.egosocial.inspect import trivial
from cog_tasks.egosocial.opponents.number_guessing import REFERENCE_REPLIES, constant_reply_game


def _scores(units: list[str], run: RunIdentity) -> dict[str, dict[str, dict]]:
    """Every strategy's per-measure values on ``units``, by strategy name."""
    return {s.name: load(s.score)(units, run) for s in trivial.STRATEGIES}


def test_static_strategies_score_exactly_the_rows_items_on_their_targets() -> None:
    run = RunIdentity.of("egosocial_static@4.0.0", "m", arguments={"source": "authors"})
    samples = trivial.declared(run)
    units = sorted(samples)[5:17]  # a row over 12 of the 59 items (a --limit run)
    scores = _scores(units, run)
    for letter in trivial.CONSTANT_LETTERS:
        values = scores[f"constant {letter}"]["static_accuracy_authors"]
        assert set(values) == set(units)
        assert values == {u: float(samples[u].target == letter) for u in units}
    golds = [samples[u].target for u in units]
    majority = max(set(golds), key=golds.count)
    assert sum(scores["majority letter"]["static_accuracy_authors"].values()) == golds.count(
        majority
    )
    # strategies of the other tasks give nothing here
    assert scores["Prediction: 50; Choice: 1 every round"] == {}
    assert scores["always call; one card 10+, raise yes, aggressive"] == {}


def test_circular_strategies_need_every_rotation() -> None:
    run = RunIdentity.of(
        "egosocial_static@4.0.0", "m", arguments={"source": "authors", "circular": True}
    )
    units = sorted(trivial.declared(run))[:6]
    values = trivial.always_B(units, run)
    assert set(values["static_circular_accuracy_authors"]) == set(units)
    assert not any(values["static_circular_accuracy_authors"].values())


def test_number_guessing_strategies_replay_the_rows_own_games() -> None:
    run = RunIdentity.of(
        "egosocial_number_guessing@5.0.0", "m", arguments={"games": 3, "rounds": 10}
    )
    samples = trivial.declared(run)
    units = [u for u in samples if not u.endswith("g1")]  # 6 of 9 games
    scores = _scores(units, run)
    constant = scores["Prediction: 50; Choice: 1 every round"]
    assert set(constant["number_guessing_hit_rate"]) == set(units)
    for unit in units:
        meta = samples[unit].metadata
        game = constant_reply_game(
            REFERENCE_REPLIES["constant lowest choice"], meta["level"], opening=meta["opening"]
        )
        assert constant["number_guessing_hit_rate"][unit] == game.accuracy()
        assert constant[f"number_guessing_hit_rate_L{meta['level']}"][unit] == game.accuracy()
    # copying the opponent's last number hits every round of Level 1 but the first of games
    # that do not open with 50
    copy = scores["predict the opponent's last number"]["number_guessing_hit_rate_L1"]
    assert copy == {"number_guessing-L1-g0": 1.0, "number_guessing-L1-g2": 0.9}


def test_holdem_strategies_replay_the_rows_own_matches() -> None:
    run = RunIdentity.of(
        "egosocial_holdem@4.0.0",
        "m",
        arguments={"matches": 2, "hands": 2, "opponents": "rules"},
        seed=3,
    )
    units = ["holdem-aggressive-m1", "holdem-conservative-m0"]
    values = trivial.always_raise(units, run)
    assert set(values["holdem_style_accuracy"]) == set(units)
    # always "aggressive": right against the aggressive opponent only
    assert values["holdem_style_accuracy"] == {
        "holdem-aggressive-m1": 1.0,
        "holdem-conservative-m0": 0.0,
    }
    correct, asked = values["holdem_belief_accuracy"]["holdem-aggressive-m1"]
    assert 0 <= correct <= asked and asked >= 2


def test_a_unit_the_arguments_do_not_declare_is_an_error() -> None:
    run = RunIdentity.of("egosocial_number_guessing@5.0.0", "m", arguments={"level": 1})
    with pytest.raises(ValueError, match="number_guessing-L2-g0 are not declared"):
        trivial.guess_constant_50(["number_guessing-L2-g0"], run)
