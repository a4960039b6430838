"""How much a hold'em opponent's play reveals about its cards, and the best possible guess."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np
from scipy.stats import entropy

from cog_tasks.common.params import choice
from cog_tasks.common.stats import SMALL_N, Interval, wilson_interval
from cog_tasks.egosocial.holdem import (
    ACTIONS,
    HOLDING_OPTIONS,
    MODEL_SEAT,
    OPPONENT_SEAT,
    STAGES,
    HandResult,
    MatchRecord,
    TableAction,
    holding_class,
    make_env,
)
from cog_tasks.egosocial.opponents import holdem_dqn
from cog_tasks.egosocial.opponents.holdem_dqn import STYLES, PolicyOpponent, load_opponent
from cog_tasks.egosocial.opponents.holdem_rules import RuleOpponent

#: rlcard limit hold'em's limit of raises per betting round.
MAX_RAISES = 4
#: Public cards seen in each betting round.
BOARD_SIZES = (0, 3, 4, 5)
#: The actions a player may take first (a check is never the first action before the flop).
FIRST_ACTIONS = ("call", "raise", "fold", "check")


@cache
def card_index() -> dict[str, int]:
    """The index (0-51) rlcard gives of each card in its observation vector."""
    return dict(make_env(0).card2index)


@cache
def all_holdings() -> tuple[tuple[str, str], ...]:
    """Every two-card holding (1,326), in card-index order."""
    cards = sorted(card_index(), key=card_index().__getitem__)
    return tuple(combinations(cards, 2))


@dataclass(frozen=True)
class Decision:
    """What the opponent knew at one decision besides its cards, and what it did."""

    board: tuple[str, ...]
    raise_nums: tuple[int, ...]
    legal: tuple[str, ...]
    action: str


def _legal(raised: Mapping[int, int], seat: int, raises: int) -> tuple[str, ...]:
    """Legal actions by rlcard's rules: no raise at the limit, no check facing a bet."""
    facing = raised[seat] < max(raised.values())
    return tuple(
        action
        for action in ACTIONS
        if not (action == "raise" and raises >= MAX_RAISES)
        and not (action == "check" and facing)
        and not (action == "call" and not facing)
    )


def opponent_decisions(
    actions: Sequence[TableAction], board: Sequence[str], seat: int = OPPONENT_SEAT
) -> list[Decision]:
    """Rebuild ``seat``'s observation and legal actions at each of its decisions in one hand."""
    small_blind = actions[0].seat
    raised = {small_blind: 1, 1 - small_blind: 2}
    raise_nums = [0] * len(STAGES)
    stage = 0
    decisions = []
    for action in actions:
        now = STAGES.index(action.stage)
        if now != stage:
            stage, raised = now, {0: 0, 1: 0}
        if action.seat == seat:
            decisions.append(
                Decision(
                    board=tuple(board[: BOARD_SIZES[stage]]),
                    raise_nums=tuple(raise_nums),
                    legal=_legal(raised, seat, raise_nums[stage]),
                    action=action.action,
                )
            )
        if action.action == "call":
            raised[action.seat] = max(raised.values())
        elif action.action == "raise":
            raised[action.seat] = max(raised.values()) + 1
            raise_nums[stage] += 1
    return decisions


def observations(holdings: Sequence[tuple[str, str]], decision: Decision) -> np.ndarray:
    """The 72-dimensional rlcard observation of each holding at ``decision``."""
    index = card_index()
    rows = np.zeros((len(holdings), 72), dtype=np.float32)
    cards = np.array([[index[card] for card in holding] for holding in holdings], dtype=int)
    rows[np.arange(len(holdings))[:, None], cards.reshape(len(holdings), 2)] = 1
    rows[:, [index[card] for card in decision.board]] = 1
    for stage, count in enumerate(decision.raise_nums):
        rows[:, 52 + stage * 5 + count] = 1
    return rows


@lru_cache(maxsize=4096)
def policy_on_every_holding(
    opponent: PolicyOpponent, board: tuple[str, ...], raise_nums: tuple[int, ...], legal: tuple
) -> np.ndarray:
    """The opponent's action with each of :func:`all_holdings` in one public state (cached)."""
    decision = Decision(board, raise_nums, legal, "")
    return np.array(opponent.act_batch(observations(all_holdings(), decision), legal))


def holdings_without(seen: Sequence[str]) -> np.ndarray:
    """Which of :func:`all_holdings` use none of the ``seen`` cards (a mask)."""
    taken = set(seen)
    return np.array([h[0] not in taken and h[1] not in taken for h in all_holdings()])


def consistent_holdings(
    opponent: PolicyOpponent, decisions: Sequence[Decision], allowed: np.ndarray
) -> np.ndarray:
    """Which ``allowed`` holdings (a mask) the opponent's policy plays every decision with."""
    kept = allowed.copy()
    for decision in decisions:
        played = policy_on_every_holding(
            opponent, decision.board, decision.raise_nums, decision.legal
        )
        kept &= played == decision.action
    return kept


@cache
def holding_classes() -> np.ndarray:
    """The holding class of each of :func:`all_holdings`."""
    return np.array([holding_class(holding) for holding in all_holdings()])


