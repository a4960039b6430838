"""Counterfactual: worlds whose stated rules reverse everyday ones (games, traffic, restaurants)."""

from __future__ import annotations

import random
from collections.abc import Callable

from cog_tasks.egosocial.records import EgoItem, shuffle_options

MOVES = ("rock", "paper", "scissors")
#: Reversed rules: each key beats its value.
REVERSED_BEATS = {"scissors": "rock", "paper": "scissors", "rock": "paper"}
#: Everyday rules, used only for the newcomer's mistaken belief.
EVERYDAY_BEATS = {"rock": "scissors", "scissors": "paper", "paper": "rock"}
FRIENDS = ("Mia", "Tomas", "Ines", "Kofi", "Leah", "Ravi", "Sofia", "Yusuf", "Hanna", "Omar")

SYSTEM = (
    "You live in a world whose rules differ from the everyday ones; the story states them. "
    "Everyone you know follows these rules, and so do you. Answer as yourself."
)
RPS_RULES = (
    "Here rock-paper-scissors has its own rules: scissors beats rock, paper beats scissors, "
    "and rock beats paper."
)
TRAFFIC_RULES = (
    "Here a red traffic light means go and a green traffic light means stop; a yellow light "
    "means slow down, the light is about to change."
)
RESTAURANT_RULES = (
    "Here restaurants pay their diners for eating there, and the bigger the meal, the more "
    "the restaurant pays."
)
LIGHTS = {"red": "I drive on.", "green": "I stop.", "yellow": "I slow down."}


def winner(first: str, second: str, beats: dict[str, str] = REVERSED_BEATS) -> int:
    """Return 0 if ``first`` wins, 1 if ``second`` wins, -1 for a draw."""
    if first == second:
        return -1
    return 0 if beats[first] == second else 1


def winning_move(against: str, beats: dict[str, str] = REVERSED_BEATS) -> str:
    """The move that beats ``against``."""
    return next(move for move, beaten in beats.items() if beaten == against)


Question = tuple[str, str, tuple[str, ...], int, str]
"""(story, question, options, answer index, ability) before shuffling."""


def _round_winner(rng: random.Random, friend: str) -> Question:
    mine, theirs = rng.choice(MOVES), rng.choice(MOVES)
    story = f"You are playing against {friend}. You show {mine} and {friend} shows {theirs}."
    options = ("I win.", f"{friend} wins.", "It is a draw.")
    return (story, "Who wins this round?", options, winner(mine, theirs) % 3, "socialization")


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
    question = "How do you feel about the result?"
    return (story, question, options, winner(mine, theirs), "socialization")


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


def _light_action(rng: random.Random, friend: str) -> Question:
    colour = rng.choice(tuple(LIGHTS))
    story = f"You are driving {friend} home, and the traffic light ahead shows {colour}."
    options = tuple(LIGHTS.values())
    return (story, "What do you do?", options, options.index(LIGHTS[colour]), "socialization")


def _light_visitor(rng: random.Random, friend: str) -> Question:
    colour = rng.choice(("red", "green"))
    story = (
        f"{friend} is visiting from a faraway land where green means go and red means stop, "
        f"and nobody has told {friend} about the lights here. At a crossing the light shows "
        f"{colour}."
    )
    options = (f"{friend} expects the cars to drive on.", f"{friend} expects the cars to stop.")
    question = f"What does {friend} expect the cars to do?"
    return (story, question, options, int(colour == "red"), "tom")


def _meal_bill(rng: random.Random, friend: str) -> Question:
    meal = rng.choice(("a three-course dinner", "a bowl of soup", "a large breakfast"))
    story = f"You eat {meal} at a restaurant with {friend}, and the waiter brings the bill."
    options = ("The restaurant pays me.", "I pay the restaurant.", "Nobody pays anything.")
    return (story, "What happens with the money?", options, 0, "socialization")


def _meal_compare(rng: random.Random, friend: str) -> Question:
    big, small = "a five-course feast", "a small side salad"
    mine_is_big = rng.random() < 0.5
    story = (
        f"At the same restaurant you eat {big if mine_is_big else small} and {friend} eats "
        f"{small if mine_is_big else big}."
    )
    options = ("I receive more money.", f"{friend} receives more money.", "We receive the same.")
    question = "Who receives more money from the restaurant?"
    return (story, question, options, 0 if mine_is_big else 1, "socialization")


#: Question type -> (the rules stated in the story, the question maker).
QUESTION_MAKERS: dict[str, tuple[str, Callable[[random.Random, str], Question]]] = {
    "round_winner": (RPS_RULES, _round_winner),
    "best_move": (RPS_RULES, _best_move),
    "feeling": (RPS_RULES, _feeling),
    "tally": (RPS_RULES, _tally),
    "expectation": (RPS_RULES, _expectation),
    "newcomer_belief": (RPS_RULES, _newcomer),
    "light_action": (TRAFFIC_RULES, _light_action),
    "light_visitor": (TRAFFIC_RULES, _light_visitor),
    "meal_bill": (RESTAURANT_RULES, _meal_bill),
    "meal_compare": (RESTAURANT_RULES, _meal_compare),
}


def generate_counterfactual(seed: int, count: int) -> list[EgoItem]:
    """Generate ``count`` items (ids ``counterfactual-s<seed>-<index>``), types in rotation."""
    rng = random.Random(seed)
    kinds = list(QUESTION_MAKERS)
    items = []
    for index in range(count):
        kind = kinds[index % len(kinds)]
        rules, make = QUESTION_MAKERS[kind]
        story, question, options, answer, ability = make(rng, rng.choice(FRIENDS))
        shuffled, right = shuffle_options(rng, options, answer)
        items.append(
            EgoItem(
                id=f"counterfactual-s{seed}-{index:04d}",
                scenario="counterfactual",
                label="Counterfactual",
                system=SYSTEM,
                story=f"{rules} {story}",
                question=question,
                options=shuffled,
                answer=right,
                perspective=ability,
                metadata={"question_type": kind},
            )
        )
    return items
