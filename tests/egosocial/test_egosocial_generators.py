"""Generated items checked by independent rule checkers that read only the rendered text.

Each checker below re-derives the right option from the story a model sees,
with its own keyword rules, and never calls the generators' tables or logic.
"""

import re
from collections import Counter

import pytest

from cog_tasks.egosocial.abilities import generate_abilities
from cog_tasks.egosocial.blackjack import generate_blackjack
from cog_tasks.egosocial.counterfactual import generate_counterfactual
from cog_tasks.egosocial.records import EgoItem

ITEMS_PER_CHECK = 300


def right_option(item: EgoItem) -> str:
    return item.options[item.answer]


def check_emotion(item: EgoItem) -> str:
    wanted = re.search(r"wished for (.+?) for months", item.story).group(1)
    got = re.search(r"finds? (.+)\.$", item.story).group(1)
    promised = "promised" in item.story
    if got == wanted:
        return "Content" if promised else "Delighted"
    return "Disappointed" if promised else "Calm"


def check_desire(item: EgoItem) -> str:
    first_sentence = item.story.split(". ")[0]
    for cue, wish in (
        ("not eaten", "something to eat"),
        ("kilometres", "something to drink"),
        ("snow", "a warm coat"),
        ("awake", "a place to sleep"),
    ):
        if cue in first_sentence:
            return wish
    raise AssertionError(f"no need in {item.story!r}")


def check_intention(item: EgoItem) -> str:
    cues = {
        "watering can": "water the flowers",
        "needle": "mend the shirt",
        "running shoes": "go for a run",
        "bulb": "change the light bulb",
        "sponge": "wash the car",
        "cake tin": "bake a cake",
        "goggles": "go swimming",
        "rake": "rake the leaves",
    }
    return next(goal for cue, goal in cues.items() if cue in item.story)


def check_knowledge(item: EgoItem) -> str:
    witnesses = item.story.split("At that moment, ")[1]
    people = re.findall(r"([A-Z][a-z]+) (was|had|saw)([^.]*)\.", witnesses)
    seers = [
        name
        for name, verb, rest in people
        if verb == "saw" or "watching you" in rest or "beside you" in rest
    ]
    assert len(seers) <= 1, item.story
    return f"{seers[0]}." if seers else "Nobody apart from me."


def check_non_literal(item: EgoItem) -> str:
    if "rolls their eyes" in item.story:
        return "is mocking"
    if "overheard" in item.story:
        return "spare my feelings"
    return "sincerely thinks"


CHECKERS = {
    "Emotion": check_emotion,
    "Desire": check_desire,
    "Intention": check_intention,
    "Knowledge": check_knowledge,
    "Non-li": check_non_literal,
}


@pytest.mark.parametrize("label", sorted(CHECKERS))
def test_each_ability_generator_agrees_with_an_independent_checker(label: str) -> None:
    items = generate_abilities(seed=11, count=ITEMS_PER_CHECK, labels=(label,))
    assert len(items) == ITEMS_PER_CHECK
    assert items == generate_abilities(seed=11, count=ITEMS_PER_CHECK, labels=(label,))
    for item in items:
        assert item.label == label and item.scenario == "daily_life"
        assert len(item.options) == 4 == len(set(item.options))
        expected = CHECKERS[label](item)
        assert expected in right_option(item), (item.story, item.options, item.answer)
        assert sum(expected in option for option in item.options) == 1
    perspectives = Counter(item.perspective for item in items)
    assert set(perspectives) <= {"tom", "socialization"}
    # every rule branch is exercised
    assert len({CHECKERS[label](item) for item in items}) >= 3


def test_new_counterfactual_rules_agree_with_an_independent_checker() -> None:
    items = generate_counterfactual(seed=3, count=ITEMS_PER_CHECK)
    kinds = Counter(item.metadata["question_type"] for item in items)
    assert kinds["light_action"] == kinds["meal_compare"] == ITEMS_PER_CHECK // 10
    for item in items:
        kind, answer = item.metadata["question_type"], right_option(item)
        if kind == "light_action":
            colour = re.search(r"light ahead shows (\w+)", item.story).group(1)
            assert (
                answer
                == {"red": "I drive on.", "green": "I stop.", "yellow": "I slow down."}[colour]
            )
        elif kind == "light_visitor":
            colour = re.search(r"light shows (\w+)", item.story).group(1)
            assert answer.endswith("to stop." if colour == "red" else "to drive on.")
        elif kind == "meal_bill":
            assert answer == "The restaurant pays me."
        elif kind == "meal_compare":
            you_feast = "you eat a five-course feast" in item.story
            assert answer.startswith("I receive") == you_feast


def answer_positions(items: list[EgoItem]) -> Counter:
    return Counter(item.answer for item in items)


def test_option_positions_are_roughly_uniform_over_1000_items() -> None:
    items = generate_abilities(seed=5, count=200)
    assert len(items) == 1000
    for position, count in answer_positions(items).items():
        assert 0.21 <= count / len(items) <= 0.29, (position, count)
    counterfactual = generate_counterfactual(seed=5, count=1000)
    first = sum(item.answer == 0 for item in counterfactual) / len(counterfactual)
    chance = sum(1 / len(item.options) for item in counterfactual) / len(counterfactual)
    assert abs(first - chance) < 0.04


def test_a_constant_letter_scores_chance_on_blackjack() -> None:
    items = generate_blackjack(seed=0, hands=250)
    chance = sum(1 / len(item.options) for item in items) / len(items)
    for letter in range(2):
        always = sum(item.answer == letter for item in items) / len(items)
        assert abs(always - chance) < 0.05, (letter, always, chance)
    for question_type in ("bust", "strategy", "dealer_blackjack", "dealer_17"):
        of_type = [item for item in items if item.metadata["question_type"] == question_type]
        assert len(answer_positions(of_type)) > 1, question_type
