import pytest

from cog_tasks.cogbench.parsing import (
    KnowledgeItem,
    coerce_rating,
    parse_judge_score,
    parse_profile_update,
    parse_rating_answer,
    profile_from_text,
    profile_to_text,
    read_knowledge,
)


@pytest.mark.parametrize(
    ("text", "rating"),
    [
        ("Thoughts: I like it.\nRating: 4", 4),
        ("**Thoughts:** risky.\n**Rating:** 2", 2),
        ("Rating: 5/5\nThoughts: yes", 5),
        ("Rating: (3)", 3),
        ("Rating: Strongly disagree", 1),
        ("I would give it a 4 out of 5.", None),
        ("On a scale of 1 to 5 I pick 2.", None),
        ("4", 4),
        ("(4).", 4),
        ("Softenful no -1", None),
        ("Thoughts: 1 | Rating: 3", None),
        ("We could drive to the hills for 2 days.", None),
        ("Rating: 2\nRating: 4", None),
        ("Rating: 2\n**Rating:** 2", 2),
        ("Rating: <one number>", None),
        ("I am 34 and have 2 kids, so 4.", None),
        ("Rating: 3 to 4", None),
        ("Rating: **two**", 2),
        ("Rating: 1.1\nThoughts: 2.1", None),
        ("Rating: 1. Strongly disagree", 1),
        ("Rating: someone like me", None),
        ("", None),
        ("Rating: 4 (agree)", 4),
        ("Rating: 4 (disagree)", None),
        ("Rating: 4 out of 5.", 4),
        ("Rating: 4\nRating:", None),
    ],
)
def test_rating_parsing(text: str, rating: int | None) -> None:
    assert parse_rating_answer(text).rating == rating


QWEN_CLOSING_REPLIES = [
    # Real endings of Qwen2.5-Coder-1.5B-Instruct's CoT answers (greedy, CogBench
    # sample set, 2026-11-27): the label closes the last paragraph.
    (
        "Thoughts: I agree with the statement that social media sentiment is now a useful "
        "signal for market trends. Additionally, it's important to consider other "
        "indicators, such as financial news and economic data, when making investment "
        "decisions. Rating: 4",
        4,
    ),
    ("Thoughts: use market analysis as a tool. Rating: **4**", 4),
    # Still not read: a rating in prose, a label after a non-sentence end, two labels.
    ("Thoughts: Therefore, I would rate this statement as 3 = neutral.", None),
    ("Thoughts: it depends, Rating: 4", None),
    ("Thoughts: once. Rating: 4. On reflection. Rating: 2", None),
    ("Thoughts: unsure. Rating: 3 or 4", None),
]


@pytest.mark.parametrize(("text", "rating"), QWEN_CLOSING_REPLIES)
def test_a_rating_label_closing_the_reply_is_read(text: str, rating: int | None) -> None:
    assert parse_rating_answer(text).rating == rating


ISSUE_37_REPLIES = [
    "Rating: one of the hardest calls; I'd say 4",
    "Rating: five-point scale, I pick 2",
    "Rating: 3 or 4",
    "Rating: 3/4",
    "Rating: three to four",
    "Rating: 3-4",
    "Rating: 5/10",
    "Rating:\n1. The statement is what people like me believe.",
]
"""Every reply issue 37 lists: several values, ranges, another scale, prose, the next line."""


@pytest.mark.parametrize("text", ISSUE_37_REPLIES)
def test_issue_37_ratings_are_invalid(text: str) -> None:
    assert parse_rating_answer(f"Thoughts: I weigh both sides.\n{text}").rating is None
    assert parse_judge_score(text.replace("Rating", "Score")) is None


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Rating：４", 4),
        ("Rating: 四", 4),
        ("Rating：5/5", 5),
        ("Rating: 四五", None),
        ("评分：4", None),
    ],
)
def test_full_width_forms_and_chinese_numerals(text: str, value: int | None) -> None:
    assert parse_rating_answer(text).rating == value


