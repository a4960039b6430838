"""The graphs reproduce the templates' facts; expected answers are verified by BFS."""

from __future__ import annotations

import re
from collections import deque
from pathlib import Path

import networkx as nx
import pytest
from cogeval_template_facts import (
    load_template,
    template_adjacency,
    template_line_graph,
    template_rewards,
)

from cog_tasks.cogeval.generator import generate_items, make_item
from cog_tasks.cogeval.graphs import GRAPHS, get_graph
from cog_tasks.cogeval.parsing import extract_answer, parse_count, split_route
from cog_tasks.cogeval.planning import environment
from cog_tasks.cogeval.scoring import score_response


def _undirected(spec_name: str) -> set[frozenset[int]]:
    return {frozenset(edge) for edge in get_graph(spec_name).edges}


@pytest.mark.parametrize("name", ["n7line", "n13line"])
def test_line_graphs_reproduce_template_edges_and_rewards(templates_dir: Path, name: str) -> None:
    text = load_template(templates_dir, name)["valuePath"]["content"]
    edges, rewards = template_line_graph(text)
    spec = get_graph(name)
    assert edges == set(spec.edges)
    assert rewards == dict(spec.rewards)


def test_tree_graph_matches_template_transitions_and_rewards(templates_dir: Path) -> None:
    text = (templates_dir / "n7tree" / "objectRelations.md").read_text(encoding="utf-8")
    rewards_block = text.split("<rewards>")[1].split("<transitions>")[0]
    template = nx.DiGraph()
    template.add_edges_from(
        (int(a), int(b)) for a, b in re.findall(r"(\d+) -> (\d+)", text.split("<transitions>")[1])
    )
    for state, value in re.findall(r"(\d+): (\d+)", rewards_block):
        template.nodes[int(state)]["reward"] = float(value)
    spec = get_graph("n7tree")
    ours = nx.DiGraph(list(spec.edges))
    for state, value in spec.rewards:
        ours.nodes[state]["reward"] = value
    assert nx.is_isomorphic(
        template, ours, node_match=lambda a, b: a.get("reward") == b.get("reward")
    )
    # The numbered version's answers walk along our edges.
    data = load_template(templates_dir, "n7tree")
    for conversation in data["CONVERSATIONS"]:
        for condition, turns in conversation.items():
            if condition in ("valuePath", "rewardReval", "transReval", "1stepPath", "2stepPath"):
                route = [
                    int(s) for s in split_route(extract_answer(turns[-1]["expected_answer"][0]))
                ]
                assert set(zip(route, route[1:], strict=False)) <= set(spec.edges)


def test_schapiro_graph_matches_template_edge_list(templates_dir: Path) -> None:
    text = (templates_dir / "n15star" / "ordRooms.md").read_text(encoding="utf-8")
    block = text.split("<graph>")[1].split("</graph>")[0]
    edges = {frozenset((int(a), int(b))) for a, b in re.findall(r"\((\d+),\s*(\d+)\)", block)}
    assert edges == _undirected("n15star")
    prose = load_template(templates_dir, "n15star")["valuePath"]["content"]
    assert template_rewards(prose) == dict(get_graph("n15star").rewards)


@pytest.mark.parametrize("name", ["n16cluster", "n21star"])
def test_community_graphs_reproduce_template_edges_and_rewards(
    templates_dir: Path, name: str
) -> None:
    text = load_template(templates_dir, name)["valuePath"]["content"]
    assert template_adjacency(text) == _undirected(name)
    assert template_rewards(text) == dict(get_graph(name).rewards)


def test_local_changes_follow_the_templates(templates_dir: Path) -> None:
    line = load_template(templates_dir, "n13line")
    swap = re.findall(
        r"room (\d+) and the door at its end (?:suddenly )?leads to room (\d+)",
        line["transReval"]["content"],
    )
    added = get_graph("n13line").condition("transReval").change.add_edges
    assert {(int(a), int(b)) for a, b in swap} == set(added)
    odds = re.findall(
        r"end of room (\d+) leads to room (\d+) with probability of (\d\.\d) and to room (\d+) "
        r"with probability of (\d\.\d)",
        line["transRevalStochastic"]["content"],
    )
    lotteries = dict(get_graph("n13line").condition("transRevalStochastic").change.stochastic)
    assert len(odds) == 2
    for room, first, p_first, second, p_second in odds:
        assert lotteries[int(room)] == (
            (int(first), float(p_first)),
            (int(second), float(p_second)),
        )
    star = load_template(templates_dir, "n16cluster")["transReval"]["content"].split("Assume now")[
        1
    ]
    removed = {frozenset(map(int, pair)) for pair in re.findall(r"rooms (\d+) and (\d+)", star)}
    spec = get_graph("n16cluster")
    assert removed == {frozenset(e) for e in spec.condition("transReval").change.remove_edges}


# Conditions where we deliberately differ from the numbered templates:
# - policyReval: the templates repeat rewardReval word for word; ours add a
#   penalty on the old route so the goal stays and the policy must change.
# - n16cluster detours: the templates' routes take 7, 6, 12, 10 where 7, 8, 10
#   is one step shorter.
# - n21star nstepPath: the template repeats the 3-step question; ours spans the
#   graph's diameter.
KNOWN_DIVERGENCES = {
    ("n15star", "policyReval"),
    ("n16cluster", "policyReval"),
    ("n21star", "policyReval"),
    ("n16cluster", "teleDetour"),
    ("n16cluster", "nonteleDetour"),
    ("n21star", "nstepPath"),
}


