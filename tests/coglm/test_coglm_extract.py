"""Both answer readers on a table of realistic Llama-2-chat-style replies written for the tests."""

from __future__ import annotations

import pytest

from cog_tasks.coglm.authors_rule import authors_gpt_choice, authors_llama_choice
from cog_tasks.coglm.extract import EXTRACTORS, coerce_prediction, extract_choice, get_extractor

ANIMALS = ["a lion", "a zebra", "an eagle", "a tiger"]
SIGNED = ["D + 5", "D - 5", "D × 5", "D ÷ 5"]
NUMBERS = ["4", "5", "6", "7"]
TRUE_FALSE = ["True", "False"]
NLI = ["entailment", "neutral", "contradiction"]
PLAN = ["buying flour, baking bread", "baking bread, buying flour"]

# (reply, choices, what ours reads, what the authors' Llama-2-chat rule reads)
REPLIES = [
    # boxed letter plus the option's text
    ("A: The most likely is \\boxed{D. a tiger} because it has stripes.", ANIMALS, 3, 3),
    ("The answer is \\boxed{D. a tiger}", ANIMALS, 3, 3),
    ("\\boxed{\\text{B}}", ANIMALS, 1, None),
    ("I think the answer is \\boxed{(C)}.", ANIMALS, 2, None),
    ("\\boxed{a zebra}", ANIMALS, 1, None),
    # capitalised Option / Choice
    ("Option D is correct.", ANIMALS, 3, None),
    # the authors' rule falls back to the first character: "C" of "Choice"
    ("Choice B is the right one here, since zebras have stripes.", ANIMALS, 1, 2),
    (
        "A: Therefore, option C is the most reasonable inference.\n"
        "Option A is incorrect because lions do not fly.\n"
        "Option B is not reasonable either.\nOption D is wrong as well.",
        ANIMALS,
        2,
        0,  # the authors' rule: first character of the reply
    ),
    # signed and arithmetic choices
    ("The answer is D - 5.", SIGNED, 1, 3),
    ("The answer is option B: D - 5", SIGNED, 1, 1),
    ("The answer is D + 5", SIGNED, 0, 3),
    ("Subtracting gives D - 5, so that is what remains.", SIGNED, 1, None),
    # a blank line after "answer is:" followed by an equation
    ("The answer is:\n\nA = 2 + 3 = 5", NUMBERS, 1, 0),
    ("The answer is:\nB. 5", NUMBERS, 1, 1),
    ("The answer is: A = 3 + 3, which is 6.", NUMBERS, 2, 0),
    # several letters mentioned
    ("The answer is B. Not A, since a lion has no stripes, and not C either.", ANIMALS, 1, 1),
    ("It could be A or B, I am not sure which.", ANIMALS, None, None),
    ("The inference that is more reasonable is:\nB. a zebra\nOption A is unlikely.", ANIMALS, 1, 1),
    # the authors' own format, and a reply that starts with the letter
    ("A: The answer is \\boxed{C} an eagle.", ANIMALS, 2, 2),
    (" C. an eagle", ANIMALS, 2, 2),
    # a letter after "is"/"be" and before punctuation; an option's text on the first line;
    # a numbered list that spells an option
    ("The relationship is B.neutral. It is not contradiction or entailment.", NLI, 1, None),
    ("The most reasonable inference is B. Zebras have stripes.", ANIMALS, 1, None),
    ("This is option B. Option A has no stripes.", ANIMALS, 1, 1),
    ("The correct option is A.D + 5", SIGNED, 0, None),
    ("The best reading would be C. Eagles fly.", ANIMALS, 2, 2),
    ("a zebra\n\nOption D is possible too, but less likely.", ANIMALS, 1, None),
    ("The order is:\n1. buying flour\n2. baking bread\nOption B breaks a rule.", PLAN, 0, None),
    ("The answer is A.\nThis is option B.", ANIMALS, 0, 0),
    # a refusal, and a reply naming no option
    ("I'm sorry, but I cannot answer questions about hurting animals.", ANIMALS, None, None),
    ("Both options seem plausible to me.", TRUE_FALSE, None, 1),
    ("", ANIMALS, None, None),
]


