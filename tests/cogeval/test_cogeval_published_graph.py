"""Graph facts read from the published prompts, and the blind walker on published tasks."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from cog_tasks.cogeval.baseline import random_answer
from cog_tasks.cogeval.inspect.chance import chance_answerer, published_contexts
from cog_tasks.cogeval.published import answer_kind, route_start, select_published
from cog_tasks.cogeval.published_graph import read_first_turn, read_turns
from cog_tasks.cogeval.scoring import score_response

STAR_GRAPHS = "n15star,n16cluster,n21star"
TEMPLATE_DOMAINS = "ordRooms,socialTies,unordSpatial"


def test_the_connection_template_gives_states_edges_rewards_and_start() -> None:
    text = (
        "Imagine a house with 5 rooms. Room 1 is connected to rooms 2, 3, and 4. "
        "Room 4 is connected to room 5. There is a chest with a reward of 50 in room 5 and "
        "there is a chest with a reward of 10 in room 2. Now, from room 1 what is the "
        "shortest path that yields the most reward?"
    )
    context = read_first_turn(text, "path", "1")
    assert context is not None
    assert set(context.states) == {"1", "2", "3", "4", "5"}
    assert ("4", "5") in context.edges and len(context.edges) == 4
    assert dict(context.rewards) == {"5": 50.0, "2": 10.0}
    target = read_turns([text, "From room 1 what is the shortest path to room 3?"], "path", "1")
    assert target is not None and target.rewards == (("3", 1.0),)


def test_prose_and_miscounted_maps_are_not_read() -> None:
    prose = "Imagine a building with six rooms. From the lobby you can go to room 1 or room 2."
    assert read_first_turn(prose, "first_step", "lobby") is None
    partial = "Imagine a house with 9 rooms. Room 1 is connected to room 2. A chest of 5 in room 2."
    assert read_first_turn(partial, "path", "1") is None


def test_every_star_and_cluster_task_in_the_template_is_read(shared_data: Path) -> None:
    tasks = select_published(graphs=STAR_GRAPHS.split(","), domains=TEMPLATE_DOMAINS.split(","))
    assert len(tasks) == 120
    for task in tasks:
        conversation = task.load()
        kind = answer_kind(task.condition, conversation.expected)
        context = read_turns(conversation.turns, kind, route_start(conversation.expected))
        assert context is not None, task.id
        if kind == "path" and len(conversation.turns) == 1 and context.rewards:
            # the map read holds every step of the expected routes of unchanged maps
            edges = {frozenset(edge) for edge in context.edges}
            expected = conversation.expected[0].removeprefix("Answer:").lower().split(",")
            route = [state.strip() for state in expected]
            if task.id != "n15star.socialTies.nstepPath":  # upstream answer goes through Matt
                assert all(
                    frozenset(step) in edges for step in zip(route, route[1:], strict=False)
                ), task.id


def test_the_walker_answers_published_dialogs_in_their_answer_form(shared_data: Path) -> None:
    arguments = {"source": "published", "graphs": "n21star", "domains": "ordRooms"}
    contexts = published_contexts(arguments)
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
    [task] = select_published(graphs=["n21star"], domains=["ordRooms"], conditions=["1stepPath"])
    conversation = task.load()
    context = read_turns(conversation.turns, "path", "1")
    assert context is not None and context.rewards == (("2", 1.0),)
    result = score_response("Answer: 1, 2", list(conversation.expected), "path", None, start="1")
    assert result.score == 1


@pytest.mark.parametrize("graph", ["n7line", "n13line", "n7tree"])
def test_prose_graphs_are_refused_by_name(graph: str, shared_data: Path) -> None:
    with pytest.raises(ValueError, match=f"published task '{graph}"):
        chance_answerer({"source": "published", "graphs": graph})
