"""Every optimal walk (most reward, then fewest steps) by breadth-first search over the graphs."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import networkx as nx

from cog_tasks.cogeval.graphs import ConditionSpec, Edge, GraphSpec

ProductState = tuple[int, frozenset[int], bool]


@dataclass(frozen=True)
class Environment:
    """A graph after a condition's local change (``rewards`` non-zero only)."""

    directed: bool
    states: tuple[int, ...]
    edges: tuple[Edge, ...]
    rewards: tuple[tuple[int, float], ...]
    portal: int | None = None
    stochastic: tuple[tuple[int, tuple[tuple[int, float], ...]], ...] = ()

    def to_networkx(self) -> nx.Graph:
        """The connections as a networkx graph (``DiGraph`` when directed)."""
        graph: nx.Graph = nx.DiGraph() if self.directed else nx.Graph()
        graph.add_nodes_from(self.states)
        graph.add_edges_from(self.edges)
        return graph

    def successors(self) -> dict[int, tuple[int, ...]]:
        """States reachable in one ordinary step from each state."""
        graph = self.to_networkx()
        neighbours = graph.successors if self.directed else graph.neighbors
        return {state: tuple(sorted(neighbours(state))) for state in self.states}

    def reward_map(self) -> dict[int, float]:
        """Rewards as a dictionary."""
        return dict(self.rewards)


def environment(spec: GraphSpec, condition: ConditionSpec) -> Environment:
    """Apply a condition's local change to the base graph."""
    change = condition.change
    removed = {_edge_key(edge, spec.directed) for edge in change.remove_edges}
    edges = [edge for edge in spec.edges if _edge_key(edge, spec.directed) not in removed]
    edges += [edge for edge in change.add_edges if edge not in edges]
    states = set(spec.states) | {state for edge in change.add_edges for state in edge}
    rewards = dict(spec.rewards)
    rewards.update(change.rewards)
    return Environment(
        directed=spec.directed,
        states=tuple(sorted(states)),
        edges=tuple(edges),
        rewards=tuple(sorted((state, value) for state, value in rewards.items() if value)),
        portal=change.portal,
        stochastic=change.stochastic,
    )


def _edge_key(edge: Edge, directed: bool) -> Edge | frozenset[int]:
    return edge if directed else frozenset(edge)


@dataclass(frozen=True)
class Plan:
    """Every optimal walk (start first) of one planning question, with its value and length."""

    value: float
    length: int
    walks: tuple[tuple[int, ...], ...]


def _moves(
    state: ProductState,
    successors: Mapping[int, tuple[int, ...]],
    environment_: Environment,
    rewarded: frozenset[int],
) -> Iterable[ProductState]:
    node, collected, jumped = state
    for nxt in successors[node]:
        yield nxt, collected | ({nxt} & rewarded), jumped
    if environment_.portal == node and not jumped:
        for nxt in environment_.states:
            if nxt != node:
                yield nxt, collected | ({nxt} & rewarded), True


def optimal_plan(
    env: Environment,
    start: int,
    rewards: Mapping[int, float] | None = None,
    first_step: int | None = None,
) -> Plan:
    """Find every walk from ``start`` that collects the most reward in the fewest steps."""
    rewards = env.reward_map() if rewards is None else dict(rewards)
    rewarded = frozenset(state for state, value in rewards.items() if value)
    successors = env.successors()
    origin: ProductState = (start, frozenset({start}) & rewarded, False)
    distance = {origin: 0}
    parents: dict[ProductState, list[ProductState]] = {origin: []}
    if first_step is not None:
        jumped = first_step not in successors[start]
        forced: ProductState = (first_step, origin[1] | ({first_step} & rewarded), jumped)
        distance = {origin: 0, forced: 1}
        parents[forced] = [origin]
        origin = forced
    queue = deque([origin])
    while queue:
        state = queue.popleft()
        for nxt in _moves(state, successors, env, rewarded):
            if nxt not in distance:
                distance[nxt] = distance[state] + 1
                parents[nxt] = [state]
                queue.append(nxt)
            elif distance[nxt] == distance[state] + 1 and state not in parents[nxt]:
                parents[nxt].append(state)

    def value_of(state: ProductState) -> float:
        return sum(rewards[s] for s in state[1])

    reached = {s: d for s, d in distance.items() if first_step is None or d >= 1}
    best_value = max(value_of(state) for state in reached)
    best_length = min(d for s, d in reached.items() if value_of(s) == best_value)
    targets = [s for s, d in reached.items() if value_of(s) == best_value and d == best_length]
    walks: set[tuple[int, ...]] = set()
    for target in targets:
        walks.update(_walks_to(target, parents))
    return Plan(value=best_value, length=best_length, walks=tuple(sorted(walks)))


def _walks_to(
    target: ProductState, parents: Mapping[ProductState, list[ProductState]]
) -> set[tuple[int, ...]]:
    """All shortest walks from the search origin to ``target``, as state sequences."""
    if not parents[target]:
        return {(target[0],)}
    return {
        walk + (target[0],) for parent in parents[target] for walk in _walks_to(parent, parents)
    }


@dataclass(frozen=True)
class WalkCheck:
    """What following a walk gives: validity, reward (0 when invalid), steps, and revisits."""

    valid: bool
    value: float
    length: int
    revisits: bool


def follow_walk(
    env: Environment, walk: tuple[int, ...], rewards: Mapping[int, float] | None = None
) -> WalkCheck:
    """Follow ``walk`` (start first) step by step and report validity, reward and length."""
    rewards = env.reward_map() if rewards is None else dict(rewards)
    successors = env.successors()
    jumped = False
    for here, there in zip(walk, walk[1:], strict=False):
        if here not in successors or there not in successors:
            return WalkCheck(False, 0.0, len(walk) - 1, len(set(walk)) < len(walk))
        if there in successors[here]:
            continue
        if env.portal == here and not jumped:
            jumped = True
            continue
        return WalkCheck(False, 0.0, len(walk) - 1, len(set(walk)) < len(walk))
    value = sum(rewards.get(state, 0.0) for state in set(walk))
    return WalkCheck(True, value, len(walk) - 1, len(set(walk)) < len(walk))


def expected_first_steps(env: Environment, start: int) -> dict[int, float]:
    """Expected reward of each first step from ``start`` (acyclic one-way graphs only)."""
    lotteries = dict(env.stochastic)
    graph = env.to_networkx()
    graph.add_edges_from((state, nxt) for state, exits in lotteries.items() for nxt, _ in exits)
    if not env.directed or not nx.is_directed_acyclic_graph(graph):
        raise ValueError("stochastic planning needs an acyclic one-way graph")
    rewards = env.reward_map()
    env_successors = env.successors()
    values: dict[int, float] = {}
    for state in reversed(list(nx.topological_sort(graph))):
        if state in lotteries:
            future = sum(p * values[nxt] for nxt, p in lotteries[state])
        else:
            future = max((values[nxt] for nxt in env_successors[state]), default=0.0)
        values[state] = rewards.get(state, 0.0) + future
    exits = [nxt for nxt, _ in lotteries[start]] if start in lotteries else env_successors[start]
    return {nxt: values[nxt] for nxt in exits}


def cluster_count(env: Environment) -> int:
    """Number of communities found by greedy modularity maximisation."""
    return len(nx.community.greedy_modularity_communities(env.to_networkx()))
