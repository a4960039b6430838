"""Reading the authors' belief format however it is wrapped, and grades as judges write them."""

from __future__ import annotations

import pytest
from inspect_ai.model import ChatMessage, GenerateConfig, get_model

from cog_tasks.common.scripted import ScriptedReplies
from cog_tasks.egosocial.beliefs import (
    GRADE_REMINDER,
    load_labelled_beliefs,
    parse_grade,
    read_beliefs,
    split_beliefs,
)
from cog_tasks.egosocial.blackjack import BlackjackHand, belief_facts
from cog_tasks.egosocial.inspect.beliefs import judge_belief
from cog_tasks.egosocial.inspect.judge_check import judge_agreement

#: The authors' user message for one hand (their instruction and output format).
AUTHORS_PROMPT = (
    "You are a player in blackjack. Please beat the dealer and win the game. The dealer "
    "current card is {Heart 10}. The dealer has another hidden card. You don't know what it "
    "is. Your current cards are {Heart 9, Diamond A}. Please first analyze your own cards and "
    "your strategies in Self-belief and then analyze the dealer cards in External-belief. "
    "### Output Format: Self-Belief is {belief about yourself}. External-Belief is "
    "{belief about the dealer}. Please output in the given format."
)
SELF, EXTERNAL = "My total is 20, so I stand", "The dealer shows a 10; strong"


def test_the_issues_replies_give_the_braced_beliefs() -> None:
    # The two replies of issue 39 that were misread (the instruction restated; bold labels).
    restated = (
        "I will first analyze my own cards in Self-belief and then the dealer in "
        f"External-belief.\nSelf-Belief is {{{SELF}}}. External-Belief is {{{EXTERNAL}}}."
    )
    assert split_beliefs(restated, AUTHORS_PROMPT) == {
        "self_belief": SELF,
        "external_belief": EXTERNAL,
    }
    bold = "**Self-Belief** is {20, stand}. **External-Belief** is {10, strong}."
    assert split_beliefs(bold) == {"self_belief": "20, stand", "external_belief": "10, strong"}


#: Hand-written replies (not model output) in other wrappings of the same two beliefs.
HAND_WRITTEN = [
    f"Self-Belief is {{{SELF}}}. External-Belief is {{{EXTERNAL}}}.",
    f"self-belief is {{{SELF}}}. external-belief is {{{EXTERNAL}}}.",
    f"SELF-BELIEF IS {{{SELF}}}. EXTERNAL-BELIEF IS {{{EXTERNAL}}}.",
    f"Self-Belief: {{{SELF}}}\nExternal-Belief: {{{EXTERNAL}}}",
    f"Self-Belief: {SELF}.\nExternal-Belief: {EXTERNAL}.",
    f"**Self-Belief:** {SELF}.\n**External-Belief:** {EXTERNAL}.",
    f"**Self-Belief**: {{{SELF}}}\n\n**External-Belief**: {{{EXTERNAL}}}",
    f"*Self-Belief* is {{{SELF}}}. *External-Belief* is {{{EXTERNAL}}}.",
    f"### Self-Belief\n{SELF}.\n\n### External-Belief\n{EXTERNAL}.\n",
    f"**Self-Belief**\n{SELF}.\n\n**External-Belief**\n{EXTERNAL}.",
    f"1. Self-Belief: {SELF}.\n2. External-Belief: {EXTERNAL}.",
    f"- **Self-Belief:** {SELF}.\n- **External-Belief:** {EXTERNAL}.",
    f"Self Belief is {{{SELF}}}. External Belief is {{{EXTERNAL}}}.",
    f"Self_belief = {SELF}\nExternal_belief = {EXTERNAL}",
    f"Self-Belief - {SELF}.\nExternal-Belief - {EXTERNAL}.",
    f"Self-Belief is: {{{SELF}}}. External-Belief is: {{{EXTERNAL}}}.",
    f'{{"Self-Belief": "{SELF}", "External-Belief": "{EXTERNAL}"}}',
    f'```json\n{{"self_belief": "{SELF}",\n "external_belief": "{EXTERNAL}"}}\n```',
    f"Let me think. My cards are a 9 and an ace.\n\nSelf-Belief is {{{SELF}}}. "
    f"External-Belief is {{{EXTERNAL}}}.\n\nSo I stand.",
    f"External-Belief is {{{EXTERNAL}}}. Self-Belief is {{{SELF}}}.",
    f"Self-Belief is {{{SELF}}}.\nExternal-Belief is {{{EXTERNAL}}}.\n"
    f"To sum up: Self-Belief is {{{SELF}}}.",
    # the authors' template echoed before the answer, then answered
    "Output Format: Self-Belief is {belief about yourself}. External-Belief is "
    f"{{belief about the dealer}}.\nSelf-Belief is {{{SELF}}}. External-Belief is {{{EXTERNAL}}}.",
    # the instruction restated in a sentence, then answered with bold labels
    "I analyze my own cards in Self-belief and then the dealer cards in External-belief.\n"
    f"**Self-Belief** is {{{SELF}}}. **External-Belief** is {{{EXTERNAL}}}.",
    f"Self-Belief is {{{SELF}}} External-Belief is {{{EXTERNAL}}}",
]


