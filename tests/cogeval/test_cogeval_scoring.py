"""Answer extraction on realistic replies, failure modes, and JSONL rescoring."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cog_tasks.cli import main
from cog_tasks.cogeval.generator import make_item
from cog_tasks.cogeval.parsing import extract_answer, parse_count, split_map, split_route
from cog_tasks.cogeval.results import rescore_record
from cog_tasks.cogeval.scoring import score_response


@pytest.mark.parametrize(
    ("reply", "answer"),
    [
        ("Let me think step by step.\nRoom 2 leads to 6.\nAnswer: Room 2", "Room 2"),
        ("**Answer:** room 2.", "room 2"),
        ("answer: 2\n", "2"),
        ("So the answer is: room 12", "room 12"),
        ("Answer: Room 2 (then room 4, then room 6).", "Room 2"),
        ("The best is room 2.\n\nAnswer:\n  Room 2\n", "Room 2"),
        ("Answer: 1\nWait, that is wrong.\nFinal answer: 2!", "2"),
        ("the answer is: Answer: 1, 10", "1, 10"),
        ("I think the lobby is nice.", None),
        ("Answer:   ", None),
    ],
)
def test_extract_answer_handles_realistic_replies(reply: str, answer: str | None) -> None:
    assert extract_answer(reply) == answer


def test_routes_maps_and_counts_are_split_tolerantly() -> None:
    assert split_route("Room 1 -> room 3 → Room 5.") == ["1", "3", "5"]
    assert split_route("Amara, bruno, and CHIARA") == ["amara", "bruno", "chiara"]
    assert split_route("the lobby, then room 2") == ["lobby", "2"]
    assert split_map("1 - 3, room 3 -> room 5; Lima to Oslo") == [
        ("1", "3"),
        ("3", "5"),
        ("lima", "oslo"),
    ]
    assert parse_count("there are three clusters") == 3
    assert parse_count("4 groups") == 4
    assert parse_count("several") is None


def _score(graph: str, domain: str, condition: str, reply: str, seed: int = 0):
    item = make_item(graph, domain, condition, seed=seed)
    return score_response(reply, item.expected, item.kind, item.context)


def test_correct_answers_in_many_spellings_score_one() -> None:
    assert _score("n7line", "ordRooms", "valuePath", "I pick room 2.\nAnswer: Room 2.").score == 1
    assert (
        _score("n7line", "ordRooms", "valuePath", "Answer: lobby, room 2, room 4, room 6").score
        == 1
    )
    assert _score("n15star", "ordRooms", "1stepPath", "Answer: 1, 7").score == 1
    # The start state may be left out when the question names it.
    assert _score("n15star", "ordRooms", "1stepPath", "Answer: 7").score == 1
    assert (
        _score(
            "n16cluster", "ordRooms", "nClusters", "So there are four.\nAnswer: 4 clusters"
        ).score
        == 1
    )
    item = make_item("n7tree", "socialTies", "valuePath")
    shouted = item.expected[0].upper()
    assert score_response(shouted, item.expected, item.kind, item.context).score == 1


def test_each_failure_mode_is_recognised_with_the_graph() -> None:
    # n15star: reward in room 8; from room 1 the optimum is 1, 11, {2, 5, 14}, 8.
    cases = {
        "no_answer": "I would go to the room with the reward.",
        "invalid_edge": "Answer: 1, 8",  # rooms 1 and 8 are not connected
        "loop": "Answer: 1, 11, 2, 11, 14, 8",
        "suboptimal": "Answer: 1, 11, 2, 5, 8",
        "wrong_goal": "Answer: 1, 7, 4",
    }
    for mode, reply in cases.items():
        result = _score("n15star", "ordRooms", "valuePath", reply)
        assert (result.score, result.failure_mode) == (0, mode), reply
    result = _score("n15star", "ordRooms", "nClusters", "Answer: 5")
    assert result.failure_mode == "wrong_count"
    # First-step answers: a room the lobby has no door to is a hallucinated edge.
    assert (
        _score("n7line", "ordRooms", "valuePath", "Answer: room 6").failure_mode == "invalid_edge"
    )
    assert _score("n7line", "ordRooms", "valuePath", "Answer: room 1").failure_mode == "wrong_goal"
    assert (
        _score("n7line", "ordRooms", "valuePath", "Answer: room 42").failure_mode == "invalid_edge"
    )
    # Stochastic transitions: the less likely route to the big chest is the wrong goal.
    assert (
        _score("n13line", "ordRooms", "transRevalStochastic", "Answer: 1").failure_mode
        == "wrong_goal"
    )
    assert _score("n13line", "ordRooms", "transRevalStochastic", "Answer: 2").score == 1


def test_map_drawing_is_scored_on_the_set_of_connections() -> None:
    item = make_item("n7line", "ordRooms", "mapDrawing")
    right = "Answer: 2 - 4, lobby - 1, 1 - 3, 3 - 5, lobby - 2, 4 - 6"
    assert score_response(right, item.expected, item.kind, item.context).score == 1
    invented = "Answer: lobby - 1, 1 - 3, 3 - 5, lobby - 2, 2 - 4, 4 - 6, 5 - 6"
    assert (
        score_response(invented, item.expected, item.kind, item.context).failure_mode
        == "invalid_edge"
    )
    partial = "Answer: lobby - 1, 1 - 3"
    assert (
        score_response(partial, item.expected, item.kind, item.context).failure_mode
        == "wrong_count"
    )


def test_rescoring_without_the_graph_infers_failure_modes() -> None:
    base = {"condition": "2stepPath", "expected": ["Answer: 2, 4, 6"]}
    assert rescore_record({**base, "response": "Answer: 2, 4, 6"})["failure_mode"] is None
    assert rescore_record({**base, "response": "Answer: 2, 4, 2, 4, 6"})["failure_mode"] == "loop"
    assert rescore_record({**base, "response": "Answer: 2, 4, 5"})["failure_mode"] == "wrong_goal"
    assert rescore_record({**base, "response": "Answer: 2, 6"})["failure_mode"] == "invalid_edge"
    assert (
        rescore_record({**base, "response": "Answer: 2, 3, 5, 6"})["failure_mode"] == "suboptimal"
    )
    assert rescore_record({**base, "response": "no idea"})["failure_mode"] == "no_answer"
    count = {"condition": "nClusters", "expected": ["Answer: 3"], "response": "Answer: two"}
    assert rescore_record(count)["failure_mode"] == "wrong_count"


def test_score_command_rescores_jsonl(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    item = make_item("n21star", "unordSpatial", "valuePath", seed=5)
    lines = [
        {
            "condition": "valuePath",
            "expected": list(item.expected),
            "response": item.expected[0],
            "id": "a",
        },
        {
            "condition": "valuePath",
            "expected": list(item.expected),
            "response": "Answer: " + ", ".join(["nowhere"] * 2),
            "graph_context": item.context.to_dict(),
        },
    ]
    source = tmp_path / "in.jsonl"
    source.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    target = tmp_path / "out.jsonl"
    assert main(["cogeval", "score", str(source), "--out", str(target)]) == 0
    scored = [json.loads(line) for line in target.read_text(encoding="utf-8").splitlines()]
    assert [(row["score"], row["failure_mode"]) for row in scored] == [
        (1, None),
        (0, "invalid_edge"),
    ]
    assert scored[0]["id"] == "a"
    out = capsys.readouterr().out
    assert "scored 2 replies, 1 correct" in out and "invalid/error/truncated 0/0/0" in out


def test_bad_rescoring_input_names_the_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "bad.jsonl"
    source.write_text(
        '{"condition": "valuePath", "expected": ["Answer: 2"], "response": "x"}\n'
        '{"condition": "valuePath"}\n'
    )
    assert main(["cogeval", "score", str(source), "--out", str(tmp_path / "out.jsonl")]) == 2
    error = capsys.readouterr().err
    assert error.startswith("cog-tasks cogeval score: error: ") and error.count("\n") == 1
    assert "bad.jsonl:2: missing field 'expected'" in error
    assert not (tmp_path / "out.jsonl").exists()


def test_score_fails_on_empty_input_and_warns_on_unknown_conditions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n")
    assert main(["cogeval", "score", str(empty), "--out", str(tmp_path / "out.jsonl")]) == 2
    assert "empty.jsonl: no replies to score" in capsys.readouterr().err
    odd = tmp_path / "odd.jsonl"
    odd.write_text(
        '{"condition": "3stepPth", "expected": ["Answer: 1, 2"], "response": "Answer: 1, 2"}\n'
    )
    assert main(["cogeval", "score", str(odd), "--out", str(tmp_path / "out.jsonl")]) == 0
    captured = capsys.readouterr()
    assert "warning: unknown condition(s) ['3stepPth']" in captured.err
    assert "scored 1 replies, 1 correct" in captured.out


def test_a_route_may_repeat_the_start_the_expected_answers_omit() -> None:
    base = {"condition": "valuePath", "expected": ["Answer: 7, 10"], "response": "Answer: 1, 7, 10"}
    assert rescore_record(base)["score"] == 0  # without the start, 1 could be a wrong first step
    assert rescore_record({**base, "start": "room 1"})["score"] == 1
    assert rescore_record({**base, "start": "room 1", "response": "Answer: 4, 7, 10"})["score"] == 0


def test_a_route_without_its_first_move_is_refused(shared_data: Path) -> None:
    from cog_tasks.cogeval.published import select_published

    record = select_published(graphs=["n13line"], domains=["ordRooms"], conditions=["valuePath"])[
        0
    ].to_record()
    assert record["start"] == "lobby" and "Answer: 2, 4, 6, 8, 10, 12" in record["expected"]

    def score(reply: str) -> int:
        return score_response(reply, record["expected"], "path", start=record["start"]).score

    assert score("Answer: 4, 6, 8, 10, 12") == 0  # was accepted: room 2 left out
    assert score("Answer: 2, 4, 6, 8, 10, 12") == 1
    assert score("Answer: lobby, 2, 4, 6, 8, 10, 12") == 1
    # where the answers begin with the start, the start may still be left out
    assert score_response("Answer: 3", ["Answer: 1, 3"], "path", start="1").score == 1
    # without a start the answers' first state is never dropped
    assert score_response("Answer: 3", ["Answer: 1, 3"], "path").score == 0


@pytest.mark.parametrize(
    "reply",
    ["Answer: 3-4 clusters", "Answer: at least 3 clusters", "Answer: 3 to 4", "Answer: about 3"],
)
def test_hedged_counts_are_unparseable(reply: str) -> None:
    result = score_response(reply, ["Answer: there are 3 clusters"], "count")
    assert (result.score, result.failure_mode) == (0, "unparseable")


def test_counts_with_their_members_are_still_read() -> None:
    reply = "Answer: 3 clusters: rooms 1-5, rooms 6-10 and rooms 11-15"
    assert score_response(reply, ["Answer: there are 3 clusters"], "count").score == 1
    assert parse_count("4 groups") == 4


def test_a_named_start_on_a_first_move_question_reads_as_on_a_route(shared_data: Path) -> None:
    from cog_tasks.cogeval.published import select_published

    record = select_published(graphs=["n7line"], domains=["ordRooms"], conditions=["valuePath"])[
        0
    ].to_record()
    assert record["kind"] == "first_step" and record["start"] == "lobby"

    def result(reply: str) -> tuple[int, str | None]:
        scored = score_response(reply, record["expected"], "first_step", start=record["start"])
        return scored.score, scored.failure_mode

    assert result("Answer: lobby, 2, 4, 6") == (1, None)  # was wrong_goal: "lobby" read as the move
    assert result("Answer: room 2") == (1, None)
    assert result("Answer: lobby, 1") == (0, "wrong_goal")


def test_one_answer_per_question_of_a_joined_prompt_scores_the_scored_one() -> None:
    reply = "Answer: 2\nAnswer: 1, 3"
    alone = score_response(reply, ["Answer: 1, 3"], "path", start="1")
    assert alone.failure_mode == "unparseable"  # one question asked: two answers contradict
    joined = score_response(reply, ["Answer: 1, 3"], "path", start="1", questions=2, scored=2)
    assert (joined.score, joined.answer) == (1, "1, 3")
    first = score_response(
        "Answer: 3\nAnswer: 1 - 2, 2 - 3",
        ["Answer: there are 3 clusters"],
        "count",
        questions=2,
        scored=1,
    )
    assert (first.score, first.answer) == (1, "3")
    # three answers to two questions: read as one reply, the last two contradict
    three = score_response(
        "Answer: 2\nAnswer: 1, 2\nAnswer: 1, 3", ["Answer: 1, 3"], "path", questions=2
    )
    assert three.failure_mode == "unparseable"
