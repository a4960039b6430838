"""The rule-based hold'em opponents: their policy per holding class, what it reveals, the option."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from cog_tasks.common.params import ParameterError
from cog_tasks.common.scripted import run_chance_model
from cog_tasks.egosocial.holdem import holding_class
from cog_tasks.egosocial.inspect import egosocial_holdem
from cog_tasks.egosocial.inspect.chance import ChanceAnswerer
from cog_tasks.egosocial.inspect.report import log_results
from cog_tasks.egosocial.opponents.holdem_dqn import STYLES
from cog_tasks.egosocial.opponents.holdem_observer import (
    Decision,
    all_holdings,
    first_action_table,
    first_to_act_shares,
    holding_posterior,
    measure_first_actions,
    mutual_information,
    observations,
    policy_on_every_holding,
    shipped_opponents,
)
from cog_tasks.egosocial.opponents.holdem_rules import RuleOpponent, hand_strength

RULES = shipped_opponents("rules")
FIRST_TO_ACT = ("call", "raise", "fold")
AFTER_A_CALL = ("raise", "fold", "check")  # the big blind's option: rlcard lists fold
CLASSES = np.array([holding_class(h) for h in all_holdings()])


def _by_class(style: str, raise_nums: tuple[int, ...], legal: tuple[str, ...]) -> list[set[str]]:
    """The set of actions the style takes before the flop with each holding class."""
    played = policy_on_every_holding(RULES[style], (), raise_nums, legal)
    return [set(played[CLASSES == cls]) for cls in range(3)]


@pytest.mark.parametrize(
    ("style", "raise_nums", "legal", "expected"),
    [
        # first to act (small blind): strong and medium raise, weak calls
        ("aggressive", (0, 0, 0, 0), FIRST_TO_ACT, [{"raise"}, {"raise"}, {"call"}]),
        # facing a raise: only the strong holdings raise again; it never folds
        ("aggressive", (1, 0, 0, 0), FIRST_TO_ACT, [{"raise"}, {"call"}, {"call"}]),
        ("aggressive", (0, 0, 0, 0), AFTER_A_CALL, [{"raise"}, {"raise"}, {"check"}]),
        # at the raise limit a raise is played as a call
        ("aggressive", (4, 0, 0, 0), ("call", "fold"), [{"call"}, {"call"}, {"call"}]),
        # conservative: continues with strong and medium, folds weak, never raises preflop
        ("conservative", (0, 0, 0, 0), FIRST_TO_ACT, [{"call"}, {"call"}, {"fold"}]),
        ("conservative", (1, 0, 0, 0), FIRST_TO_ACT, [{"call"}, {"fold"}, {"fold"}]),
        # nothing to call: it checks, never folds
        ("conservative", (0, 0, 0, 0), AFTER_A_CALL, [{"check"}, {"check"}, {"check"}]),
    ],
)
def test_preflop_play_per_holding_class(style, raise_nums, legal, expected) -> None:
    assert _by_class(style, raise_nums, legal) == expected


def _rows(*hands: tuple[str, ...], raise_nums: tuple[int, ...] = (0, 0, 0, 0)) -> np.ndarray:
    """Observations of card sets (the holding and the board together) with ``raise_nums``."""
    return np.vstack(
        [observations([hand[:2]], Decision(hand[2:], raise_nums, (), ""))[0] for hand in hands]
    )


def test_made_hands_after_the_flop() -> None:
    rows = _rows(
        ("SA", "S2", "S7", "SJ", "S9"),  # flush
        ("HA", "S2", "D3", "C4", "S5"),  # ace-low straight
        ("HT", "SJ", "DQ", "CK", "SA"),  # ace-high straight
        ("H9", "S9", "D4", "C4", "SK"),  # two pair
        ("H9", "S9", "D4", "C7", "SK", "C2"),  # one pair, on the turn
        ("H9", "S8", "D4", "C2", "SK", "CQ", "DA"),  # no pair, on the river
        ("HA", "S2", "D3", "C4", "S6"),  # no straight
    )
    np.testing.assert_array_equal(hand_strength(rows), [2, 2, 2, 2, 1, 0, 0])


def test_play_after_the_flop() -> None:
    strong, medium = ("H9", "S9", "D9", "C4", "SK"), ("H9", "S9", "D4", "C7", "SK")
    weak = ("HA", "S2", "D3", "C4", "S6")
    unopened, bet = (0, 0, 0, 0), (0, 1, 0, 0)
    rows = _rows(strong, medium, weak, raise_nums=unopened)
    checked = ("raise", "fold", "check")
    assert RULES["aggressive"].act_batch(rows, checked) == ["raise", "raise", "check"]
    assert RULES["conservative"].act_batch(rows, checked) == ["raise", "check", "check"]
    rows = _rows(strong, medium, weak, raise_nums=bet)
    facing = ("call", "raise", "fold")
    assert RULES["aggressive"].act_batch(rows, facing) == ["raise", "call", "call"]
    assert RULES["conservative"].act_batch(rows, facing) == ["call", "fold", "fold"]


def test_first_action_reveals_the_holding_as_the_targets_ask() -> None:
    for style in STYLES:
        records = measure_first_actions(RULES[style], 300, seed=1)
        assert mutual_information(records).low >= 0.1, style
        table = first_action_table(records)
        if style == "conservative":
            assert table[0]["fold"].high <= 0.25
        else:
            assert table[0]["raise"].low > table[2]["raise"].high
    # first to act the policy is exact over all holdings: weak folds, strong never does
    assert first_to_act_shares(RULES["conservative"])[2]["fold"] == 1.0
    assert first_to_act_shares(RULES["conservative"])[0]["fold"] == 0.0


def test_the_kind_and_style_are_checked() -> None:
    with pytest.raises(ParameterError, match="opponents must be one of dqn, rules; got 'random'"):
        egosocial_holdem(opponents="random")
    with pytest.raises(ParameterError, match="opponents must be one of dqn, rules"):
        shipped_opponents("RULES")
    with pytest.raises(ParameterError, match="unknown opponent style 'reckless'"):
        RuleOpponent("reckless")  # type: ignore[arg-type]


def test_the_ideal_observer_reads_the_rules_first_action() -> None:
    # an aggressive small blind that only calls holds no card 10 or higher
    call = Decision((), (0, 0, 0, 0), FIRST_TO_ACT, "call")
    posterior = holding_posterior(RULES["aggressive"], ("S2", "H3"), [call])
    np.testing.assert_array_equal(posterior, [0.0, 0.0, 1.0])
    # a conservative one that calls holds a card 10 or higher: the more holdings are class 1
    posterior = holding_posterior(RULES["conservative"], ("S2", "H3"), [call])
    assert posterior[2] == 0.0 and posterior[1] > posterior[0] > 0.0


@pytest.mark.slow
def test_runs_differing_only_in_the_opponents_are_two_rows(tmp_path: Path) -> None:
    runs = {
        kind: log_results(
            run_chance_model(
                egosocial_holdem(opponent="aggressive", hands=2, **arguments),
                ChanceAnswerer(0),
                str(tmp_path / kind),
            )
        )[0]
        for kind, arguments in (("rules", {}), ("dqn", {"opponents": "dqn"}))
    }
    # the default (rules, since 4.0) reaches the identity too, so a run of the older
    # default (dqn) can never merge with it
    assert dict(runs["dqn"].identity.arguments)["opponents"] == "dqn"
    assert dict(runs["rules"].identity.arguments)["opponents"] == "rules"
    assert runs["dqn"].identity != runs["rules"].identity
    # the report's ideal observer replays the opponents that played each log
    for kind, results in runs.items():
        assert all(record.values["ideal consistent"] == 1.0 for record in results.records), kind
