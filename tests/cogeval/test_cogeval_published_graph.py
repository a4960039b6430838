"""Graph facts read from the published prompts, and the blind walker on published tasks."""

from __future__ import annotations

import random
from pathlib import Path

from inspect_ai.model import ChatMessageUser, GenerateConfig

from cog_tasks.cogeval.baseline import random_answer
from cog_tasks.cogeval.inspect.chance import NO_MAP_REPLY, chance_answerer, published_contexts
from cog_tasks.cogeval.published import answer_kind, select_published
from cog_tasks.cogeval.published_graph import read_first_turn, read_turns
from cog_tasks.cogeval.scoring import GraphContext, score_response

STAR_GRAPHS = "n15star,n16cluster,n21star"
TEMPLATE_DOMAINS = "ordRooms,socialTies,unordSpatial"


def test_the_connection_template_gives_states_edges_rewards_and_start() -> None:
    # Our own sentences in the template's grammar (the published prompts are read at run
    # time by the tests below).
    text = (
        "Picture a small house of 5 rooms. Room 1 is connected to rooms 4, 3 and 2. "
        "Room 4 is also connected to room 5. You may collect a reward of 50 in room 5 or a "
        "reward of 10 in room 2. Starting from room 1, which route is shortest while giving "
        "the largest reward?"
    )
    context = read_first_turn(text, "path", ["Answer: 1, 4, 5"])
    assert context is not None and context.start == "1"
    assert set(context.states) == {"1", "2", "3", "4", "5"}
    assert ("4", "5") in context.edges and len(context.edges) == 4
    assert dict(context.rewards) == {"5": 50.0, "2": 10.0}
    target = read_turns(
        [text, "Which is the shortest path to room 3, starting from room 1?"], "path", []
    )
    assert target is not None and target.rewards == (("3", 1.0),)


def test_a_story_is_read_as_a_tree_with_options_and_returns() -> None:
    story = (
        "Imagine a building that has four rooms. Standing in the lobby, you may pick room 1 or "
        "room 2. Going into room 1 takes you on to room 3, and a chest in room 3 holds 10 "
        "dollars. Then you exit and start over. Next you pick room 2, whose door opens onto "
        "room 4, and a chest there holds 50 dollars. Which first room off the lobby ends with "
        "the most money?"
    )
    context = read_first_turn(story, "first_step", ["Answer: room 2"])
    assert context is not None and context.start == "lobby"
    assert set(context.edges) == {("lobby", "1"), ("lobby", "2"), ("1", "3"), ("2", "4")}
    assert dict(context.rewards) == {"3": 10.0, "4": 50.0}
    # a state of the answers missing from the map, or a miscounted map, is not read
    assert read_first_turn(story, "first_step", ["Answer: room 9"]) is None
    partial = "Imagine a house with 9 rooms. Room 1 is connected to room 2. A chest of 5 in room 2."
    assert read_first_turn(partial, "path", ["Answer: 1, 2"]) is None


def test_every_star_and_cluster_task_in_the_template_is_read(shared_data: Path) -> None:
    tasks = select_published(
        graphs=STAR_GRAPHS.split(","),
        domains=TEMPLATE_DOMAINS.split(","),
        cot="none",
        unscorable=True,
    )
    tasks += select_published(graphs=["n7line", "n13line"], domains=["ordRooms"], unscorable=True)
    tasks = [task for task in tasks if "forefront" not in task.id]  # a wording of two models
    assert len({task.task for task in tasks}) == 120 + 21 and len(tasks) == 1224
    for task in tasks:
        conversation = task.load()
        kind = answer_kind(task.condition, conversation.expected)
        context = read_turns(conversation.turns, kind, conversation.expected)
        assert context is not None, task.id
        if kind == "path" and len(conversation.turns) == 1 and context.rewards:
            # the map read holds every step of the expected routes of unchanged maps
            edges = {frozenset(edge) for edge in context.edges}
            expected = conversation.expected[0].removeprefix("Answer:").lower().split(",")
            route = [state.strip() for state in expected]
            # 21 upstream answers of n15star socialTies step from Jing to Matt, unconnected
            if not (task.task.startswith("n15star.socialTies") and {"jing", "matt"} <= set(route)):
                assert all(
                    frozenset(step) in edges for step in zip(route, route[1:], strict=False)
                ), task.id