def holding_posterior(
    opponent: PolicyOpponent, model_cards: Sequence[str], decisions: Sequence[Decision]
) -> np.ndarray:
    """P(holding class | the model's cards, the opponent's play); ``ValueError`` if none fits."""
    kept = consistent_holdings(opponent, decisions, holdings_without(model_cards))
    if not kept.any():
        raise ValueError(f"no holding plays {[d.action for d in decisions]} as {opponent.style}")
    counts = np.bincount(holding_classes()[kept], minlength=len(HOLDING_OPTIONS))
    return counts / counts.sum()


def hand_likelihood(opponent: PolicyOpponent, hand: HandResult) -> float:
    """Probability that the opponent's policy plays as it did in ``hand``, seen from the model."""
    decisions = opponent_decisions(hand.actions, hand.board)
    if hand.actions[-1].action != "fold":
        allowed = np.array([set(h) == set(hand.opponent_cards) for h in all_holdings()])
    else:
        allowed = holdings_without((*hand.model_cards, *hand.board))
    return consistent_holdings(opponent, decisions, allowed).sum() / allowed.sum()


@dataclass(frozen=True)
class IdealMatch:
    """The ideal observer's scores on one match; ``consistent``: the policy played the record."""

    holding_correct: int
    holding_asked: int
    style_correct: float
    consistent: bool


def ideal_match(record: MatchRecord, opponents: Mapping[str, PolicyOpponent]) -> IdealMatch:
    """Score the ideal observer on a played match, given the policy of each style."""
    truth = opponents[record.opponent_style]
    correct = asked = 0
    log_likelihood = dict.fromkeys(opponents, 0.0)
    consistent = True
    for hand in record.hands:
        if any(b.question == "holding" for b in hand.beliefs):
            asked_at = next(i for i, a in enumerate(hand.actions) if a.seat == MODEL_SEAT)
            before = hand.actions[:asked_at]  # the model's beliefs are asked at its first action
            decisions = opponent_decisions(before, ()) if before else []
            try:
                posterior = holding_posterior(truth, hand.model_cards, decisions)
            except ValueError:
                consistent = False
                continue
            asked += 1
            correct += int(np.argmax(posterior)) == holding_class(hand.opponent_cards)
        for style, opponent in opponents.items():
            likelihood = hand_likelihood(opponent, hand)
            log_likelihood[style] += math.log(likelihood) if likelihood else -math.inf
    if log_likelihood[record.opponent_style] == -math.inf:
        consistent = False
    best = max(log_likelihood.values())
    winners = [style for style, value in log_likelihood.items() if value == best]
    style_correct = 1 / len(winners) if record.opponent_style in winners else 0.0
    return IdealMatch(correct, asked, style_correct, consistent)


#: The opponents ``egosocial_holdem`` can play (``-T opponents=...``): the shipped
#: DQN weights (the default, as in the paper) or the card-conditioned rules.
OPPONENT_KINDS = ("dqn", "rules")


def shipped_opponents(kind: str = "dqn") -> dict[str, PolicyOpponent]:
    """The opponent of each style of one kind, made once per kind and weights folder."""
    choice("opponents", kind, OPPONENT_KINDS)
    return _opponents(kind, None if kind == "rules" else holdem_dqn.shipped_weights_dir())


@cache
def _opponents(kind: str, weights: Path | None) -> dict[str, PolicyOpponent]:
    if kind == "rules":
        return {style: RuleOpponent(style) for style in STYLES}
    return {style: load_opponent(style, weights) for style in STYLES}


@dataclass(frozen=True)
class FirstAction:
    """The opponent's first action in one deal, its holding class and position."""

    holding: int
    position: str
    action: str


def measure_first_actions(opponent: PolicyOpponent, deals: int, seed: int) -> list[FirstAction]:
    """Deal ``deals`` hands against rlcard's random agent and record the opponent's first action."""
    env = make_env(seed)
    rng = np.random.default_rng(seed)
    found = []
    for _ in range(deals):
        env.reset()
        game = env.game
        position = "small blind" if game.players[OPPONENT_SEAT].in_chips == 1 else "big blind"
        cards = tuple(card.get_index() for card in game.players[OPPONENT_SEAT].hand)
        while not env.is_over():
            player = env.get_player_id()
            legal = game.get_legal_actions()
            if player == OPPONENT_SEAT:
                action = opponent.act(env.get_state(OPPONENT_SEAT))
                found.append(FirstAction(holding_class(cards), position, action))
                break
            env.step(legal[rng.integers(len(legal))], raw_action=True)
    return found


def first_to_act_shares(opponent: PolicyOpponent) -> dict[int, dict[str, float]]:
    """Exact first-action shares per holding class when the opponent acts first (small blind)."""
    decision = Decision((), (0, 0, 0, 0), ("call", "raise", "fold"), "")
    holdings = all_holdings()
    chosen = opponent.act_batch(observations(holdings, decision), decision.legal)
    counts: dict[int, Counter[str]] = {}
    for holding, action in zip(holdings, chosen, strict=True):
        counts.setdefault(holding_class(holding), Counter())[action] += 1
    return {
        cls: {action: counts[cls][action] / sum(counts[cls].values()) for action in FIRST_ACTIONS}
        for cls in sorted(counts)
    }


