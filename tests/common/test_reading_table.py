"""One case table for the reading policy (:mod:`cog_tasks.common.reading`): every reader of ours.

Each row: the class of reply, the reader, the reply, and what the reader must
read: a value, or :data:`NO` (no answer: ambiguous, or none in the asked form).
Adding a case is one line.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from cog_tasks.cogbench.parsing import parse_judge_score, parse_rating_answer
from cog_tasks.cogeval.parsing import parse_count, read_final_answer, read_route
from cog_tasks.coglm.extract import LETTERS, extract_choice
from cog_tasks.common import reading
from cog_tasks.egosocial.beliefs import parse_grade, read_beliefs
from cog_tasks.egosocial.holdem import parse_action, parse_beliefs
from cog_tasks.egosocial.number_guessing import parse_round_reply
from cog_tasks.egosocial.records import parse_choice_letter

NO = None
"""No answer is read (the reply is ambiguous, or has no answer in the asked form)."""
OPTIONS = ("Carrot", "Coat", "Hat", "Box")


def _cogeval_route(reply: str) -> str | None:
    found = read_final_answer(reply)
    route = read_route(found.text) if found.problem is None and found.text else None
    return ", ".join(route) if route else NO


def _cogeval_count(reply: str) -> int | None:
    found = read_final_answer(reply)
    return parse_count(found.text) if found.problem is None and found.text else NO


def _letter(index: int | None) -> str | None:
    return None if index is None else LETTERS[index]


def _grade(reply: str) -> str | None:
    grade = parse_grade(reply)
    return None if grade is None else "C" if grade else "I"


def _guess(reply: str) -> tuple[Any, Any] | None:
    parsed = parse_round_reply(reply)
    return (
        None
        if parsed.prediction is None and parsed.choice is None
        else (parsed.prediction, parsed.choice)
    )


READERS: dict[str, Callable[[str], Any]] = {
    "coglm": lambda reply: _letter(extract_choice(reply, OPTIONS)),
    "cogeval": _cogeval_route,
    "cogeval-count": _cogeval_count,
    "rating": lambda reply: parse_rating_answer(reply).rating,
    "judge": parse_judge_score,
    "static": lambda reply: parse_choice_letter(reply, OPTIONS),
    "belief": lambda reply: read_beliefs(reply)["self_belief"].text,
    "grade": _grade,
    "action": lambda reply: parse_action(reply, ("call", "raise", "fold")),
    "holding": lambda reply: _letter(parse_beliefs(reply).holding),
    "guess": _guess,
}

CASES: list[tuple[str, str, str, Any]] = [
    # class, reader, reply, expected
    # --- one answer in the asked form
    ("one", "coglm", "The answer is B.", "B"),
    ("one", "cogeval", "Answer: 1, 3, 5", "1, 3, 5"),
    ("one", "cogeval-count", "Answer: 3", 3),
    ("one", "rating", "Thoughts: fine.\nRating: 4", 4),
    ("one", "judge", "Score: 2", 2),
    ("one", "static", "ANSWER: B", "B"),
    ("one", "belief", "Self-Belief is {I have 20, I stand}", "I have 20, I stand"),
    ("one", "grade", "GRADE: C", "C"),
    ("one", "action", "I will call.", "call"),
    ("one", "holding", "Cards: B; Raise: yes", "B"),
    ("one", "guess", "Prediction: 50; Choice: 40", (50, 40)),
    # --- the same answer repeated is one
    ("repeated", "coglm", "The answer is option B.\nSo the answer is option B.", "B"),
    ("repeated", "cogeval", "Answer: 2\nSo, once more:\nAnswer: 2", "2"),
    ("repeated", "rating", "Rating: 4\nRating: 4", 4),
    ("repeated", "static", "ANSWER: A\nThe answer is A.", "A"),
    ("repeated", "grade", "GRADE: C\nGRADE: C", "C"),
    ("repeated", "action", "Action: call. I will call.", "call"),
    ("repeated", "guess", "Prediction: 50; Choice: 40\nChoice: 40", (50, 40)),
    # --- self-corrections and retractions
    ("self-correction", "coglm", "The answer is A. Or maybe B.", NO),
    ("self-correction", "coglm", "The answer is option A.\nThe answer is option B.", NO),
    ("self-correction", "coglm", "ANSWER: A. On reflection the answer is B.", NO),
    ("self-correction", "coglm", "A. No wait, B.", NO),
    ("self-correction", "cogeval", "Answer: 2\nAlternatively:\nAnswer: 1", NO),
    ("self-correction", "cogeval", "Answer: 2\nAnswer: 1", NO),
    ("self-correction", "rating", "Rating: 4\nUpdated rating: 2", NO),
    ("self-correction", "rating", "Rating: 4\nActually, on reflection, Rating: 2", NO),
    ("self-correction", "rating", "Rating: 4\nRating (revised): 2", NO),
    ("self-correction", "rating", "Rating: 4\nCorrection: I meant 2", NO),
    ("self-correction", "judge", "Score: 4\nScore (revised): 2", NO),
    ("self-correction", "static", "ANSWER: A. On reflection the answer is B.", NO),
    ("self-correction", "static", "The answer is A, but the final answer is B.", NO),
    ("self-correction", "static", "A. No wait, B.", NO),
    ("self-correction", "belief", "Self-Belief is {I stand}\nSelf-Belief is {I hit}", NO),
    ("self-correction", "grade", "GRADE: C (if the total were wrong it would be GRADE: I.)", NO),
    ("self-correction", "action", "I call. Actually, I raise.", NO),
    ("self-correction", "action", "Action: call\nAction: raise", NO),
    ("self-correction", "guess", "Prediction: 50, Choice: 40. Actually, Choice: 30", (50, None)),
    ("self-correction", "guess", "Prediction: 50 -- no, 60; Choice: 40", (None, 40)),
    ("self-correction", "rating", "Rating: 3 -- no, 4", NO),
    ("self-correction", "static", "A. Wait, B.", NO),
    ("retraction", "coglm", "A) is wrong; B) is right.", NO),
    ("retraction", "cogeval", "Answer: Room 2 is wrong; room 1", NO),
    ("retraction", "static", "A) is wrong; B) is right.", NO),
    # --- "or", "and", "but ... also"
    ("or", "coglm", "The answer is A (or possibly B).", NO),
    ("or", "coglm", r"The answer is \boxed{A} or \boxed{B}", NO),
    ("or", "cogeval", "Answer: 2 or 1", NO),
    ("or", "rating", "Rating: 3 or 4", NO),
    ("or", "static", "Answer: A) Carrot or B) Coat", NO),
    ("or", "guess", "Prediction: 50; Choice: 40 (or maybe 41)", (50, None)),
    ("or", "holding", "Cards: A or B; Raise: yes", NO),
    ("and", "cogeval", "Answer: 2 and 1", NO),
    ("and", "cogeval", "Answer: 1, 2, 5 and 1, 3, 5", NO),
    ("and", "cogeval", "Answer: 1, 3 and 5", "1, 3, 5"),
    ("and", "static", "Answer: A and C", NO),
    ("but-also", "cogeval", "Answer: 2, but 1 also works", NO),
    ("but-also", "action", "I call, but fold also works.", NO),
    # --- a letter and the words it carries must name one option
    ("letter and text", "coglm", "The answer is (C) Coat.", NO),
    ("letter and text", "coglm", r"The answer is \boxed{C} I would wear the coat.", NO),
    ("letter and text", "coglm", "Therefore, the answer is:\nC. Coat", NO),
    # --- other options discussed after the answer are no answers; listed or approved, they are
    ("others discussed", "coglm", "Answer: (A) Carrot. (B) Coat is clothing, (C) Hat is worn", "A"),
    ("others discussed", "coglm", "The answer is W + 2. The correct option is A.Carrot", "A"),
    ("others listed", "coglm", "The answer is (A) Carrot. (B) Coat.", NO),
    ("others approved", "coglm", "The answer is (A) Carrot. (B) Coat is also right.", NO),
    # --- prose before the answer is not read, even where it names another option
    ("prose before", "coglm", r"I would eat the carrot. The answer is \boxed{C}", "C"),
    # --- markdown and label spellings, the same everywhere
    ("markdown", "coglm", "**The answer is B**", "B"),
    ("markdown", "rating", "**Rating:** 4", 4),
    ("markdown", "judge", "**Score:** 3", 3),
    ("markdown", "static", "**Answer:** **b**", "B"),
    ("markdown", "grade", "**GRADE:** c", "C"),
    ("markdown", "action", "**Action:** raise", "raise"),
    ("markdown", "guess", "**Prediction:** 50; **Choice:** 40", (50, 40)),
    ("markdown", "cogeval", "**Answer:** 1, 3, 5", "1, 3, 5"),
    ("label spelling", "grade", "Grade - C", "C"),
    ("label spelling", "grade", "Grade \u2014 C", "C"),
    ("label spelling", "grade", "GRADE C", "C"),
    ("label spelling", "grade", "Grade = C", "C"),
    ("label spelling", "rating", "Rating - 4", 4),
    ("label spelling", "rating", "RATING 4", 4),
    ("label spelling", "action", "action - fold", "fold"),
    ("label spelling", "holding", "Cards: B (one card 10+); Raise: yes", "B"),
    ("fullwidth", "cogeval", "Answer: \uff11, \uff13, \uff15", "1, 3, 5"),
    ("fullwidth", "rating", "Rating\uff1a\uff14", 4),
    ("fullwidth", "coglm", "The answer is \uff22.", "B"),
    ("fullwidth", "guess", "Prediction: \uff15\uff10; Choice: \uff14\uff10", (50, 40)),
    ("arrows", "cogeval", "Answer: 1 \u21d2 3 \u21d2 5", "1, 3, 5"),
    ("arrows", "cogeval", "Answer: 1 \u2794 3 \u2794 5", "1, 3, 5"),
    ("arrows", "cogeval", "Answer: 1 \u2192 3 \u2192 5", "1, 3, 5"),
    # --- superscript and circled digits are no ratings
    ("not digits", "rating", "Rating: \u2074", NO),
    ("not digits", "rating", "Rating: \u2463", NO),
    ("not digits", "judge", "Score: \u00b3", NO),
    ("not digits", "guess", "Prediction: \u2075\u2070; Choice: \u2074\u2070", NO),
    # --- the places read are fixed: never a guess from prose
    ("prose", "rating", "I would say 4 fits me.", NO),
    ("named count", "cogeval-count", "Answer: 15 rooms form 3 clusters", 3),
    ("or", "cogeval-count", "Answer: 15 rooms in 3 or 4 groups", NO),
    ("prose", "cogeval-count", "Answer: rooms 1 to 5 and 6 to 9", NO),
    # --- the format's example echoed is no answer
    ("echoed example", "cogeval", "Answer: A, B, C", NO),
    ("echoed example", "cogeval", "Answer: 1, 3, 5\nAnswer: A, B, C", "1, 3, 5"),
    ("echoed example", "cogeval-count", "Answer: N", NO),
    ("echoed example", "rating", "Rating: X", NO),
    ("echoed example", "guess", "Prediction: <number>; Choice: <number>", NO),
    ("prose", "static", "A good question; I think so.", NO),
    ("prose", "guess", "Round 2 of 5: 50 and 40 were played.", NO),
    ("prose", "guess", "Prediction: 50 (they will probably pick it); Choice: 40", (50, 40)),
    ("prose", "rating", "Rating: 4\nI will update my view as I learn more.", 4),
    ("prose", "grade", "GRADE: I think it is right", NO),
    ("prose", "action", "I call because I have no pair.", "call"),
    ("prose", "action", "I will not fold.", NO),
    ("another field's label", "action", "Cards: B; Raise: no", NO),
    ("opening line and answer", "static", "A) Carrot\n\nThe answer is indeed B.", NO),
    ("letter with another's text", "static", "A) Coat\n\nThe correct answer is A.", NO),
    ("letter with another's text", "coglm", "The best choice is:\nA. Coat\nIt fits best.", NO),
    ("letter with another's text", "coglm", "The best choice is:\nB. Coat\nIt fits best.", "B"),
    ("opening line and answer", "static", "A) Carrot\n\nThe answer is A.", "A"),
    ("opening line and answer", "coglm", "B. It looks the same.\nThe answer is \\boxed{D}", NO),
    ("opening line and answer", "coglm", "B: Carrot is food. So the answer is \\boxed{B}.", "B"),
    ("opening line and answer", "coglm",
     "B. Go hiking.\n\nThis is unsuitable.\nThe answer is A.", NO),
    ("opening line and answer", "coglm", "B. Coat\n\nOption D is possible, but less likely.", "B"),
    ("braces", "belief",
     "Self-Belief is {My cards are {Heart 9, Diamond A}, a soft 20, so I stand}",
     "My cards are {Heart 9, Diamond A}, a soft 20, so I stand"),
    ("asked form", "belief",
     "Self-Belief is my view of my cards, External-Belief is the dealer's.\n"
     "Self-Belief is {I have 20, I stand}\nExternal-Belief is {The dealer shows a 6}",
     "I have 20, I stand"),
]  # fmt: skip


@pytest.mark.parametrize(("kind", "reader", "reply", "expected"), CASES)
def test_reading_table(kind: str, reader: str, reply: str, expected: Any) -> None:
    assert READERS[reader](reply) == expected, f"{kind}: {reader} read {reply!r}"


def test_every_reader_is_in_the_table() -> None:
    assert {reader for _, reader, _, _ in CASES} == set(READERS)


@pytest.mark.parametrize(
    ("values", "outcome", "value"),
    [((4, 4), reading.ANSWER, 4), ((4, 2), reading.AMBIGUOUS, None), ((None,), reading.NONE, None)],
)
def test_one_answer(values: tuple[Any, ...], outcome: str, value: Any) -> None:
    assert reading.one_answer(values) == reading.Reading(value, outcome)  # type: ignore[arg-type]