@pytest.mark.parametrize("reply", HAND_WRITTEN)
def test_hand_written_wrappings_give_the_same_beliefs(reply: str) -> None:
    assert len(HAND_WRITTEN) >= 20
    assert split_beliefs(reply, AUTHORS_PROMPT) == {
        "self_belief": SELF,
        "external_belief": EXTERNAL,
    }


def test_two_different_beliefs_of_one_kind_are_not_read() -> None:
    reply = f"Self-Belief is {{I hit}}. Self-Belief is {{I stand}}. External-Belief: {EXTERNAL}"
    readings = read_beliefs(reply, AUTHORS_PROMPT)
    assert readings["self_belief"].text is None
    assert readings["self_belief"].problem == "two different"
    assert readings["external_belief"].text == EXTERNAL
    # the same belief twice, in other case and spacing, is one belief
    twice = f"Self-Belief: {SELF}.\nExternal-Belief: {EXTERNAL}.\nSELF-BELIEF:  {SELF.lower()}"
    assert read_beliefs(twice)["self_belief"].text == SELF


def test_an_echo_or_a_label_in_a_sentence_is_no_belief() -> None:
    template = AUTHORS_PROMPT.split("### Output Format: ")[1]
    readings = read_beliefs(template, AUTHORS_PROMPT)
    assert {kind: r.problem for kind, r in readings.items()} == {
        "self_belief": "echo",
        "external_belief": "echo",
    }
    sentence = "I will analyze my cards in Self-belief and then the dealer in External-belief."
    assert {r.problem for r in read_beliefs(sentence, AUTHORS_PROMPT).values()} == {"not stated"}
    assert split_beliefs("I would hit.") == {"self_belief": None, "external_belief": None}
    # a label inside a braced belief belongs to that belief
    nested = f"Self-Belief is {{{SELF}; my external-belief: later}}. External-Belief is {{ten}}."
    assert split_beliefs(nested)["self_belief"] == f"{SELF}; my external-belief: later"


@pytest.mark.parametrize(
    ("reply", "grade"),
    [
        ("Compared with the facts.\nGRADE: C", True),
        ("**GRADE:** C", True),
        ("GRADE: **C**", True),
        ("**GRADE: I**", False),
        ("Grade: C", True),
        ("GRADE: c", True),
        ("grade: i.", False),
        ("GRADE: Correct", True),
        ("GRADE: *Incorrect*", False),
        ("Final grade: INCORRECT", False),
        ("The belief is right. GRADE: C", True),
        ("`GRADE: C`", True),
        ("### GRADE: I", False),
        ("GRADE: C\n\nGRADE: C", True),
        ("GRADE: Correct\nGRADE: C", True),
        # two different grades, in either order: no grade
        ("GRADE: C\nGRADE: I", None),
        ("GRADE: I\nGRADE: C", None),
        ("GRADE: C, but on reflection GRADE: I", None),
        # decided: a conditional second grade makes the reply unparsed (never I)
        ("GRADE: C (if the total were wrong it would be GRADE: I.)", None),
        # the instruction's echo is no grade, alone or before the judge's grade
        ("I end with 'GRADE: C' if the belief is correct or 'GRADE: I' if it is not.", None),
        ("I write 'GRADE: C' if it is correct or 'GRADE: I' if it is not.\nGRADE: I", False),
        ("GRADE: I think the belief is fine", None),
        ("correct", None),
        ("The grade is C.", None),
    ],
)
def test_parse_grade_reads_grades_as_judges_write_them(reply: str, grade: bool | None) -> None:
    assert parse_grade(reply) is grade


