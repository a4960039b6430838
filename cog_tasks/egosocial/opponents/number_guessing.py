"""Rule-based Number Guessing opponents at three cognitive levels.

- Level 1 always plays 50.
- Level 2 plays the arithmetic sequence 50, 45, ..., 5 (``50 - 5 * (round - 1)``).
- Level 3 plays 50 first, then the previous round's target,
  ``0.8 * mean(model's last number, own last number)``, with its decimals by
  default (the paper's formula), or rounded down to a whole number with
  ``rounded=True`` (this project's earlier default).

Each opponent sees only :class:`~cog_tasks.egosocial.number_guessing.OpponentView`,
never the model's predictions. :func:`constant_reply_game` plays one against a
player that gives the same reply every round: the reference rows "constant
prediction 50" and "constant lowest choice" (:data:`REFERENCE_REPLIES`). The
opponents are deterministic, so each row is one game per level, the same
game however often it is played.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from cog_tasks.common.params import ParameterError
from cog_tasks.egosocial.number_guessing import (
    DEFAULT_ROUNDS,
    LOWEST_NUMBER,
    Number,
    NumberGuessingGame,
    OpponentView,
    RoundReply,
    round_target,
)

OPENING_NUMBER = 50
LEVELS = (1, 2, 3)
#: Reference players that reply the same every round: a constant prediction of 50 (and
#: choice 50), and the lowest choice (with prediction 50), which never loses a round.
REFERENCE_REPLIES: dict[str, RoundReply] = {
    "constant prediction 50": RoundReply(prediction=OPENING_NUMBER, choice=OPENING_NUMBER),
    "constant lowest choice": RoundReply(prediction=OPENING_NUMBER, choice=LOWEST_NUMBER),
}


@dataclass(frozen=True)
class NumberGuessingOpponent:
    """An opponent that follows one of the three level rules.

    Attributes:
        level: 1 (constant), 2 (arithmetic sequence) or 3 (previous target).
        rounded: Level 3 rounds the previous target down to a whole number
            instead of keeping its decimals.
    """

    level: int
    rounded: bool = False

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise ParameterError(f"unknown opponent level {self.level!r}; expected one of {LEVELS}")

    def choose(self, view: OpponentView) -> Number:
        """Pick this round's number.

        Args:
            view: The public history before this round.

        Returns:
            A number from 1 to 100.
        """
        if self.level == 1:
            return OPENING_NUMBER
        if self.level == 2:
            return max(LOWEST_NUMBER, OPENING_NUMBER - 5 * (view.round - 1))
        if not view.model_numbers:
            return OPENING_NUMBER
        target = round_target(view.model_numbers[-1], view.own_numbers[-1])
        if self.rounded:
            return max(LOWEST_NUMBER, math.floor(target))
        exact = float(target)
        return max(LOWEST_NUMBER, int(exact) if exact.is_integer() else exact)


def constant_reply_game(
    reply: RoundReply, level: int, rounds: int = DEFAULT_ROUNDS, rounded: bool = False
) -> NumberGuessingGame:
    """Play one game in which the player gives ``reply`` every round.

    Args:
        reply: The player's prediction and choice, the same each round.
        level: The opponent's level.
        rounds: Rounds to play.
        rounded: The Level 3 opponent rounds down (see :class:`NumberGuessingOpponent`).

    Returns:
        The finished game.
    """
    opponent = NumberGuessingOpponent(level, rounded=rounded)
    game = NumberGuessingGame(level=level, rounds=rounds)
    while not game.is_over:
        game = game.play_round(reply, opponent.choose(game.view_as("opponent")))
    return game
