"""The leak detector, apart from the hider: each rule finds its case, and the hider leaves none."""

from __future__ import annotations

import pytest

from cog_tasks.coglm.leaks import find_leaks
from cog_tasks.coglm.rationale import hide_options

DAY = [
    "going fishing, visiting the museum, baking bread, writing letters",
    "visiting the museum, going fishing, writing letters, baking bread",
    "baking bread, writing letters, going fishing, visiting the museum",
]
DAY_QUESTION = (
    "Rules: going fishing before baking bread. Plan the day: fishing, museum, bread, letters."
)
TIMES = ["At 8 am as you are very close here.", "At 9:30 am as friends may need a long drive"]
NLI = ["entailment", "neutral", "contradiction"]

SEAFOOD = ["Johnson really likes seafood", "Johnson is allergic to seafood"]
SEAFOOD_QUESTION = "Johnson ate seafood and got swollen lips. Which inference is reasonable?"
WEIGHT = ["Less than one kilogram", "Equal to one kilogram", "More than one kilogram"]
CLOTHES = ["A scarf worn in winter", "A summer hat"]
BASES = ["Colour", "Size", "Presence of seeds"]
PLANTS = ["A cactus on the sill", "The ferns in the shade"]
JUGS = ["Three litres", "Four litres", "Less than three litres"]
JUGS_QUESTION = "Pour two jugs of 1.5 litres into a pot. How much is in the pot?"
ALLERGY = ["Amy is allergic to all foods.", "Seafood is the cause of Amy's allergic reactions."]

CASES = [
    (
        "order",
        "1. Go fishing first.\n2. Then the museum.\n3. Bake bread.\n4. Write letters.",
        DAY,
        "",
    ),
    ("ordinal", "So I pick the penultimate option here.", NLI, ""),
    ("ordinal", "It is the option listed third.", NLI, ""),
    ("ordinal", "The last one fits best.", NLI, ""),
    ("ordinal", "Only the final alternative holds.", NLI, ""),
    ("token", "I would choose 9:30, since friends drive far.", TIMES, ""),
    ("words", "Swollen lips are signs of an allergic reaction.", SEAFOOD, SEAFOOD_QUESTION),
    ("words", "The weight will be less than before.", WEIGHT, "A 1 kg biscuit is smashed."),
    ("words", "It keeps her warm, as it is worn in winter.", CLOTHES, ""),
    ("letter", "A leads to C. The correct option is: D", ["A", "B", "C", "D"], "If A, then D?"),
    # What the hider before these rules left: kept step verbs, other forms, agreement, numbers.
    ("list", "1. Go […] at dawn.\n2. Visit the […].", DAY, ""),
    ("forms", "Grapes of this kind are seedless.", BASES, "Sort: apple, plum, grape."),
    ("forms", "The stove helps to warm the room.", ["It gives warmth.", "It is night."], ""),
    ("agreement", "[…] are easy plants, and they like a dark flat.", PLANTS, ""),
    ("agreement", "[…], as they like a dark flat.", PLANTS, ""),
    ("quantity", "1.5 + 1.5 = 3 […].", JUGS, JUGS_QUESTION),
    ("quantity", "So it still weighs one kilogram.", WEIGHT, "A 500 g cake is cut in two."),
    # What 2.11.0's hider left, found by a blind hand-read: grammar around hidden text, a
    # letter labelling steps, a place named with its noun, a number a term of one option holds.
    ("article", "The […] is in front of your friend.", ["You", "Little boy"], "Who is ahead?"),
    ("comparative", "He can see […] sky than you can.", ["A little bit", "more"], ""),
    ("label", "1. Movies (B1)\n2. Zoo (B2)\nSo the order is B1-B2.", NLI, ""),
    ("position", "Jessica chases the third animal, which is […].", NLI, ""),
    ("position", "She likes the last animal mentioned.", NLI, ""),
    ("quantity", "The common difference is 3.", ["n + 1", "3n - 1", "4n + 2"], "2, 5, 8, 11"),
    # What 2.12.0's first hider left, found by the next blind hand-read: other forms of a word,
    # two words in a row of one option, a numbered line cut short.
    (
        "forms",
        "It is related to her anxiety.",
        ["She has a cold.", "She is anxious."],
        "She shakes.",
    ),
    ("pair", "So seafood triggers her allergic reactions.", ALLERGY, "Amy has reactions."),
    ("list", "Here is the plan:\n2. Visit th", DAY, ""),
    # And the next: "it" after a hidden option, where one option is plural.
    ("agreement", "[…] fits. It is a great metaphor.", ["Gloves", "Jigsaw puzzle"], ""),
    # And the next: option letters joined by dashes.
    ("label", "So the sequence is:\nB-B-B-D", DAY, ""),
]


@pytest.mark.parametrize(("rule", "text", "choices", "question"), CASES)
def test_each_rule_finds_its_case(rule: str, text: str, choices: list[str], question: str) -> None:
    assert rule in {leak.rule for leak in find_leaks(text, text, choices, question)}


@pytest.mark.parametrize(("rule", "text", "choices", "question"), CASES)
def test_the_hider_leaves_no_leak_of_these(
    rule: str, text: str, choices: list[str], question: str
) -> None:
    hidden = hide_options(text, choices, question)
    assert find_leaks(hidden, text, choices, question) == []


def test_what_the_question_states_is_no_leak() -> None:
    stated = "Plan the day: fishing, museum, bread, letters."
    assert not [leak for leak in find_leaks(stated, stated, DAY, stated) if leak.rule == "order"]
    assert find_leaks("It takes 8 steps.", "", ["8 steps", "9 steps"], "Is it 8 steps?") == []
    assert find_leaks("It still weighs 1 kilogram.", "", WEIGHT, "A 1 kg cake is cut.") == []
    assert find_leaks("It is 3.", "", JUGS, "Fill 3 cups.") == []


def test_numbers_in_list_labels_and_options_of_one_number_are_no_leak() -> None:
    assert find_leaks("3. […] to the pot.", "", JUGS, JUGS_QUESTION) == []
    assert find_leaks("[…] is easy, as they say.", "", ["A cactus", "A fern"]) == []


def test_brackets_unbalanced_by_hiding_are_a_leak_and_the_hider_balances_them() -> None:
    reply = "It is not the case (option B) that he left."
    assert [
        leak.rule for leak in find_leaks("It is not the case (an option that he left.", reply, NLI)
    ] == ["brackets"]
    hidden = hide_options(reply, NLI)
    assert hidden.count("(") == hidden.count(")")
    assert find_leaks(hidden, reply, NLI) == []


def test_derived_forms_of_one_word_options_and_telling_articles_are_hidden() -> None:
    hidden = hide_options("The two are contradictory: sentence2 entails sentence1.", NLI)
    assert "contradict" not in hidden and "entail" not in hidden
    choices = ["Coffee cup", "Umbrella", "Toy airplane", "Laptop"]
    hidden = hide_options("Rainy weather is best shown by an Umbrella.", choices, sentences=False)
    assert hidden == "Rainy weather is best shown by […]."


def test_words_the_question_or_several_options_hold_are_no_leak() -> None:
    choices = ["Johnson likes seafood", "Johnson is allergic to seafood"]
    assert find_leaks("Johnson likes it.", "", choices, "Does Johnson like it?") == []
    assert "pair" in {leak.rule for leak in find_leaks("He likes seafood.", "", choices)}
    assert find_leaks("He ate seafood.", "", choices, "") == []