def test_reason_is_read_between_labels() -> None:
    answer = parse_rating_answer("Thoughts: Safety first,\nalways.\nRating: 2\n")
    assert answer.reason == "Safety first, always."
    assert parse_rating_answer("Too risky for me.\nRating: 1").reason == "Too risky for me."


def test_judge_score() -> None:
    assert parse_judge_score("Score: 4") == 4
    assert parse_judge_score("**Score:** 3\nReason: clear.") == 3
    assert parse_judge_score("5") == 5
    assert parse_judge_score("The reasoning deserves a 2.") is None
    assert parse_judge_score("Note: 4 and higher are for clear reasoning") is None
    assert parse_judge_score("Sentence: 3.") is None
    assert parse_judge_score("I cannot grade this") is None
    assert parse_judge_score("Score:\n1. clarity: good") is None
    assert parse_judge_score("Score: 3 or 4\nReason: between.") is None


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (4, 4),
        ("5", 5),
        (-1, None),
        ("-1", None),
        (None, None),
        (7, None),
        ("Rating: 2", 2),
        (2.0, 2),
    ],
)
def test_coerce_rating(value: object, expected: int | None) -> None:
    assert coerce_rating(value) == expected


def test_knowledge_lines_keep_only_scored_statements() -> None:
    lines = (
        "Facts:\n"
        "1. 4 | Rescue teams say most accidents come from poor planning.\n"
        "- Parks cap daily visitors on busy trails (score: 2)\n"
        "- Hikers report less stress than indoor people\n"
        "- 4 | Rescue teams say most accidents come from poor planning.\n"
    )
    assert read_knowledge(lines, "lines") == [
        KnowledgeItem("Rescue teams say most accidents come from poor planning.", 4),
        KnowledgeItem("Parks cap daily visitors on busy trails", 2),
    ]
    assert read_knowledge("Text you just read:\nHikers walk in the hills.", "lines") is None


def test_knowledge_json_is_the_asked_for_list_or_nothing() -> None:
    item = '{"thoughts": "x", "knowledge": "Index funds beat most managers.", "score": "5"}'
    expected = [KnowledgeItem("Index funds beat most managers.", 5)]
    assert read_knowledge(f"[{item}]", "json") == expected
    assert read_knowledge(f"```json\n[{item}]\n```", "json") == expected
    cut = f'[{item}, {{"thoughts": "y", "knowledge": "Fees eat'
    for reply in (cut, f"Here: [{item}]", "[]", '[{"thoughts": "x"}]', "Index funds win.", ""):
        assert read_knowledge(reply, "json") is None, reply
    with pytest.raises(ValueError, match="unknown knowledge form"):
        read_knowledge(item, "yaml")


PROFILE = {"Name": "Mara", "Hobbies": "Running, knitting", "Values": "Safety", "Flaws": "Stubborn"}


def test_profile_update_keeps_structure() -> None:
    reply = (
        "Assessment: the crowds worry me.\n"
        "Changes: add hiking; values.\n"
        "Updated Profile:\n"
        "- **Name**: Mara\n"
        "Hobbies: Running, knitting, hiking, running\n"
        "values: Safety, nature protection\n"
        "Favourite Colour: green\n"
        "Flaws:\n"
    )
    update = parse_profile_update(reply, PROFILE)
    assert list(update.profile) == list(PROFILE)
    assert update.profile["Hobbies"] == "Running, knitting, hiking"
    assert update.profile["Values"] == "Safety, nature protection"
    assert update.profile["Flaws"] == "Stubborn"  # empty value keeps the old one
    assert update.changed == ("Hobbies", "Values")
    assert update.recognised == 4


def test_profile_update_without_label_or_content() -> None:
    assert parse_profile_update("Hobbies: Chess", PROFILE).profile["Hobbies"] == "Chess"
    unchanged = parse_profile_update("I have nothing to change.", PROFILE)
    assert unchanged.profile == PROFILE and unchanged.changed == () and unchanged.recognised == 0


def test_profile_text_round_trip() -> None:
    assert profile_from_text(profile_to_text(PROFILE)) == PROFILE