@pytest.mark.parametrize("name", sorted(GRAPHS))
def test_template_answers_are_optimal_answers_of_our_generator(
    templates_dir: Path, name: str
) -> None:
    spec = get_graph(name)
    ours = {condition.name for condition in spec.conditions}
    compared = 0
    for conversation in load_template(templates_dir, name)["CONVERSATIONS"]:
        for condition, turns in conversation.items():
            if condition not in ours or (name, condition) in KNOWN_DIVERGENCES:
                continue
            expected = turns[-1]["expected_answer"]
            expected = [expected] if isinstance(expected, str) else expected
            item = make_item(name, "ordRooms", condition)
            for answer in expected:
                result = score_response(answer, item.expected, item.kind, item.context)
                assert result.score == 1, (name, condition, answer, item.expected)
            compared += 1
    assert compared >= 8


def _bfs_shortest_paths(graph: nx.Graph, source: int, target: int) -> set[tuple[int, ...]]:
    """Every shortest path by a plain breadth-first search (independent of networkx)."""
    successors = graph.successors if graph.is_directed() else graph.neighbors
    depth = {source: 0}
    parents: dict[int, list[int]] = {source: []}
    queue = deque([source])
    while queue:
        node = queue.popleft()
        for nxt in successors(node):
            if nxt not in depth:
                depth[nxt] = depth[node] + 1
                parents[nxt] = [node]
                queue.append(nxt)
            elif depth[nxt] == depth[node] + 1:
                parents[nxt].append(node)

    def unwind(node: int) -> set[tuple[int, ...]]:
        if node == source:
            return {(source,)}
        return {path + (node,) for parent in parents[node] for path in unwind(parent)}

    return unwind(target)


def test_traversal_answers_are_exactly_the_bfs_shortest_paths() -> None:
    checked = 0
    for item in generate_items(domains=["ordRooms"]):
        spec = get_graph(item.graph)
        condition = spec.condition(item.condition)
        if condition.source is None:
            continue
        graph = environment(spec, condition).to_networkx()
        ours = {tuple(int(s) for s in split_route(extract_answer(e))) for e in item.expected}
        assert ours == _bfs_shortest_paths(graph, condition.source, condition.target), item.id
        steps = {
            "1stepPath": 1,
            "2stepPath": 2,
            "3stepPath": 3,
            "exp2WithinCluster": 2,
            "exp2OneClusterAway": 4,
        }.get(item.condition)
        if steps:
            assert all(len(path) == steps + 1 for path in ours), item.id
        else:
            assert len(next(iter(ours))) - 1 >= 4, item.id
        checked += 1
    assert checked == 22


def test_value_answers_reach_the_best_reward_by_bfs_over_reward_sets() -> None:
    # A line graph's best first room leads to the larger chest along a BFS shortest path.
    item = make_item("n7line", "ordRooms", "valuePath")
    assert item.expected == ("Answer: 2",)
    assert _bfs_shortest_paths(nx.DiGraph(list(get_graph("n7line").edges)), 0, 6) == {(0, 2, 4, 6)}
    # In the Schapiro graph every optimal route to the reward is a shortest path.
    item = make_item("n15star", "ordRooms", "valuePath")
    routes = {tuple(int(s) for s in split_route(extract_answer(e))) for e in item.expected}
    graph = environment(
        get_graph("n15star"), get_graph("n15star").condition("valuePath")
    ).to_networkx()
    assert routes == _bfs_shortest_paths(graph, 1, 8)


def test_cluster_counts_match_the_listed_communities() -> None:
    for name in ("n15star", "n16cluster", "n21star"):
        item = make_item(name, "socialTies", "nClusters")
        assert parse_count(extract_answer(item.expected[0])) == len(get_graph(name).clusters)
        communities = nx.community.greedy_modularity_communities(
            environment(get_graph(name), get_graph(name).condition("nClusters")).to_networkx()
        )
        assert {frozenset(c) for c in communities} == {
            frozenset(c) for c in get_graph(name).clusters
        }


def test_experiment_2_answers_are_verified_with_networkx() -> None:
    spec = get_graph("n15star")
    graph = environment(spec, spec.condition("exp2WithinCluster")).to_networkx()
    cluster_of = {state: index for index, cluster in enumerate(spec.clusters) for state in cluster}
    communities = nx.community.greedy_modularity_communities(graph)
    assert {frozenset(c) for c in communities} == {frozenset(c) for c in spec.clusters}
    for condition, same_cluster in (("exp2WithinCluster", True), ("exp2OneClusterAway", False)):
        item = make_item("n15star", "ordRooms", condition)
        source, target = spec.condition(condition).source, spec.condition(condition).target
        assert item.expected and all(e.startswith("Answer: ") for e in item.expected)
        ours = {tuple(int(s) for s in split_route(extract_answer(e))) for e in item.expected}
        assert ours == {tuple(p) for p in nx.all_shortest_paths(graph, source, target)}
        assert (cluster_of[source] == cluster_of[target]) == same_cluster
        # one cluster away: the two clusters are joined by a connection
        assert any(
            {cluster_of[a], cluster_of[b]} == {cluster_of[source], cluster_of[target]}
            or same_cluster
            for a, b in graph.edges
        )
    count = make_item("n15star", "socialTies", "exp2ClusterCount")
    assert parse_count(extract_answer(count.expected[0])) == len(communities) == 3
