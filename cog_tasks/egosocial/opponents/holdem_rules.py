"""Deterministic rule-based hold'em opponents that play the paper's styles (docs/games.md)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cog_tasks.common.params import ParameterError
from cog_tasks.egosocial.opponents.holdem_dqn import STYLES, PolicyOpponent, Style

#: rlcard's card index is ``13 * suit + rank``, ranks in the order A, 2, ..., K.
RANKS_PER_SUIT = 13
#: Rank indices (A = 0, T = 9, J = 10, Q = 11, K = 12) of the cards 10 or higher.
HIGH_RANK_INDICES = (0, 9, 10, 11, 12)
WEAK, MEDIUM, STRONG = 0, 1, 2
ROUNDS, MAX_RAISE_COUNT = 4, 5


def _preflop_strength(rank_counts: np.ndarray) -> np.ndarray:
    """``2 - holding class`` of each row's two cards (rank counts per row)."""
    pair = rank_counts.max(axis=1) == 2
    high = rank_counts[:, HIGH_RANK_INDICES].sum(axis=1)
    return np.where(pair | (high == 2), STRONG, np.where(high == 1, MEDIUM, WEAK))


def _made_hand_strength(cards: np.ndarray, rank_counts: np.ndarray) -> np.ndarray:
    """Strong for two pair or better, medium for one pair, weak for no pair (5 to 7 cards)."""
    pairs = (rank_counts >= 2).sum(axis=1)
    flush = cards.reshape(-1, 4, RANKS_PER_SUIT).sum(axis=2).max(axis=1) >= 5
    present = rank_counts > 0
    # Ace high as well as low: A, 2, ..., K, A; a straight is five present ranks in a row.
    ladder = np.concatenate([present, present[:, :1]], axis=1).astype(int)
    runs = np.lib.stride_tricks.sliding_window_view(ladder, 5, axis=1).sum(axis=2)
    straight = (runs == 5).any(axis=1)
    strong = (pairs >= 2) | (rank_counts.max(axis=1) >= 3) | flush | straight
    return np.where(strong, STRONG, np.where(pairs == 1, MEDIUM, WEAK))


def hand_strength(observations: np.ndarray) -> np.ndarray:
    """Each observation's strength: 0 weak, 1 medium, 2 strong (preflop class, else made hand)."""
    cards = np.asarray(observations)[:, :52] > 0.5
    rank_counts = cards.reshape(-1, 4, RANKS_PER_SUIT).sum(axis=1)
    preflop = cards.sum(axis=1) == 2
    return np.where(
        preflop, _preflop_strength(rank_counts), _made_hand_strength(cards, rank_counts)
    )


def round_state(observations: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each observation's betting round (0 preflop ... 3 river) and raises made in it."""
    rows = np.asarray(observations)
    seen = (rows[:, :52] > 0.5).sum(axis=1)
    stage = np.searchsorted(np.array([2, 5, 6, 7]), seen)
    raises = rows[:, 52:72].reshape(-1, ROUNDS, MAX_RAISE_COUNT).argmax(axis=2)
    return stage, raises[np.arange(len(rows)), stage]


@dataclass(frozen=True)
class RuleOpponent(PolicyOpponent):
    """A rule-based opponent of one style; ``sha256`` is empty, as no weights are read."""

    style: Style
    sha256: str = ""

    def __post_init__(self) -> None:
        if self.style not in STYLES:
            raise ParameterError(f"unknown opponent style {self.style!r}; expected one of {STYLES}")

    def act_batch(self, observations: np.ndarray, legal: tuple[str, ...]) -> list[str]:
        """The style's action for each observation; every row shares the ``legal`` actions."""
        strength = hand_strength(observations)
        stage, raises = round_state(observations)
        raised = raises > 0
        if self.style == "aggressive":
            wants_raise = (strength == STRONG) | ((strength == MEDIUM) & ~raised)
            folds = np.zeros(len(strength), dtype=bool)
        else:
            wants_raise = (strength == STRONG) & (stage > 0) & ~raised
            folds = (strength == WEAK) | ((strength == MEDIUM) & raised)
        passive = "call" if "call" in legal else "check"
        return [
            "raise"
            if want and "raise" in legal
            else ("fold" if fold and "call" in legal else passive)
            for want, fold in zip(wants_raise, folds, strict=True)
        ]