@pytest.mark.parametrize(("reply", "choices", "ours", "authors"), REPLIES)
def test_both_readers_on_realistic_replies(
    reply: str, choices: list[str], ours: int | None, authors: int | None
) -> None:
    assert extract_choice(reply, choices) == ours
    assert authors_llama_choice(reply, choices) == authors


def test_authors_llama_rule_keeps_its_known_mistakes() -> None:
    # the second character of an answer without a box
    assert authors_llama_choice("(B) a zebra", ANIMALS) == 1
    # "is:" followed by a word starting with a capital B reads as option B
    assert authors_llama_choice("My reason is: Because stripes.", ANIMALS) == 1
    # only A-D are read; E of a five-option list is never found by a phrase
    five = [*ANIMALS, "a shark"]
    assert authors_llama_choice("The answer is E", five) is None
    # the last phrase's character stands: an answer starting with "E" reads as E
    assert authors_llama_choice("Eagles fly; the answer is obvious", five) == 4
    # where the authors' script crashes (nothing after the phrase), unreadable
    assert authors_llama_choice("x", ANIMALS) is None


def test_authors_gpt_rule_reads_only_the_first_box() -> None:
    assert authors_gpt_choice("The answer is \\boxed{D. a tiger}", ANIMALS) == 3
    assert authors_gpt_choice("\\boxed{A} no, \\boxed{B}", ANIMALS) == 0
    assert authors_gpt_choice("\\boxed{\\text{D}}", ANIMALS) is None
    assert authors_gpt_choice("\\boxed{(D)}", ANIMALS) is None
    assert authors_gpt_choice("The answer is option D.", ANIMALS) is None


def test_extractors_by_name() -> None:
    assert set(EXTRACTORS) == {"ours", "authors", "authors-gpt"}
    assert get_extractor("ours") is extract_choice
    assert coerce_prediction("Option D is correct.", ANIMALS, extractor="authors") is None
    assert coerce_prediction("Option D is correct.", ANIMALS) == 3
    with pytest.raises(ValueError, match="unknown CogLM extractor 'theirs'"):
        get_extractor("theirs")


COLOURS = ["red", "blue", "green", "yellow"]

# (reply, choices, what the authors' Llama-2-chat rule reads): ours reads none of them, the
# authors' rule reads its first letter (their rule, kept)
HEDGES = [
    ("The answer is A or B.", ANIMALS, 0),
    ("Answer: A is wrong, B is right", ANIMALS, 0),
    ("The answer is option A, B, C, or D.", ANIMALS, 0),
    ("It is option A, B, C, or D.", ANIMALS, 0),
    ("not red", COLOURS, None),
    ("A. a lion\nB. a zebra\nC. an eagle\nD. a tiger", ANIMALS, 0),
    ("A. a lion B. a zebra C. an eagle D. a tiger", ANIMALS, 0),
    ("The answer is: A. a lion B. a zebra C. an eagle D. a tiger", ANIMALS, 0),
]


@pytest.mark.parametrize(("reply", "choices", "authors"), HEDGES)
def test_hedges_are_invalid_for_ours(reply: str, choices: list[str], authors: int | None) -> None:
    assert extract_choice(reply, choices) is None
    assert authors_llama_choice(reply, choices) == authors


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        ("The answer is A, because lions roar.", 0),
        ("The answer is A, I think.", 0),  # "I" is no option of four
        ("The answer is A, and B is wrong.", 0),  # a rejected letter is no hedge
        ("The answer is A or B. Final answer: B", None),  # a hedge, then a different answer
        ("It is not a lion but a zebra.", 1),
        ("A. a lion\nB. a zebra - no, zebras do not roar.", 0),
    ],
)
def test_one_answer_beside_other_letters_is_still_read(reply: str, expected: int) -> None:
    assert extract_choice(reply, ANIMALS) == expected
