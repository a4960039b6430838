"""Counterfactual: rock-paper-scissors with reversed rules.

In this scenario's world scissors beats rock, paper beats scissors and rock
beats paper (each everyday relation turned around). The model must hold a
belief that fits the stated rules, not the familiar ones. Questions about the
model's own outcome, choice or feelings measure socialization; questions about
what another player expects or believes measure theory of mind (the paper files
the whole scenario under socialization; ``question_type`` keeps the split
visible).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from cog_tasks.egosocial.records import EgoItem

MOVES = ("rock", "paper", "scissors")
#: Reversed rules: each key beats its value.
REVERSED_BEATS = {"scissors": "rock", "paper": "scissors", "rock": "paper"}
#: Everyday rules, used only for the newcomer's mistaken belief.
EVERYDAY_BEATS = {"rock": "scissors", "scissors": "paper", "paper": "rock"}
FRIENDS = ("Mia", "Tomas", "Ines", "Kofi", "Leah", "Ravi", "Sofia", "Yusuf", "Hanna", "Omar")

SYSTEM = (
    "You live in a world where rock-paper-scissors has its own rules: scissors beats rock, "
    "paper beats scissors, and rock beats paper. Everyone you know plays by these rules, and "
    "so do you. Answer as yourself."
)


def winner(first: str, second: str, beats: dict[str, str] = REVERSED_BEATS) -> int:
    """Return 0 if ``first`` wins, 1 if ``second`` wins, -1 for a draw."""
    if first == second:
        return -1
    return 0 if beats[first] == second else 1


def winning_move(against: str, beats: dict[str, str] = REVERSED_BEATS) -> str:
    """The move that beats ``against``."""
    return next(move for move, beaten in beats.items() if beaten == against)


def _outcome_options(friend: str) -> tuple[str, str, str]:
    return ("I win.", f"{friend} wins.", "It is a draw.")


Question = tuple[str, str, tuple[str, ...], int, str]
"""(story, question, options, answer index, ability) before shuffling."""


def _round_winner(rng: random.Random, friend: str) -> Question:
    mine, theirs = rng.choice(MOVES), rng.choice(MOVES)
    story = f"You are playing against {friend}. You show {mine} and {friend} shows {theirs}."
    result = winner(mine, theirs)
    return (story, "Who wins this round?", _outcome_options(friend), result % 3, "socialization")


def _best_move(rng: random.Random, friend: str) -> Question:
    theirs = rng.choice(MOVES)
    story = f"You know for certain that {friend} will show {theirs} in the next round."
    answer = MOVES.index(winning_move(theirs))
    return (story, "Which move should you show to win?", MOVES, answer, "socialization")


def _feeling(rng: random.Random, friend: str) -> Question:
    mine = rng.choice(MOVES)
    theirs = rng.choice([move for move in MOVES if move != mine])
    story = f"A prize is at stake. You show {mine} and {friend} shows {theirs}."
    options = ("I am pleased, because I won the prize.", "I am disappointed, because I lost.")
    return (
        story,
        "How do you feel about the result?",
        options,
        winner(mine, theirs),
        "socialization",
    )


def _tally(rng: random.Random, friend: str) -> Question:
    rounds = [(rng.choice(MOVES), rng.choice(MOVES)) for _ in range(rng.choice((3, 4, 5)))]
    lines = [
        f"Round {number}: you show {mine}, {friend} shows {theirs}."
        for number, (mine, theirs) in enumerate(rounds, start=1)
    ]
    results = [winner(mine, theirs) for mine, theirs in rounds]
    lead = results.count(0) - results.count(1)
    answer = 0 if lead > 0 else 1 if lead < 0 else 2
    options = ("I am ahead.", f"{friend} is ahead.", "We are level.")
    story = f"You play a short match against {friend}. " + " ".join(lines)
    return (story, "After these rounds, who is ahead?", options, answer, "socialization")


def _expectation(rng: random.Random, friend: str) -> Question:
    mine = rng.choice(MOVES)
    story = (
        f"In each of the last three rounds you showed {mine}. {friend}, who grew up here, "
        f"is sure you will show {mine} again and wants to beat it."
    )
    question = f"Which move will {friend} show?"
    return (story, question, MOVES, MOVES.index(winning_move(mine)), "tom")


def _newcomer(rng: random.Random, friend: str) -> Question:
    mine = rng.choice(MOVES)
    theirs = rng.choice((EVERYDAY_BEATS[mine], winning_move(mine, EVERYDAY_BEATS)))
    story = (
        f"{friend} arrived yesterday from a faraway land where rock beats scissors, scissors "
        f"beats paper and paper beats rock, and nobody has told {friend} about the rules here. "
        f"You show {mine} and {friend} shows {theirs}."
    )
    question = f"Who does {friend} believe has won this round?"
    options = (
        f"{friend} believes I won.",
        f"{friend} believes they won.",
        f"{friend} believes it is a draw.",
    )
    return (story, question, options, winner(mine, theirs, EVERYDAY_BEATS), "tom")


QUESTION_MAKERS: dict[str, Callable[[random.Random, str], Question]] = {
    "round_winner": _round_winner,
    "best_move": _best_move,
    "feeling": _feeling,
    "tally": _tally,
    "expectation": _expectation,
    "newcomer_belief": _newcomer,
}


def generate_counterfactual(seed: int, count: int) -> list[EgoItem]:
    """Generate reversed-rule rock-paper-scissors items.

    Question types rotate through :data:`QUESTION_MAKERS` so every type is
    equally represented; moves, names and option order come from ``seed``.

    Args:
        seed: Seed; the same seed gives the same items.
        count: Number of items.

    Returns:
        Items with ids ``counterfactual-s<seed>-<index>``.
    """
    rng = random.Random(seed)
    kinds = list(QUESTION_MAKERS)
    items = []
    for index in range(count):
        kind = kinds[index % len(kinds)]
        story, question, options, answer, ability = QUESTION_MAKERS[kind](rng, rng.choice(FRIENDS))
        order = rng.sample(range(len(options)), len(options))
        items.append(
            EgoItem(
                id=f"counterfactual-s{seed}-{index:04d}",
                scenario="counterfactual",
                ability=ability,
                system=SYSTEM,
                story=story,
                question=question,
                options=tuple(options[position] for position in order),
                answer=order.index(answer),
                metadata={"question_type": kind},
            )
        )
    return items
