"""Rule-based Number Guessing opponents at three cognitive levels, from a seeded opening number."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from cog_tasks.common.params import ParameterError
from cog_tasks.egosocial.number_guessing import (
    DEFAULT_ROUNDS,
    LOWEST_NUMBER,
    ModelView,
    Number,
    NumberGuessingGame,
    OpponentView,
    RoundReply,
    round_target,
)

OPENING_NUMBER = 50
#: The opening numbers of games after the first (integers, both ends included).
OPENING_RANGE = (30, 70)
LEVELS = (1, 2, 3)
#: Reference players that reply the same every round: a constant prediction of 50 (and
#: choice 50), and the lowest choice (with prediction 50), which never loses a round.
REFERENCE_REPLIES: dict[str, RoundReply] = {
    "constant prediction 50": RoundReply(prediction=OPENING_NUMBER, choice=OPENING_NUMBER),
    "constant lowest choice": RoundReply(prediction=OPENING_NUMBER, choice=LOWEST_NUMBER),
}


def opening_number(level: int, game: int) -> int:
    """The opening number of a level's 0-based game: 50 in game 0, else a fixed seeded draw."""
    if game == 0:
        return OPENING_NUMBER
    return random.Random(f"number-guessing-opening-L{level}-g{game}").randint(*OPENING_RANGE)


@dataclass(frozen=True)
class NumberGuessingOpponent:
    """An opponent that follows one of the three level rules from its ``opening`` number."""

    level: int
    opening: int = OPENING_NUMBER

    def __post_init__(self) -> None:
        if self.level not in LEVELS:
            raise ParameterError(f"unknown opponent level {self.level!r}; expected one of {LEVELS}")

    def choose(self, view: OpponentView) -> Number:
        """Pick this round's number (1 to 100) from the public history."""
        if self.level == 1:
            return self.opening
        if self.level == 2:
            return max(LOWEST_NUMBER, self.opening - 5 * (view.round - 1))
        if not view.model_numbers:
            return self.opening
        target = round_target(view.model_numbers[-1], view.own_numbers[-1])
        return max(LOWEST_NUMBER, math.floor(target))


def constant_reply_game(
    reply: RoundReply | Callable[[ModelView], RoundReply],
    level: int,
    rounds: int = DEFAULT_ROUNDS,
    opening: int = OPENING_NUMBER,
) -> NumberGuessingGame:
    """Play one game in which the player gives ``reply`` (or ``reply(view)``) every round."""
    opponent = NumberGuessingOpponent(level, opening=opening)
    game = NumberGuessingGame(level=level, rounds=rounds)
    while not game.is_over:
        number = opponent.choose(game.view_as("opponent"))
        view = game.view_as("model")
        given = reply if isinstance(reply, RoundReply) else reply(view)  # type: ignore[arg-type]
        game = game.play_round(given, number)
    return game