class RecordingJudge(ScriptedReplies):
    """Writes no grade until its prompt carries the format reminder; keeps the prompts."""

    model_name = "mockllm/judge"

    def __init__(self) -> None:
        self.prompts: list[str] = []

    def reply_to(self, messages: list[ChatMessage], config: GenerateConfig) -> str:
        self.prompts.append(messages[-1].text)
        return "GRADE: C" if GRADE_REMINDER in messages[-1].text else "It looks fine."


def test_the_retry_adds_a_one_line_format_reminder(run) -> None:
    recorder = RecordingJudge()
    judge = get_model("mockllm/judge", custom_outputs=recorder)
    facts = belief_facts(BlackjackHand(player=("HT", "S6"), dealer_up="D7"))
    grade, replies = run(judge_belief(judge, "self_belief", "situation", facts, "I have 16"))
    assert grade is True and replies == ["It looks fine.", "GRADE: C"]
    first, retry = recorder.prompts
    assert GRADE_REMINDER not in first and retry == f"{first}\n\n{GRADE_REMINDER}"
    assert "\n" not in GRADE_REMINDER


#: Grade formats of the scripted judge below: {g} letter, {word} Correct/Incorrect.
GRADE_FORMATS = (
    "Compared with the facts.\nGRADE: {g}",
    "**GRADE:** {g}",
    "GRADE: **{g}**",
    "Grade: {g}",
    "GRADE: {lower}",
    "GRADE: {word}",
    "**GRADE: {g}**",
    "The belief matches the rubric as far as it goes.\n\ngrade: {lowerword}.",
    "I write 'GRADE: C' if the belief is correct or 'GRADE: I' if it is not.\nGRADE: {g}",
    "GRADE: *{word}*",
    "GRADE: {g}\n\nGRADE: {g}",
    "### GRADE: {g}",
)


class FormatJudge(ScriptedReplies):
    """Gives each labelled statement its hand label, in every grade format in turn.

    The correct and the incorrect statements each go through
    :data:`GRADE_FORMATS` in order, so both grades appear in every format;
    every sixth statement first gets a reply without a grade, and a grade only
    when the prompt carries the retry's format reminder.
    """

    model_name = "mockllm/format-judge"

    def __init__(self) -> None:
        self.plan: dict[str, tuple[bool, str, bool]] = {}
        used = {True: 0, False: 0}
        for index, statement in enumerate(load_labelled_beliefs()):
            form = GRADE_FORMATS[used[statement.correct] % len(GRADE_FORMATS)]
            used[statement.correct] += 1
            self.plan[statement.belief] = (statement.correct, form, index % 6 == 5)
        self.formats: set[tuple[str, bool]] = set()

    def reply_to(self, messages: list[ChatMessage], config: GenerateConfig) -> str:
        prompt = messages[-1].text
        belief = prompt.split("[BEGIN BELIEF]\n", 1)[1].split("\n[END BELIEF]", 1)[0]
        correct, form, late = self.plan[belief]
        if late and GRADE_REMINDER not in prompt:
            return "The belief is hard to grade."
        self.formats.add((form, correct))
        letter, word = ("C", "Correct") if correct else ("I", "Incorrect")
        return form.format(g=letter, lower=letter.lower(), word=word, lowerword=word.lower())


def test_judge_agreement_with_a_judge_writing_every_grade_format() -> None:
    judge = FormatJudge()
    result = judge_agreement("mockllm/format-judge", {"custom_outputs": judge})
    print("\n".join(result.lines()))
    assert judge.formats == {(form, grade) for form in GRADE_FORMATS for grade in (True, False)}
    assert result.agreement.n == 35 and result.unparsed == 0
    assert result.agreement.value == 1.0