def first_action_counts(holding: np.ndarray, action: np.ndarray) -> np.ndarray:
    """The holding-class by first-action table of counts (one per row of index arrays)."""
    shape = (len(HOLDING_OPTIONS), len(FIRST_ACTIONS))
    cells = np.ravel_multi_index((holding, action), shape)
    rows = np.atleast_2d(cells)
    offsets = np.arange(len(rows))[:, None] * (shape[0] * shape[1])
    flat = np.bincount((rows + offsets).ravel(), minlength=len(rows) * shape[0] * shape[1])
    return flat.reshape((len(rows), *shape)) if cells.ndim > 1 else flat.reshape(shape)


def plugin_mi_bits(table: np.ndarray) -> np.ndarray | float:
    """Mutual information (bits) of joint tables of counts or shares (the last two axes)."""
    cells = table.reshape((*table.shape[:-2], -1))
    mi = (
        entropy(table.sum(axis=-1), base=2, axis=-1)
        + entropy(table.sum(axis=-2), base=2, axis=-1)
        - entropy(cells, base=2, axis=-1)
    )
    return float(mi) if np.ndim(mi) == 0 else mi


def miller_madow_mi_bits(table: np.ndarray) -> np.ndarray | float:
    """Mutual information (bits) from tables of counts, Miller-Madow bias-corrected (may be < 0)."""
    n = table.sum(axis=(-2, -1))

    def correction(counts: np.ndarray) -> np.ndarray:
        return (np.count_nonzero(counts, axis=-1) - 1) / (2 * n * math.log(2))

    cells = table.reshape((*table.shape[:-2], -1))
    margins = correction(table.sum(axis=-1)) + correction(table.sum(axis=-2))
    mi = plugin_mi_bits(table) + margins - correction(cells)
    return float(mi) if np.ndim(mi) == 0 else mi


#: Bootstrap resamples of :func:`mutual_information`.
MI_RESAMPLES = 2000


def mutual_information(records: Sequence[FirstAction], seed: int = 0) -> Interval:
    """Miller-Madow MI (bits, >= 0) of holding class and first action, bootstrap 95 % interval."""
    holding = np.array([r.holding for r in records], dtype=int)
    action = np.array([FIRST_ACTIONS.index(r.action) for r in records], dtype=int)
    n = len(records)
    estimate = miller_madow_mi_bits(first_action_counts(holding, action)) if n else math.nan
    if n < SMALL_N:
        point = max(estimate, 0.0) if n else estimate
        return Interval(point, math.nan, math.nan, n, "deal", "none")
    rng = np.random.default_rng(seed)
    rows = rng.integers(0, n, size=(MI_RESAMPLES, n))
    replicates = np.asarray(miller_madow_mi_bits(first_action_counts(holding[rows], action[rows])))
    shift = replicates.mean() - estimate
    low, high = np.quantile(replicates, [0.025, 0.975]) - shift
    value = max(estimate, 0.0)
    low, high = max(min(float(low), value), 0.0), max(float(high), value)
    if high <= low:
        high = low + 1 / (2 * n * math.log(2))  # never zero-width: one count's worth
    return Interval(value, low, high, n, "deal", "bootstrap")


def first_action_table(records: Sequence[FirstAction]) -> dict[int, dict[str, Interval]]:
    """Each holding class's first-action shares, with Wilson intervals over its deals."""
    table = {}
    for cls in range(len(HOLDING_OPTIONS)):
        actions = [r.action for r in records if r.holding == cls]
        table[cls] = {
            name: wilson_interval(actions.count(name), len(actions), unit="deal")
            for name in FIRST_ACTIONS
        }
    return table


def _exact_mi_bits(shares: Mapping[int, Mapping[str, float]]) -> float:
    """Mutual information (bits) of the first-to-act table, each holding weighted as dealt."""
    dealt = Counter(holding_class(h) for h in all_holdings())
    table = np.array(
        [[shares[cls].get(name, 0.0) * dealt[cls] for name in FIRST_ACTIONS] for cls in shares]
    )
    return plugin_mi_bits(table)


def opponent_profile(opponent: PolicyOpponent, deals: int, seed: int) -> dict[str, Any]:
    """What one opponent's first action reveals of its holding class, in plain data."""
    records = measure_first_actions(opponent, deals, seed)
    table = first_action_table(records)
    exact = first_to_act_shares(opponent)
    return {
        "style": opponent.style,
        "sha256": opponent.sha256,
        "vs_random": {
            "deals": deals,
            "seed": seed,
            "first_actions": len(records),
            "by_class": {
                str(cls): {name: share.as_dict() for name, share in row.items()}
                for cls, row in table.items()
            },
            "mutual_information_bits": mutual_information(records, seed).as_dict(),
        },
        "first_to_act": {
            "holdings": len(all_holdings()),
            "by_class": {str(cls): row for cls, row in exact.items()},
            "mutual_information_bits": _exact_mi_bits(exact),
        },
    }
