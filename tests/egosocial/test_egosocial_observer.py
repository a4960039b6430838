"""What the hold'em opponents' play reveals, and the ideal observer's guesses."""

from __future__ import annotations

import math
import random
from dataclasses import replace

import numpy as np
import pytest

from cog_tasks.egosocial.holdem import (
    OPPONENT_SEAT,
    STAGES,
    TableAction,
    holding_class,
    make_env,
    play_match,
)
from cog_tasks.egosocial.opponents.holdem_dqn import STYLES, load_opponent
from cog_tasks.egosocial.opponents.holdem_observer import (
    FIRST_ACTIONS,
    OPPONENT_KINDS,
    FirstAction,
    all_holdings,
    first_action_counts,
    first_action_table,
    first_to_act_shares,
    holding_posterior,
    ideal_match,
    measure_first_actions,
    miller_madow_mi_bits,
    mutual_information,
    observations,
    opponent_decisions,
    plugin_mi_bits,
    shipped_opponents,
)


def test_decisions_rebuild_the_opponents_observation_and_legal_actions() -> None:
    opponent = load_opponent("aggressive")
    env = make_env(5)
    rng = random.Random(5)
    checked = set()
    for _ in range(200):
        env.reset()
        actions, seen = [], []
        while not env.is_over():
            seat = env.get_player_id()
            stage = STAGES[min(env.game.round_counter, 3)]
            legal = tuple(env.game.get_legal_actions())
            if seat == OPPONENT_SEAT:
                state = env.get_state(seat)
                seen.append((state["obs"], legal))
                action = opponent.act(state)
            else:  # a model that rarely folds, so hands reach every round
                action = rng.choice([a for a in legal if a != "fold"] or ["fold"])
            actions.append(TableAction(seat, stage, action))
            env.step(action, raw_action=True)
        board = tuple(card.get_index() for card in env.game.public_cards)
        cards = tuple(card.get_index() for card in env.game.players[OPPONENT_SEAT].hand)
        rebuilt = opponent_decisions(actions, board)
        assert len(rebuilt) == len(seen)
        for decision, (obs, legal) in zip(rebuilt, seen, strict=True):
            assert decision.legal == legal
            np.testing.assert_array_equal(observations([cards], decision)[0], obs)
            checked.add((len(decision.board), decision.legal))
    assert {size for size, _ in checked} == {0, 3, 4, 5}
    assert len({legal for _, legal in checked}) >= 3


def test_mutual_information_in_bits() -> None:
    dependent = [FirstAction(c, "small blind", a) for c, a in [(0, "raise"), (2, "fold")] * 10]
    independent = [FirstAction(c, "small blind", a) for c in (0, 2) for a in ("raise", "fold")] * 5
    # Miller-Madow: 1 bit plus (1 + 1 - 1) / (2 * 20 * ln 2) for two classes and two actions
    assert mutual_information(dependent).value == pytest.approx(1 + 1 / (40 * math.log(2)))
    # 0 bits less (1 + 1 - 3) / (2 * 20 * ln 2): below 0, kept at 0
    assert mutual_information(independent).value == 0.0
    interval = mutual_information(dependent + independent)
    assert interval.unit == "deal" and interval.low <= interval.value <= interval.high
    table = first_action_table(dependent)
    assert table[0]["raise"].value == 1.0 and table[0]["raise"].n == 10
    assert table[2]["fold"].value == 1.0 and table[1]["fold"].n == 0


def test_first_to_act_shares_are_the_policy_on_every_holding() -> None:
    opponent = load_opponent("conservative")
    shares = first_to_act_shares(opponent)
    assert sorted(shares) == [0, 1, 2]
    assert all(sum(row.values()) == pytest.approx(1.0) for row in shares.values())
    first = measure_first_actions(opponent, 300, seed=2)
    assert first and all(r.action in ("call", "raise", "fold", "check") for r in first)
    # first to act, the opponent's state is its cards alone, so simulation agrees with the table
    blinds = [r for r in first if r.position == "small blind"]
    folds = sum(r.action == "fold" for r in blinds) / len(blinds)
    exact = sum(shares[c]["fold"] * n for c, n in ((0, 238), (1, 640), (2, 448))) / 1326
    assert abs(folds - exact) < 0.08


