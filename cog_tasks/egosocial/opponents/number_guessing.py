"""Rule-based Number Guessing opponents at three cognitive levels.

With the paper's opening number 50:

- Level 1 always plays 50.
- Level 2 plays the arithmetic sequence 50, 45, ..., 5 (``50 - 5 * (round - 1)``).
- Level 3 plays 50 first, then the previous round's target,
  ``0.8 * mean(model's last number, own last number)``, as a whole number
  (rounded down, at least 1), as the authors' opponent plays integers only
  (their ``basic_player.ProgramPlayer``). Before Number Guessing 5.0.0 it kept
  the decimals by default, which a prediction under whole-number rules could
  not hit.

The opponents are deterministic, so against a deterministic (greedy) model
every game would be the same game. Game 0 of each level opens with the
paper's 50; each later game opens with its own number from
:data:`OPENING_RANGE`, drawn by :func:`opening_number` from a generator
seeded with the level and the game's index (the same for every run), and
plays the same level's rule from it (Level 1 plays it every round, Level 2
counts down from it by 5, Level 3 plays it first).

Each opponent sees only :class:`~cog_tasks.egosocial.number_guessing.OpponentView`,
never the model's predictions. :func:`constant_reply_game` plays one against a
player that gives the same reply every round: the reference rows "constant
prediction 50" and "constant lowest choice" (:data:`REFERENCE_REPLIES`),
each on the same opening as the model's game.
"""

from __future__ import annotations

import math
import random
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
    """The opening number of a level's game: the paper's 50 in game 0, a seeded draw after.

    Args:
        level: The opponent's level.
        game: The game's 0-based index within its level.

    Returns:
        50 for game 0; otherwise an integer in :data:`OPENING_RANGE`, the same
        for the same level and game in every run.
    """
    if game == 0:
        return OPENING_NUMBER
    return random.Random(f"number-guessing-opening-L{level}-g{game}").randint(*OPENING_RANGE)


@dataclass(frozen=True)
class NumberGuessingOpponent:
    """An opponent that follows one of the three level rules.

    Attributes:
        level: 1 (constant), 2 (arithmetic sequence) or 3 (previous target, rounded down).
        opening: Its first number (Level 1's every number; 50 in the paper).
    """

    level: int
    opening: int = OPENING_NUMBER

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
            return self.opening
        if self.level == 2:
            return max(LOWEST_NUMBER, self.opening - 5 * (view.round - 1))
        if not view.model_numbers:
            return self.opening
        target = round_target(view.model_numbers[-1], view.own_numbers[-1])
        return max(LOWEST_NUMBER, math.floor(target))


def constant_reply_game(
    reply: RoundReply,
    level: int,
    rounds: int = DEFAULT_ROUNDS,
    opening: int = OPENING_NUMBER,
) -> NumberGuessingGame:
    """Play one game in which the player gives ``reply`` every round.

    Args:
        reply: The player's prediction and choice, the same each round.
        level: The opponent's level.
        rounds: Rounds to play.
        opening: The opponent's opening number.

    Returns:
        The finished game.
    """
    opponent = NumberGuessingOpponent(level, opening=opening)
    game = NumberGuessingGame(level=level, rounds=rounds)
    while not game.is_over:
        game = game.play_round(reply, opponent.choose(game.view_as("opponent")))
    return game
