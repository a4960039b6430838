"""A table of realistic replies, written for these tests, with the score and label each must get.

The replies imitate how the paper's models answer (GPT-4's tidy reasoning,
GPT-3.5's restated question, Claude's hedged prose, LLaMA's and Alpaca's
loose formats). Each row: style, graph, domain, condition, reply, expected
score, expected label (``None`` when correct).
"""

from __future__ import annotations

import pytest

from cog_tasks.cogeval.generator import make_item
from cog_tasks.cogeval.scoring import FAILURE_MODES, score_response

# n7line ordRooms valuePath: the lobby's best first room is 2.
# n15star ordRooms valuePath: 1, 11, {2, 5, 14}, 8.  2stepPath: 1, 11, 2.
# n15star ordRooms 3stepPath: 1, {7, 10, 13}, 4, 15.
# n15star unordSpatial valuePath: Osaka, Durban, {Tbilisi, Perth, Bergen}, Tallinn.
# n16cluster socialTies nClusters: 4.
# n7tree objectRelations valuePath: clay pot, iron safe, tin box.
# n7tree socialTies valuePath: Esther, Omar, Goran.
# n21star unordSpatial 1stepPath: Zagreb, Tallinn.
# n13line unordSpatial valuePath (first move from Dakar): Tunis.
# n7line socialTies valuePath (first move from Umar): Rosa.
REPLIES: list[tuple[str, str, str, str, str, int, str | None]] = [
    # --- GPT-4: structured reasoning, a clean final line
    ("gpt-4", "n7line", "ordRooms", "valuePath",
     "Room 1 leads to 10 dollars, room 2 leads to 50 dollars.\n\nAnswer: 2", 1, None),
    ("gpt-4", "n15star", "ordRooms", "valuePath",
     "Room 8 holds the reward. From room 1 the nearest way is via room 11, then room 2.\n"
     "Answer: 1, 11, 2, 8", 1, None),
    ("gpt-4", "n15star", "ordRooms", "3stepPath",
     "Breadth-first from room 1: layer 1 = {7, 10, 11, 13}; layer 2 = {4, 2, 5, 14}; "
     "layer 3 = {15, ...}.\nAnswer: 1, 10, 4, 15", 1, None),
    ("gpt-4", "n15star", "unordSpatial", "valuePath",
     "Tallinn pays 10 dollars. Osaka links to Durban, Durban to Bergen, Bergen to Tallinn.\n"
     "Answer: Osaka, Durban, Bergen, Tallinn", 1, None),
    ("gpt-4", "n16cluster", "socialTies", "nClusters",
     "Grouping people by mutual friendships gives four tight circles.\nAnswer: 4", 1, None),
    ("gpt-4", "n7tree", "objectRelations", "valuePath",
     "The tin box holds the most coins.\nAnswer: the clay pot, the iron safe, the tin box",
     1, None),
    ("gpt-4", "n15star", "ordRooms", "valuePath",
     "The most direct route is to go straight there.\nAnswer: 1, 8", 0, "invalid_edge"),
    ("gpt-4", "n15star", "ordRooms", "3stepPath",
     "Answer: 1, 11, 2, 8, 3, 6, 15", 0, "suboptimal"),
    # --- GPT-3.5: restates the question, "the answer is", domain words
    ("gpt-3.5", "n7line", "ordRooms", "valuePath",
     "To maximize the money we should choose room 2.\n\nThe answer is: Answer: 2", 1, None),
    ("gpt-3.5", "n15star", "ordRooms", "2stepPath",
     "The shortest path from room 1 to room 2 is room 1, room 11, room 2.\n"
     "Answer: room 1, room 11, room 2.", 1, None),
    ("gpt-3.5", "n7line", "ordRooms", "valuePath",
     "Answer: Room 2 off the lobby starts the route that ends with the most money.",
     1, None),
    ("gpt-3.5", "n21star", "unordSpatial", "1stepPath",
     "Answer: city Zagreb, city Tallinn", 1, None),
    ("gpt-3.5", "n13line", "unordSpatial", "valuePath",
     "Answer: Tunis city", 1, None),
    ("gpt-3.5", "n15star", "ordRooms", "2stepPath",
     "Answer: 11, 2", 1, None),
    ("gpt-3.5", "n15star", "ordRooms", "valuePath",
     "Answer: 1, 7, 4, 15, 12, 3, 8", 0, "suboptimal"),
    ("gpt-3.5", "n7line", "ordRooms", "valuePath",
     "Answer: 1", 0, "wrong_goal"),
    ("gpt-3.5", "n16cluster", "socialTies", "nClusters",
     "Answer: there are 3 clusters", 0, "wrong_count"),
    # --- Claude: prose, hedges, self-corrections
    ("claude", "n7line", "ordRooms", "valuePath",
     "Either door could work, but the 50 dollars are further along.\nAnswer: 2 or 1", 0,
     "unparseable"),
    ("claude", "n15star", "ordRooms", "valuePath",
     "Answer: 1, 11, 2, 8\nAnswer: 1, 11, 5, 8", 0, "unparseable"),
    ("claude", "n15star", "ordRooms", "valuePath",
     "Answer: 1, 7, 4\nOn reflection that misses the reward; the better plan goes through 11.\n"
     "Answer: 1, 11, 14, 8", 0, "unparseable"),  # a self-correction: two answers
    ("claude", "n15star", "unordSpatial", "valuePath",
     "I believe the best trip is Osaka to Durban, then Perth, then Tallinn.\n\n"
     "**Answer:** Osaka → Durban → Perth → Tallinn", 1, None),
    ("claude", "n16cluster", "socialTies", "nClusters",
     "It is hard to be certain.\nAnswer: probably 4", 0, "unparseable"),
    ("claude", "n7tree", "socialTies", "valuePath",
     "Esther introduces me to Omar, who introduces me to Goran.\nAnswer: Esther, Omar, Goran.",
     1, None),
    ("claude", "n7line", "ordRooms", "valuePath",
     "I would start with room 2, which leads on to the bigger chest.", 0, "no_answer"),
    ("claude", "n15star", "ordRooms", "2stepPath",
     "Answer: 1, 11, 2 (or equivalently 1, 11, 5, 2)", 0, "unparseable"),
    ("claude", "n7tree", "socialTies", "valuePath",
     "Answer: Esther, Omar, Goran\nAnswer: Esther, Hana, Emeka", 0, "unparseable"),
    # --- LLaMA: loose formats, loops, invented steps
    ("llama", "n15star", "ordRooms", "valuePath",
     "Answer: 1, 11, 1, 11, 2, 8", 0, "loop"),
    ("llama", "n15star", "ordRooms", "valuePath",
     "answer:\n1 -> 11 -> 5 -> 8", 1, None),
    ("llama", "n15star", "ordRooms", "3stepPath",
     "Answer: 1, 15", 0, "invalid_edge"),
    ("llama", "n7line", "ordRooms", "valuePath",
     "Answer: room 42", 0, "invalid_edge"),
    ("llama", "n15star", "ordRooms", "valuePath",
     "Answer: 1, 7, 4", 0, "wrong_goal"),
    ("llama", "n15star", "unordSpatial", "valuePath",
     "Answer: Osaka, Atlantis, Tallinn", 0, "invalid_edge"),
    ("llama", "n7line", "ordRooms", "valuePath",
     "Answer: I am not sure which room to choose.", 0, "unparseable"),
    ("llama", "n16cluster", "socialTies", "nClusters",
     "Answer: several", 0, "unparseable"),
    ("llama", "n7line", "ordRooms", "valuePath",
     "Answer: 2/1", 0, "unparseable"),
    # --- Alpaca: short, sometimes only the answer, sometimes none
    ("alpaca", "n7line", "ordRooms", "valuePath", "Answer: Room 2.", 1, None),
    ("alpaca", "n7line", "ordRooms", "valuePath", "Room 2", 0, "no_answer"),
    ("alpaca", "n15star", "ordRooms", "2stepPath", "Answer: 1,11,2", 1, None),
    ("alpaca", "n16cluster", "socialTies", "nClusters", "Answer: four", 1, None),
    ("alpaca", "n7tree", "objectRelations", "valuePath",
     "Answer: clay pot, iron safe, tin box, glass jar", 0, "invalid_edge"),
    ("alpaca", "n15star", "ordRooms", "valuePath", "Answer:", 0, "no_answer"),
    ("alpaca", "n15star", "ordRooms", "2stepPath", "Answer: 1, 11, 2, 11, 2", 0, "loop"),
    ("alpaca", "n21star", "unordSpatial", "1stepPath", "Answer: Zagreb Tallinn", 0,
     "unparseable"),
    # --- layouts seen in the paper's published replies (task version 2.1)
    ("gpt-4", "n7line", "ordRooms", "valuePath",
     "Room 2 leads to 50 dollars.\nTherefore, the answer is:\n\nAnswer: 2", 1, None),
    ("claude", "n13line", "unordSpatial", "valuePath",
     "Answer: You should choose Tunis, as it leads to the most money.", 1, None),
    ("llama", "n15star", "ordRooms", "valuePath", "Answer: 1 - 11 - 2 - 8", 1, None),
    ("alpaca", "n15star", "unordSpatial", "valuePath",
     "Answer: Osaka to Durban to Bergen to Tallinn", 1, None),
    ("alpaca", "n15star", "ordRooms", "valuePath", "Answer: 1 - 11 - 8", 0, "invalid_edge"),
    ("gpt-3.5", "n7line", "socialTies", "valuePath",
     "Answer: Umar should introduce you to Rosa", 1, None),
    ("claude", "n7line", "socialTies", "valuePath",
     "Answer: Umar can connect you with Rosa, who leads to the most books.", 1, None),
    ("llama", "n7line", "socialTies", "valuePath",
     "Answer: Umar should introduce you to Rosa or Jonas", 0, "unparseable"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("style", "graph", "domain", "condition", "reply", "score", "label"),
    REPLIES,
    ids=[f"{row[0]}-{index}" for index, row in enumerate(REPLIES)],
)
def test_reply_gets_its_score_and_label(
    style: str,
    graph: str,
    domain: str,
    condition: str,
    reply: str,
    score: int,
    label: str | None,
) -> None:
    item = make_item(graph, domain, condition)
    result = score_response(reply, item.expected, item.kind, item.context)
    assert (result.score, result.failure_mode) == (score, label), (style, result.answer)


def test_table_is_large_and_covers_every_style_and_label() -> None:
    assert len(REPLIES) >= 40
    assert {row[0] for row in REPLIES} == {"gpt-4", "gpt-3.5", "claude", "llama", "alpaca"}
    labels = {row[6] for row in REPLIES}
    assert labels == {None, *FAILURE_MODES}