def test_the_posterior_without_any_action_is_the_deal() -> None:
    posterior = holding_posterior(load_opponent("aggressive"), ("SA", "HA"), [])
    counts = np.bincount([holding_class(h) for h in all_holdings() if not {"SA", "HA"} & set(h)])
    np.testing.assert_allclose(posterior, counts / counts.sum())


def _caller(question: str) -> str:
    if "Cards: <A, B or C>" in question:
        return "Cards: A; Raise: no"
    if "style" in question:
        return "A"
    return "check" if "check" in question.rsplit("Legal actions:", 1)[-1] else "call"


@pytest.mark.parametrize("kind", OPPONENT_KINDS)
@pytest.mark.parametrize("style", STYLES)
def test_the_ideal_observer_scores_the_matchs_own_hands(run, style: str, kind: str) -> None:
    async def ask(question: str) -> str:
        return _caller(question)

    opponents = shipped_opponents(kind)
    record = run(play_match(ask, opponents[style], hands=8, seed=3))
    ideal = ideal_match(record, opponents)
    assert ideal.consistent
    # the other kind's policies did not play this match
    other_kind = next(k for k in OPPONENT_KINDS if k != kind)
    assert not ideal_match(record, shipped_opponents(other_kind)).consistent
    assert ideal.holding_asked == record.scores()["holding_asked"]
    assert 0 <= ideal.holding_correct <= ideal.holding_asked
    # the two policies play the same hands differently: the observer names the style
    assert ideal.style_correct == 1.0
    # told the other style, the observer's guess (the same) is now wrong
    other = next(s for s in STYLES if s != style)
    assert ideal_match(replace(record, opponent_style=other), opponents).style_correct == 0.0
    # an opponent action its policy would not take at a showdown: not this policy's match
    shown = next(h for h in record.hands if h.actions[-1].action != "fold")
    index = next(i for i, a in enumerate(shown.actions) if a.seat == OPPONENT_SEAT)
    played = shown.actions[index]
    flipped = replace(played, action="call" if played.action == "raise" else "raise")
    actions = (*shown.actions[:index], flipped, *shown.actions[index + 1 :])
    hands = tuple(replace(h, actions=actions) if h is shown else h for h in record.hands)
    assert not ideal_match(replace(record, hands=hands), opponents).consistent


def _sampled(joint: np.ndarray, deals: int, rng: np.random.Generator) -> list[FirstAction]:
    cells = rng.choice(joint.size, size=deals, p=joint.ravel())
    columns = joint.shape[1]
    return [
        FirstAction(int(c // columns), "small blind", FIRST_ACTIONS[c % columns]) for c in cells
    ]


@pytest.mark.slow
@pytest.mark.parametrize(
    "rows",
    [
        # nearly independent, as the DQN opponents (exact 0.0014 bits)
        [[0.17, 0.80, 0.01, 0.02], [0.16, 0.80, 0.01, 0.03], [0.15, 0.80, 0.01, 0.04]],
        # revealing, as the rule-based aggressive opponent
        [[0.0, 1.0, 0.0, 0.0], [0.21, 0.79, 0.0, 0.0], [0.81, 0.0, 0.0, 0.19]],
    ],
    ids=["uninformative", "revealing"],
)
def test_mutual_information_is_bias_corrected_and_its_interval_covers_the_exact_value(
    rows: list[list[float]],
) -> None:
    joint = np.array([0.18, 0.48, 0.34])[:, None] * np.array(rows)
    exact = plugin_mi_bits(joint)
    rng = np.random.default_rng(7)
    samples = [_sampled(joint, 600, rng) for _ in range(100)]
    tables = [
        first_action_counts(
            np.array([r.holding for r in s]), np.array([FIRST_ACTIONS.index(r.action) for r in s])
        )
        for s in samples
    ]
    plugin = np.mean([plugin_mi_bits(t) for t in tables])
    corrected = np.mean([miller_madow_mi_bits(t) for t in tables])
    # the plug-in estimate is biased upward by about (3 - 1)(4 - 1) / (2 * 600 * ln 2) bits
    # where every cell occurs; Miller-Madow takes most of that off
    assert abs(corrected - exact) < 0.5 * abs(plugin - exact) or abs(plugin - exact) < 0.002
    intervals = [mutual_information(s, seed=i) for i, s in enumerate(samples)]
    covered = sum(i.low <= exact <= i.high for i in intervals) / len(intervals)
    assert covered >= 0.9, covered
    assert all(0 <= i.low <= i.value <= i.high and i.low < i.high for i in intervals)
