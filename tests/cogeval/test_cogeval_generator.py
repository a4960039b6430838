"""The generator: reference set, seeds, dialog structure, CoT, errors."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cog_tasks.cli import main
from cog_tasks.cogeval.generator import COT_INSTRUCTIONS, SHORTCUT_HINT, generate_items, make_item
from cog_tasks.cogeval.graphs import ANALYSIS_FAMILIES, CONDITIONS, GRAPHS
from cog_tasks.cogeval.parsing import FORMAT_EXAMPLES, extract_answer, split_route


def test_reference_set_is_moderate_stable_and_covers_every_condition() -> None:
    items = generate_items()
    assert 300 <= len(items) <= 400
    assert len({item.id for item in items}) == len(items)
    assert {item.condition for item in items} == set(CONDITIONS)
    assert {item.graph for item in items} == set(GRAPHS)
    assert {item.domain for item in items if item.domain == "objectRelations"} == {
        "objectRelations"
    }
    again = generate_items()
    assert [item.to_record() for item in items] == [item.to_record() for item in again]


def test_every_answer_form_the_prompts_show_is_a_known_echo() -> None:
    shown = {
        example
        for item in generate_items()
        for turn in item.to_record()["turns"]
        for example in re.findall(r"'Answer: ([^']+)'", str(turn))
    }
    assert shown == set(FORMAT_EXAMPLES.values())


def test_dialogs_have_a_description_turn_then_the_change_and_question() -> None:
    value = make_item("n7line", "ordRooms", "valuePath")
    assert len(value.turns) == 1
    detour = make_item("n7line", "ordRooms", "nonteleDetour")
    assert len(detour.turns) == 2
    assert detour.turns[0].text == value.turns[0].text
    assert "room 6 is now locked" in detour.turns[1].context
    assert "Answer:" in detour.turns[1].question
    flat = detour.flattened_prompt()
    assert flat.count("Which room do you move to first?") == 1
    assert flat.index(detour.turns[1].context) > flat.index(detour.turns[0].context)


def test_default_seed_keeps_paper_room_numbers_and_other_seeds_relabel() -> None:
    reference = make_item("n13line", "ordRooms", "nstepPath")
    assert reference.expected == ("Answer: 2, 4, 6, 8, 10, 12",)
    fresh = make_item("n13line", "ordRooms", "nstepPath", seed=11)
    numbers = [int(s) for s in split_route(extract_answer(fresh.expected[0]))]
    assert numbers != [2, 4, 6, 8, 10, 12] and numbers == sorted(numbers)
    people = make_item("n15star", "socialTies", "valuePath", seed=1)
    other = make_item("n15star", "socialTies", "valuePath", seed=2)
    assert people.expected != other.expected
    assert len(people.expected) == len(other.expected) == 3


def test_cot_and_shortcut_hint_are_added_to_the_scored_question() -> None:
    plain = make_item("n16cluster", "unordSpatial", "nonteleShortcut")
    hinted = make_item("n16cluster", "unordSpatial", "nonteleShortcutCoT")
    assert (
        SHORTCUT_HINT in hinted.turns[-1].question and SHORTCUT_HINT not in plain.turns[-1].question
    )
    assert hinted.expected == plain.expected
    bfs = make_item("n16cluster", "unordSpatial", "3stepPath", cot="bfs")
    assert bfs.turns[-1].question.startswith(COT_INSTRUCTIONS["bfs"])
    assert bfs.id.endswith(".bfs")


def test_unknown_names_are_rejected_clearly() -> None:
    with pytest.raises(ValueError, match=r"unknown CogEval graph 'n99'; valid: \['n13line'"):
        generate_items(graphs=["n99"])
    with pytest.raises(ValueError, match=r"unknown CogEval domain 'rooms'; valid: .*'ordRooms'"):
        generate_items(domains=["rooms"])
    with pytest.raises(ValueError, match="unknown CogEval condition 'fly'; valid: "):
        generate_items(conditions=["fly"])
    with pytest.raises(ValueError, match="not defined for graph 'n7line'; valid: "):
        make_item("n7line", "objectRelations", "valuePath")
    with pytest.raises(ValueError, match="unknown CogEval design"):
        generate_items(design="mine")
    with pytest.raises(ValueError, match="unknown cot mode"):
        make_item("n7line", "ordRooms", "valuePath", cot="tot")


def test_generate_command_writes_items(tmp_path: Path) -> None:
    out = tmp_path / "items.jsonl"
    assert (
        main(["cogeval", "generate", "--out", str(out), "--graphs", "n7tree", "--seed", "4"]) == 0
    )
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(records) == 60 and all(r["id"].endswith(".s4") for r in records)
    assert {"turns", "expected", "graph_context", "prompt"} <= set(records[0])


def test_every_two_way_graph_says_so_in_every_domain() -> None:
    for item in generate_items():
        description = item.turns[0].context
        if item.graph in ("n7line", "n7tree", "n13line"):
            assert "only in the direction given" in description, item.id
            continue
        assert "Every connection works in both directions." in description, item.id
        connections = [s for s in re.split(r"(?<=\.) ", description) if " with each of " in s]
        assert connections, item.id
        assert all(
            re.search(r"both (ways|directions)|either way|each leads", s) for s in connections
        )
    spatial = make_item("n15star", "unordSpatial", "2stepPath")
    assert "trains run to" not in spatial.flattened_prompt()


def test_search_instructions_are_goal_neutral_and_do_not_ask_to_compare() -> None:
    for text in COT_INSTRUCTIONS.values():
        assert "goal" not in text.lower() and "compare" not in text.lower()
    count = make_item("n15star", "ordRooms", "exp2ClusterCount", cot="dfs")
    assert count.turns[-1].question.startswith(COT_INSTRUCTIONS["dfs"])
    assert "How many such groups" in count.turns[-1].question


def test_experiment_2_items_are_single_turn_without_rewards() -> None:
    items = generate_items(
        conditions=["exp2ClusterCount", "exp2WithinCluster", "exp2OneClusterAway"]
    )
    assert {item.graph for item in items} == {"n15star"} and len(items) == 12
    assert {item.family for item in items} == {"Experiment2"}
    within = make_item("n15star", "ordRooms", "exp2WithinCluster")
    assert len(within.turns) == 1 and "dollars" not in within.turns[0].text
    assert "shortest route from room 11 to room 8" in within.turns[0].question


def test_paper_design_keeps_three_domains_and_the_five_families() -> None:
    items = generate_items(design="paper")
    assert {item.domain for item in items} == {"ordRooms", "unordSpatial", "socialTies"}
    assert {item.family for item in items} == set(ANALYSIS_FAMILIES)
    cells = {(item.graph, item.domain, item.family) for item in items}
    assert len(cells) == 6 * 3 * 5


def test_generate_command_takes_the_design(tmp_path: Path) -> None:
    out = tmp_path / "paper.jsonl"
    assert main(["cogeval", "generate", "--out", str(out), "--design", "paper"]) == 0
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(records) == len(generate_items(design="paper"))
    assert {r["domain"] for r in records} == {"ordRooms", "unordSpatial", "socialTies"}
