"""Chain-of-cognition rationales: no option's letter or text reaches the weaker model."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from coglm_chat_mock import scripted_model
from inspect_ai import eval as inspect_eval

from cog_tasks.cli import main
from cog_tasks.coglm.extract import extract_choice
from cog_tasks.coglm.inspect import coglm_chat
from cog_tasks.coglm.rationale import (
    HIDDEN_TEXT,
    hide_options,
    hide_orders,
    leak_counts,
    points_at_options,
    question_letters,
    shown_rationale,
)

INFER = [
    "Sam forgot his umbrella at home",
    "Sam enjoys walking in the rain",
    "Sam owns no umbrella",
    "It did not rain today",
]
PLAN = [
    "buying flour, baking bread, eating lunch",
    "eating lunch, buying flour, baking bread",
    "baking bread, eating lunch, buying flour",
]
NLI = ["entailment", "neutral", "contradiction"]

# Replies written for the tests in the shapes of the authors' Llama-2-chat outputs.
REPLIES = [
    (
        "The answer is A. Sam forgot his umbrella at home.\n\nHe is wet and usually carries "
        "one. Option B is not supported. Option C is unlikely, and D is ruled out.",
        INFER,
    ),
    (
        "A. Sam forgot his umbrella at home.\n\nThe other options are weaker:\n\n"
        "B. Sam enjoys walking in the rain - nothing says so.\n"
        "C. Sam owns no umbrella - he usually carries one.",
        INFER,
    ),
    ("The most reasonable inference is that Sam forgot the umbrella at home. (A)", INFER),
    (
        "Following the rules, the order is:\n1. buying flour\n2. baking bread\n3. eating lunch\n"
        "So the first sequence works, while B and C break the rules.",
        PLAN,
    ),
    ("The relationship is B.neutral. It is neither contradiction nor entailment.", NLI),
    ("B: Sam likes walking in rain, which is the best reading. The answer is \\boxed{B}.", INFER),
]


@pytest.mark.parametrize(("reply", "choices"), REPLIES)
def test_hidden_rationale_names_no_option(reply: str, choices: list[str]) -> None:
    assert extract_choice(reply, choices) is not None
    assert hide_options(reply, choices, sentences=False)  # the masked form keeps reasoning
    for hidden in (hide_options(reply, choices), hide_options(reply, choices, sentences=False)):
        assert extract_choice(hidden, choices) is None
        for choice in choices:
            assert choice.lower() not in hidden.lower()


def test_near_copies_and_numbered_lists_are_hidden() -> None:
    hidden = hide_options(REPLIES[3][0], PLAN, sentences=False)
    assert hidden.startswith("Following the rules, the order is:\n1. " + HIDDEN_TEXT)
    assert "flour" not in hidden
    assert "forgot the umbrella at" not in hide_options(REPLIES[2][0], INFER, sentences=False)


def test_letters_of_options_go_but_articles_stay() -> None:
    hidden = hide_options("A dog barks. Option C is wrong, and B is too. (D) fits.", INFER)
    assert hidden == "A dog barks. An option is wrong, and one option is too. fits."


def test_raw_form_keeps_the_reply_and_unknown_forms_fail() -> None:
    assert shown_rationale(" The answer is A. ", INFER, "raw") == "The answer is A."
    with pytest.raises(ValueError, match="unknown rationale form 'plain'"):
        shown_rationale("x", INFER, "plain")


def test_leak_counts_hidden_and_raw() -> None:
    replies = [(reply, choices, "q") for reply, choices in [*REPLIES, ("I cannot tell.", INFER)]]
    hidden = leak_counts(replies)
    assert (hidden.replies, hidden.readable, hidden.same_option, hidden.verbatim) == (7, 6, 0, 0)
    assert hidden.pointers == 0 and len(hidden.kept_chars) == 6
    kept = hidden.kept_interval()
    assert kept.format() == f"{kept.value:.3f} [no interval: 6 replies]" and 0.0 < kept.value < 1.0
    raw = leak_counts(replies, form="raw")
    assert (raw.readable, raw.same_option) == (6, 6)
    assert raw.kept_interval().value == 1.0 and raw.pointers > 0


SPACE = ["New York", "Tokyo", "Paris", "Moon"]
EXECUTE = ["Execute E", "Execute D", "Execute F", "Execute A"]
ARITHMETIC = ["12 divided by 4 = 3", "12 times 4 = 48", "12 plus 4 = 16", "12 minus 4 = 8"]
ANIMALS = ["Dog", "Cat", "Fault", "Horse"]


@pytest.mark.parametrize(
    ("reply", "choices", "gone", "kept"),
    [
        (
            "The first three are cities; the fourth option is a celestial body.",
            SPACE,
            "fourth option",
            "are cities; one option is a celestial body",
        ),
        (
            "The first option is correct, the second choice is not.",
            SPACE,
            "first option",
            "One option is correct, one option is not",
        ),
        ("Option 2 fits; option three does not.", SPACE, "2", "One option fits; one option"),
        ("Dividing 12 by 4 gives you 3, so that is it.", ARITHMETIC, "Dividing", "gives you"),
        ("A faulty formula explains it.", ANIMALS, "faulty", "formula explains it"),
        ("Cats purr when they are content.", ANIMALS, "Cats", "purr when they are content"),
    ],
)
def test_ordinals_fragments_and_inflections_are_hidden(
    reply: str, choices: list[str], gone: str, kept: str
) -> None:
    hidden = hide_options(reply, choices, sentences=False)
    assert gone not in hidden and kept in hidden
    assert points_at_options(reply, choices) and not points_at_options(hidden, choices)


@pytest.mark.parametrize("seed", ["0", "2"])
def test_options_of_one_length_are_hidden_alike_on_every_run(seed: str) -> None:
    # string hashing differs by seed; a set of the options once ordered them by it
    code = (
        "from cog_tasks.coglm.rationale import hide_options\n"
        "print(hide_options('Mia might have lost the key, since the door was open.', "
        "['Mia might have lost the key.', 'Ned might have lost the key.', "
        "'Mia is glad the door was open.', 'Ned is glad the door was open.'], sentences=False))"
    )
    env = {**os.environ, "PYTHONHASHSEED": seed}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert done.stdout == "[…], since the […].\n"  # two options' words: it narrows


def test_letters_that_are_entities_in_the_question_stay() -> None:
    question = "If A leads to B, B leads to C, E leads to D, and now you want C to happen?"
    assert question_letters(question) == {"A", "B", "C", "D", "E"}
    assert question_letters("A group of people met.") == frozenset()
    reply = "If A leads to B and B leads to C, doing A starts it. Option D is wrong."
    hidden = hide_options(reply, EXECUTE, question)
    assert hidden == "If A leads to B and B leads to C, doing A starts it. An option is wrong."
    # without the question, B and C would read as options
    assert "one option leads to one option" in hide_options(reply, EXECUTE)


# Invented plan-style options: four orders of the same four steps.
DAY = [
    "going fishing, visiting the museum, baking bread, writing letters",
    "visiting the museum, going fishing, writing letters, baking bread",
    "going fishing, baking bread, visiting the museum, writing letters",
    "baking bread, going fishing, visiting the museum, writing letters",
]
DAY_QUESTION = (
    "Plan the day by the rules: baking bread before writing letters, going fishing before "
    "writing letters, visiting the museum before writing letters. End with: writing letters"
)


@pytest.mark.parametrize(
    ("reply", "hidden"),
    [
        (
            "A plan that keeps the rules:\n1. Going fishing comes early, as the rules want.\n"
            "2. Visiting the museum (rule: visiting the museum before writing letters)\n"
            "3. Baking bread is next.\n4. Writing letters ends the day.",
            "A plan that keeps the rules:\n1. […] comes early, as the rules want.\n"
            "2. […] (rule: […] before writing letters)\n"
            "3. […] is next.\n4. […] ends the day.",
        ),
        (
            "Go fishing at dawn, then visit the museum, then bake some bread.",
            "Go […] at dawn, then […], then […].",
        ),
    ],
)
def test_an_order_of_steps_that_singles_out_an_option_is_hidden(reply: str, hidden: str) -> None:
    assert points_at_options(reply, DAY, DAY_QUESTION)
    assert hide_orders(reply, DAY, DAY_QUESTION) == hidden
    assert not points_at_options(hidden, DAY, DAY_QUESTION)
    assert not points_at_options(hide_options(reply, DAY, DAY_QUESTION), DAY, DAY_QUESTION)


@pytest.mark.parametrize(
    "reply",
    [
        # fishing, bread, letters: the order of the first and the third option
        "Going fishing can open the day. Baking bread needs an afternoon. "
        "Writing letters is best left for the evening.",
        # two steps only
        "Going fishing must come before baking bread.",
        # fits no option's order
        "Writing letters, then going fishing, then baking bread.",
        # the question's own order (its rules restated)
        "Baking bread is before writing letters. Going fishing is before writing letters. "
        "Visiting the museum is before writing letters.",
    ],
)
def test_an_order_that_fits_several_options_or_the_question_stays(reply: str) -> None:
    assert hide_orders(reply, DAY, DAY_QUESTION) == reply
    assert not points_at_options(reply, DAY, DAY_QUESTION)


def test_an_order_is_measured_against_the_question_it_answers() -> None:
    restated = "Baking bread is first. Going fishing is then. Visiting the museum is third."
    # the rules name bread, fishing, museum in this order (the fourth option's); "" does not
    assert hide_orders(restated, DAY, DAY_QUESTION) == restated
    assert hide_orders(restated, DAY) == "[…] is first. […] is then. […] is third."
    assert leak_counts([(restated + " The answer is A.", DAY, "")]).pointers == 0
    raw = leak_counts([(restated + " The answer is A.", DAY, "")], form="raw")
    assert raw.pointers == 1


@pytest.mark.parametrize(
    ("reply", "choices"),
    [*(pair for pair in REPLIES if pair[1] is not PLAN), ("Go fishing, bake, write.", PLAN)],
)
def test_orders_leave_other_rationales_alone(reply: str, choices: list[str]) -> None:
    # options that are no orders of shared steps have none to hide; one step is no order
    assert hide_orders(reply, choices) == reply


def test_coc_leak_command_reads_the_authors_layout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [
        {"question": "q", "candidates": choices, "answer": "A", "predict": reply}
        for reply, choices in REPLIES[:3]
    ]
    path = tmp_path / "result.json"
    path.write_text(json.dumps({"third_stage": {"inductive": rows}}), encoding="utf-8")
    assert main(["coglm", "coc-leak", str(path), "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)
    assert (row["replies"], row["readable"], row["same_option"], row["form"]) == (3, 3, 0, "hidden")
    assert row["pointers"] == 0 and row["pointer_share"]["reason"] == "3 replies"
    assert 0.0 < row["kept_share"]["value"] < 1.0 and "kept_chars" not in row
    path.write_text(json.dumps({"third_stage": {"nope": rows}}), encoding="utf-8")
    assert main(["coglm", "coc-leak", str(path)]) == 2
    assert "third_stage/nope is not a CogLM ability file" in capsys.readouterr().err


def _names_and_copies_option_b(prompt: str, _config: object) -> str:
    """A reply that names option B and copies its text; unreadable on two-option items."""
    options = dict(re.findall(r"^([A-Z])\. (.*)$", prompt.split("Options:\n", 1)[1], re.M))
    if len(options) == 2:
        return "I cannot tell which one it is."
    return (
        f"Weighing the options, {options['B']} fits what the question describes.\n\n"
        f"The answer is option B: {options['B']}."
    )


@pytest.mark.slow
def test_coc_leak_command_reads_coglm_chat_logs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # const has two options (unreadable replies), induc and plan four and three.
    task = coglm_chat(abilities="const,induc,plan", per_ability=2)
    [log] = inspect_eval(
        task,
        model=scripted_model(_names_and_copies_option_b),
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success", log.error
    assert main(["coglm", "coc-leak", log.location, "--json"]) == 0
    (hidden,) = json.loads(capsys.readouterr().out)
    assert (hidden["source"], hidden["replies"], hidden["readable"]) == ("inspect", 6, 4)
    assert (hidden["same_option"], hidden["verbatim"]) == (0, 0)
    assert hidden["same_option_share"]["method"] == "none"  # 4 readable replies: too few
    assert hidden["same_option_share"]["n"] == 4
    assert hidden["same_option_share"]["ci_high"] is None
    assert main(["coglm", "coc-leak", log.location, "--form", "raw"]) == 0
    line = capsys.readouterr().out
    assert "(coglm_chat log): 4 of 6 replies readable" in line
    assert "reads as the same option: 4 (100.0 %, 95 % CI [no interval: 4 replies])" in line
    assert "holds its text: 4 (100.0 %" in line


def test_coc_leak_refuses_a_file_that_is_neither(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, text in (("other.json", '{"results": 1}'), ("broken.eval", "not a zip")):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        assert main(["coglm", "coc-leak", str(path)]) == 2
        (line,) = capsys.readouterr().err.strip().splitlines()[-1:]
        assert f"{path}: neither a raw-output file in the CogLM authors' layout" in line


@pytest.mark.parametrize(
    ("reply", "choices", "question", "hidden"),
    [
        (  # a numbered list's lines, where options order the same steps
            "1. Go fishing at dawn.\n2. Visit the museum.\n3. Bake bread.\n4. Write letters.",
            DAY,
            "",
            "1. […]\n2. […]\n3. […]\n4. […]",
        ),
        (  # a form of a word only one option holds
            "Apples have them; grapes of this kind are seedless.",
            ["Colour", "Size", "Presence of seeds"],
            "Sort: apple, grape.",
            "Apples have them; grapes of this kind are […].",
        ),
        (  # a verb and plural pronouns agreeing with a hidden name, options of both numbers
            "Ferns are easy plants, and they like a dark flat. They suit you.",
            ["A cactus on the sill", "The ferns in the shade"],
            "",
            "[…] easy plants, and […] like a dark flat. […] suit you.",
        ),
        (  # a number only one option holds, in words there and digits here
            "Each jug holds 1.5 litres, so the pot holds 1.5 + 1.5 = 3 litres.",
            ["Three litres", "Four litres", "Less than three litres"],
            "Pour two jugs of 1.5 litres into a pot. How much is in the pot?",
            "Each jug holds 1.5 litres, so the pot holds 1.5 + 1.5 = […].",
        ),
        (
            "So it still weighs one kilogram.",
            ["Less than one kilogram", "Equal to one kilogram", "More than one kilogram"],
            "A 500 g cake is cut in two.",
            "So it still weighs […] kilogram.",
        ),
    ],
)
def test_step_verbs_forms_agreement_and_numbers_of_one_option_are_hidden(
    reply: str, choices: list[str], question: str, hidden: str
) -> None:
    assert hide_options(reply, choices, question, sentences=False) == hidden
    assert hide_options(reply, choices, question) == ""  # each sentence held hidden text


def test_what_does_not_point_stays() -> None:
    masked = hide_options("The cactus is easy.", ["A cactus", "A fern"], sentences=False)
    assert masked == "The […] is easy."
    weight = ["Less than one kilogram", "Equal to one kilogram", "More than one kilogram"]
    kept = "It still weighs 1 kilogram."
    assert hide_options(kept, weight, "A 1 kg cake is cut in two.") == kept


@pytest.mark.parametrize(
    ("reply", "choices", "question", "hidden"),
    [
        (  # what an answer statement leaves of its sentence ("[…] has the most juice")
            "Juice splits evenly. Therefore, the answer is \\boxed{B} The tall cup has the most.",
            ["The wide cup", "The tall cup"],
            "",
            "Juice splits evenly. […]",
        ),
        (  # a letter labelling hidden text, though the question uses letters as entities
            "The correct inference is B. All part-time staff study.\nA and C study.",
            ["All students work.", "All part-time staff study."],
            "Staff A, B and C: A and C study. Which inference is right?",
            "A and C study.",
        ),
        (  # a list label is no sentence end: its line goes whole
            "1. The tall cup\n2. The wide cup\nBoth hold juice.",
            ["The wide cup", "The tall cup"],
            "",
            "Both hold juice.",
        ),
        (  # a run of an option's words in other forms ("forgot" for "forgotten")
            "Jack came late. Maybe Jack forgot the time.",
            ["Jack might have forgotten the time.", "John might have forgotten the time."],
            "Jack was late for John.",
            "Jack came late. […]",
        ),
        (  # an "A" opening a sentence of the question is an article, not an entity
            "It is A. neutral. Both talk of pollution.",
            ["entailment", "neutral", "contradiction"],
            "sentence1: Air studies.\tsentence2: A series of studies.",
            "[…] Both talk of pollution.",
        ),
    ],
)
def test_hidden_form_drops_every_sentence_that_held_hidden_text(
    reply: str, choices: list[str], question: str, hidden: str
) -> None:
    assert hide_options(reply, choices, question) == hidden