def test_the_walker_answers_published_dialogs_in_their_answer_form(shared_data: Path) -> None:
    arguments = {"source": "published", "graphs": "n21star", "domains": "ordRooms"}
    contexts, unread = published_contexts(arguments)
    assert unread == []
    turns = [
        task.load().turns for task in select_published(graphs=["n21star"], domains=["ordRooms"])
    ]
    assert set(contexts) == {dialog[:end] for dialog in turns for end in range(1, len(dialog) + 1)}
    rng = random.Random(0)
    for context in contexts.values():
        reply = random_answer(context, rng)
        assert reply.splitlines()[-1].startswith("Answer: ")
        if context.kind == "path":
            assert reply.splitlines()[-1].removeprefix("Answer: ").startswith(context.start)
    answerer = chance_answerer(arguments, seed=1)
    assert set(answerer.contexts) == set(contexts)


def test_walking_to_the_target_is_scored_correct_when_it_is_shortest(shared_data: Path) -> None:
    task = select_published(graphs=["n21star"], domains=["ordRooms"], conditions=["1stepPath"])[0]
    assert task.id == task.task  # the first item of a task keeps the task's id
    conversation = task.load()
    context = read_turns(conversation.turns, "path", conversation.expected)
    assert context is not None and context.rewards == (("2", 1.0),)
    result = score_response("Answer: 1, 2", list(conversation.expected), "path", None, start="1")
    assert result.score == 1


def test_the_walker_reads_all_but_seven_paper_tasks_and_gives_those_no_answer(
    shared_data: Path,
) -> None:
    answerer = chance_answerer({"source": "published", "design": "paper"})
    first_items = [task for task in answerer.unread if "@" not in task]
    # 22 other wordings (25 less 3 the audit leaves out as unscorable)
    assert len(first_items) == 7 and len(answerer.unread) == 29
    assert {task.rsplit(".", 1)[-1] for task in first_items} == {
        "nonteleShortcutShortest",  # a story about other places than the map it is scored on
        "teleShortcutShortest",
        "nonteleDetour",  # n7tree unordSpatial: fields named in the follow-up are not read
        "teleDetour",
        "transReval",
    }
    unread = [turns for turns, context in answerer.contexts.items() if context is None]
    assert unread
    messages = [ChatMessageUser(content=text) for text in unread[0]]
    reply = answerer.reply_to(messages, GenerateConfig(temperature=0))
    assert reply == NO_MAP_REPLY
    assert score_response(reply, ["Answer: 1"], "path").failure_mode == "no_answer"


def test_one_turn_route_tasks_get_exact_failure_modes(shared_data: Path) -> None:
    records = {task.id: task.to_record() for task in select_published(graphs=["n21star"])}
    record = records["n21star.ordRooms.2stepPath"]
    assert record["graph_context"] is not None
    context = GraphContext.from_dict(record["graph_context"])
    assert context.best_length == 2
    jump = score_response("Answer: 1, 14", record["expected"], "path", context)
    assert jump.failure_mode == "invalid_edge"  # rooms 1 and 14 are not connected
    # the value question of the first turn is not read as a scoring map (two chests)
    assert records["n21star.ordRooms.valuePath"]["graph_context"] is None
    assert sum(record["graph_context"] is not None for record in records.values()) >= 6


def test_the_walker_counts_on_the_turn_the_paper_scored(shared_data: Path) -> None:
    contexts, unread = published_contexts({"conditions": "exp2ClusterCount", "cot": "none"})
    assert unread == []
    kinds = {len(prefix): context.kind for prefix, context in contexts.items() if context}
    assert kinds == {1: "count", 2: "map"}  # the count asked first, then "draw the map"
