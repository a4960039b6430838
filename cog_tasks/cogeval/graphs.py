"""The six CogEval graphs as data (Momennejad et al. 2023, Fig. 1), numbered as the templates."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from cog_tasks.common.params import ParameterError

Edge = tuple[int, int]

#: Condition families of Table 1 of the paper, plus the two extra families.
CONDITION_FAMILIES: dict[str, str] = {
    **dict.fromkeys(("valuePath", "1stepPath", "2stepPath", "3stepPath", "nstepPath"), "Traversal"),
    **dict.fromkeys(("rewardReval", "policyReval"), "RewardReval"),
    **dict.fromkeys(("transReval", "transRevalStochastic"), "TransitionReval"),
    **dict.fromkeys(
        ("nonteleShortcut", "nonteleShortcutCoT", "teleShortcut", "teleShortcutCoT"), "Shortcut"
    ),
    **dict.fromkeys(("nonteleDetour", "teleDetour"), "Detour"),
    "nClusters": "Clusters",
    "mapDrawing": "Map",
    **dict.fromkeys(("exp2ClusterCount", "exp2WithinCluster", "exp2OneClusterAway"), "Experiment2"),
}

#: Conditions answered with a number of clusters.
COUNT_CONDITIONS: frozenset[str] = frozenset({"nClusters", "exp2ClusterCount"})

#: The three domains the paper's analysis crosses with every graph (Table 2: domain df 2).
PAPER_DOMAINS: tuple[str, ...] = ("ordRooms", "unordSpatial", "socialTies")

#: The five families that enter the analysis of deviance, in the paper's order.
ANALYSIS_FAMILIES: tuple[str, ...] = (
    "Traversal", "RewardReval", "TransitionReval", "Shortcut", "Detour"
)  # fmt: skip

CONDITIONS: tuple[str, ...] = tuple(CONDITION_FAMILIES)

ROOM_AND_NAMED_DOMAINS = ("ordRooms", "unordRooms", "unordSpatial", "socialTies")

#: Reasoning instructions on the scored question (Experiment 2's prompt variants).
COT_MODES: tuple[str, ...] = ("none", "bfs", "dfs")

#: The paper's experiments: 1 (every graph, domain, condition) and 2 (graph D, every ``cot``).
EXPERIMENTS: tuple[int, ...] = (1, 2)


def in_experiment(condition: str, experiment: int | None) -> bool:
    """Whether a condition belongs to ``experiment`` (every condition when it is ``None``)."""
    if experiment is None:
        return True
    return (CONDITION_FAMILIES.get(condition) == "Experiment2") == (experiment == 2)


def cot_variants(experiment: int | None, cot: str | None) -> tuple[str, ...]:
    """The reasoning instructions a selection asks: all three for Experiment 2 or unset ``cot``."""
    if experiment is not None and experiment not in EXPERIMENTS:
        raise ParameterError(
            f"CogEval experiment: {experiment!r} is not valid; valid: 1, 2, or unset"
        )
    if experiment != 2:
        return COT_MODES if cot is None else (cot,)
    if cot not in (None, "none"):
        raise ParameterError(
            f"CogEval cot: {cot!r} with experiment=2, which runs every variant "
            "(none, bfs, dfs); leave cot unset"
        )
    return COT_MODES


@dataclass(frozen=True)
class LocalChange:
    """A local change announced in the follow-up turn (reward 0 removes one; negative: penalty)."""

    add_edges: tuple[Edge, ...] = ()
    remove_edges: tuple[Edge, ...] = ()
    rewards: tuple[tuple[int, float], ...] = ()
    portal: int | None = None
    stochastic: tuple[tuple[int, tuple[tuple[int, float], ...]], ...] = ()
    hint: bool = False


@dataclass(frozen=True)
class ConditionSpec:
    """One task condition on one graph (``source``/``target`` for traversal questions)."""

    name: str
    change: LocalChange = field(default_factory=LocalChange)
    source: int | None = None
    target: int | None = None

    @property
    def family(self) -> str:
        """The condition family (Table 1 group)."""
        return CONDITION_FAMILIES[self.name]


@dataclass(frozen=True)
class GraphSpec:
    """One latent graph of the paper (``panel``: its letter in Fig. 1)."""

    name: str
    panel: str
    description: str
    directed: bool
    states: tuple[int, ...]
    start: int
    edges: tuple[Edge, ...]
    rewards: tuple[tuple[int, float], ...]
    conditions: tuple[ConditionSpec, ...]
    reference: str
    clusters: tuple[tuple[int, ...], ...] = ()
    value_answer: Literal["first_step", "path"] = "path"
    entry_is_lobby: bool = False
    domains: tuple[str, ...] = ROOM_AND_NAMED_DOMAINS

    def condition(self, name: str) -> ConditionSpec:
        """Return the spec of condition ``name`` on this graph."""
        for spec in self.conditions:
            if spec.name == name:
                return spec
        known = [spec.name for spec in self.conditions]
        raise ParameterError(f"graph {self.name!r} has no condition {name!r}; valid: {known}")

    def all_states(self) -> tuple[int, ...]:
        """States of the base graph plus every state a condition adds, sorted."""
        extra = {
            state
            for spec in self.conditions
            for edge in spec.change.add_edges
            for state in edge
            if state not in self.states
        }
        return tuple(sorted(set(self.states) | extra))


def _path_edges(*paths: tuple[int, ...]) -> tuple[Edge, ...]:
    """Edges along one or more state sequences."""
    return tuple((a, b) for path in paths for a, b in zip(path, path[1:], strict=False))


def _fan(*groups: tuple[int, tuple[int, ...]]) -> tuple[Edge, ...]:
    """Undirected edges from ``(state, neighbours)`` listings, each edge once."""
    seen: set[frozenset[int]] = set()
    edges: list[Edge] = []
    for state, neighbours in groups:
        for other in neighbours:
            key = frozenset((state, other))
            if key not in seen:
                seen.add(key)
                edges.append((state, other))
    return tuple(edges)


def _line_conditions(
    *,
    near_end: int,
    far_end: int,
    far_last_edge: Edge,
    detour_rooms: tuple[int, ...],
    steps: tuple[tuple[str, int, int], ...],
    stochastic: tuple[tuple[int, tuple[tuple[int, float], ...]], ...] = (),
) -> tuple[ConditionSpec, ...]:
    """Conditions of the two line graphs (A and C), which share one design."""
    swap = LocalChange(add_edges=((3, 6), (4, 5)), remove_edges=((3, 5), (4, 6)))
    shortcut_room = detour_rooms[0]
    conditions = [
        ConditionSpec("valuePath"),
        ConditionSpec("transReval", swap),
        ConditionSpec("rewardReval", LocalChange(rewards=((near_end, 100.0),))),
        ConditionSpec("teleShortcut", LocalChange(portal=0)),
        ConditionSpec("teleShortcutCoT", LocalChange(portal=0, hint=True)),
        ConditionSpec(
            "nonteleShortcut", LocalChange(add_edges=((0, shortcut_room), (shortcut_room, far_end)))
        ),
        ConditionSpec(
            "nonteleShortcutCoT",
            LocalChange(add_edges=((0, shortcut_room), (shortcut_room, far_end)), hint=True),
        ),
        ConditionSpec(
            "teleDetour",
            LocalChange(
                add_edges=_path_edges((0, *detour_rooms)),
                remove_edges=(far_last_edge,),
                portal=detour_rooms[-1],
            ),
        ),
        ConditionSpec(
            "nonteleDetour",
            LocalChange(
                add_edges=_path_edges((0, *detour_rooms, far_end)), remove_edges=(far_last_edge,)
            ),
        ),
    ]
    if stochastic:
        conditions.append(ConditionSpec("transRevalStochastic", LocalChange(stochastic=stochastic)))
    conditions += [ConditionSpec(name, source=a, target=b) for name, a, b in steps]
    conditions.append(ConditionSpec("mapDrawing"))
    return tuple(conditions)


def _community_conditions(
    *,
    transition_reval: LocalChange,
    reward_reval: LocalChange,
    policy_reval: LocalChange,
    shortcut_edge: Edge,
    detour: LocalChange,
    start: int,
    steps: tuple[tuple[str, int, int], ...],
) -> tuple[ConditionSpec, ...]:
    """Conditions of the three community graphs (D, E and F)."""
    return (
        ConditionSpec("valuePath"),
        ConditionSpec("transReval", transition_reval),
        ConditionSpec("rewardReval", reward_reval),
        ConditionSpec("policyReval", policy_reval),
        ConditionSpec("teleShortcut", LocalChange(portal=start)),
        ConditionSpec("teleShortcutCoT", LocalChange(portal=start, hint=True)),
        ConditionSpec("nonteleShortcut", LocalChange(add_edges=(shortcut_edge,))),
        ConditionSpec("nonteleShortcutCoT", LocalChange(add_edges=(shortcut_edge,), hint=True)),
        ConditionSpec("teleDetour", LocalChange(remove_edges=detour.remove_edges, portal=start)),
        ConditionSpec("nonteleDetour", detour),
        *(ConditionSpec(name, source=a, target=b) for name, a, b in steps),
        ConditionSpec("nClusters"),
        ConditionSpec("mapDrawing"),
    )


#: The paper's Experiment 2 on graph D (Fig. 3): one turn, no rewards, any ``cot``.
EXPERIMENT_2: tuple[ConditionSpec, ...] = (
    ConditionSpec("exp2ClusterCount"),
    ConditionSpec("exp2WithinCluster", source=11, target=8),
    ConditionSpec("exp2OneClusterAway", source=1, target=12),
)

N7LINE = GraphSpec(
    name="n7line",
    panel="A",
    description="Line graph: a lobby with two one-way corridors of three rooms each.",
    directed=True,
    states=tuple(range(7)),
    start=0,
    edges=_path_edges((0, 1, 3, 5), (0, 2, 4, 6)),
    rewards=((5, 10.0), (6, 50.0)),
    value_answer="first_step",
    entry_is_lobby=True,
    conditions=_line_conditions(
        near_end=5,
        far_end=6,
        far_last_edge=(4, 6),
        detour_rooms=(7, 8, 9),
        steps=(("1stepPath", 1, 3), ("2stepPath", 2, 6)),
    ),
    reference="Momennejad et al. (2017), Nat. Hum. Behav. 1, 680-692",
)

N7TREE = GraphSpec(
    name="n7tree",
    panel="B",
    description="Tree graph: a root with two branches that each split into two leaves.",
    directed=True,
    states=tuple(range(1, 8)),
    start=1,
    edges=((1, 2), (1, 3), (2, 4), (2, 5), (3, 6), (3, 7)),
    rewards=((4, 56.0), (5, 22.0), (6, 10.0), (7, 50.0)),
    domains=(*ROOM_AND_NAMED_DOMAINS, "objectRelations"),
    conditions=(
        ConditionSpec("valuePath"),
        ConditionSpec("transReval", LocalChange(remove_edges=((2, 4),))),
        ConditionSpec(
            "rewardReval", LocalChange(rewards=((4, 30.0), (5, 40.0), (6, 60.0), (7, 20.0)))
        ),
        ConditionSpec("teleShortcut", LocalChange(portal=1)),
        ConditionSpec("teleShortcutCoT", LocalChange(portal=1, hint=True)),
        ConditionSpec("nonteleShortcut", LocalChange(add_edges=((1, 4),))),
        ConditionSpec("nonteleShortcutCoT", LocalChange(add_edges=((1, 4),), hint=True)),
        ConditionSpec(
            "teleDetour", LocalChange(add_edges=((1, 8),), remove_edges=((2, 4),), portal=8)
        ),
        ConditionSpec(
            "nonteleDetour", LocalChange(add_edges=((1, 8), (8, 4)), remove_edges=((2, 4),))
        ),
        ConditionSpec("1stepPath", source=3, target=6),
        ConditionSpec("2stepPath", source=1, target=6),
        ConditionSpec("mapDrawing"),
    ),
    reference="Momennejad et al. (2018), eLife 7, e32548",
)

N13LINE = GraphSpec(
    name="n13line",
    panel="C",
    description="Graph A with double depth: two one-way corridors of six rooms each.",
    directed=True,
    states=tuple(range(13)),
    start=0,
    edges=_path_edges((0, 1, 3, 5, 7, 9, 11), (0, 2, 4, 6, 8, 10, 12)),
    rewards=((11, 10.0), (12, 50.0)),
    value_answer="first_step",
    entry_is_lobby=True,
    conditions=_line_conditions(
        near_end=11,
        far_end=12,
        far_last_edge=(10, 12),
        detour_rooms=(13, 14, 15, 16, 17, 18),
        steps=(("1stepPath", 1, 3), ("2stepPath", 2, 6), ("3stepPath", 3, 9), ("nstepPath", 2, 12)),
        stochastic=((3, ((5, 0.9), (6, 0.1))), (4, ((6, 0.9), (5, 0.1)))),
    ),
    reference="Momennejad et al. (2017), Nat. Hum. Behav. 1, 680-692 (doubled depth)",
)

_N15STAR_EDGES = _fan(
    (1, (7, 10, 13, 11)), (2, (5, 8, 11, 14)), (3, (6, 9, 12, 8)), (4, (7, 10, 13, 15)),
    (5, (8, 11, 14)), (6, (9, 12, 15)), (7, (10, 13)), (8, (14,)), (9, (12, 15)), (10, (13,)),
    (11, (14,)), (12, (15,)),
)  # fmt: skip
N15STAR = GraphSpec(
    name="n15star",
    panel="D",
    description="Community graph: three clusters of five states, each state with four links.",
    directed=False,
    states=tuple(range(1, 16)),
    start=1,
    edges=_N15STAR_EDGES,
    rewards=((8, 10.0),),
    clusters=((1, 4, 7, 10, 13), (2, 5, 8, 11, 14), (3, 6, 9, 12, 15)),
    conditions=_community_conditions(
        transition_reval=LocalChange(add_edges=((1, 3),)),
        reward_reval=LocalChange(rewards=((14, 5.0),)),
        policy_reval=LocalChange(rewards=((11, -20.0),)),
        shortcut_edge=(11, 8),
        detour=LocalChange(add_edges=((1, 15),), remove_edges=((1, 11),)),
        start=1,
        steps=(
            ("1stepPath", 1, 7),
            ("2stepPath", 1, 2),
            ("3stepPath", 1, 15),
            ("nstepPath", 1, 12),
        ),
    )
    + EXPERIMENT_2,
    reference="Schapiro et al. (2013), Nat. Neurosci. 16, 486-492",
)

_N16CLUSTER_EDGES = _fan(
    (1, (2, 3, 4, 7)), (2, (1, 3, 4, 16)), (3, (1, 2, 4, 5)), (4, (1, 2, 3, 14)),
    (5, (6, 7, 8, 3)), (6, (5, 7, 8, 12)), (7, (1, 8, 6, 5)), (8, (5, 6, 7, 10)),
    (9, (10, 11, 12, 15)), (10, (9, 11, 8, 12)), (11, (13, 9, 12, 10)), (12, (9, 10, 11, 6)),
    (13, (14, 15, 16, 11)), (14, (4, 13, 15, 16)), (15, (13, 14, 16, 9)), (16, (13, 14, 15, 2)),
)  # fmt: skip
N16CLUSTER = GraphSpec(
    name="n16cluster",
    panel="E",
    description="Community graph: four clusters of four states joined in a ring.",
    directed=False,
    states=tuple(range(1, 17)),
    start=1,
    edges=_N16CLUSTER_EDGES,
    rewards=((16, 5.0), (10, 10.0), (5, -15.0)),
    clusters=((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12), (13, 14, 15, 16)),
    conditions=_community_conditions(
        transition_reval=LocalChange(remove_edges=((2, 16), (6, 12), (1, 7), (13, 11))),
        reward_reval=LocalChange(rewards=((16, 0.0),)),
        policy_reval=LocalChange(rewards=((2, -10.0),)),
        shortcut_edge=(16, 9),
        detour=LocalChange(remove_edges=((13, 11), (15, 9))),
        start=1,
        steps=(
            ("1stepPath", 8, 6),
            ("2stepPath", 14, 9),
            ("3stepPath", 3, 15),
            ("nstepPath", 15, 7),
        ),
    ),
    reference="community graph of reference [35] of the paper (Fig. 1E)",
)

_N21STAR_EDGES = _fan(
    (1, (2, 3, 4, 5, 6, 7)), (12, (13, 14, 8, 9, 10, 11)), (21, (15, 16, 17, 18, 19, 20)),
    (6, (7, 2, 3, 4, 5)), (3, (4, 5, 7, 2)), (14, (4, 8, 9, 10, 11)), (10, (11, 13, 8, 9)),
    (19, (20, 15, 16, 17, 18)), (5, (7, 2, 16)), (8, (9, 11, 13)), (9, (11, 13)),
    (18, (20, 15, 16, 17)), (7, (2, 4)), (11, (13,)), (20, (15, 16, 17)), (2, (4,)), (13, (17,)),
    (17, (15,)), (15, (16,)),
)  # fmt: skip
N21STAR = GraphSpec(
    name="n21star",
    panel="F",
    description="Community graph: three dense clusters of seven states with single bridges.",
    directed=False,
    states=tuple(range(1, 22)),
    start=4,
    edges=_N21STAR_EDGES,
    rewards=((13, 10.0),),
    clusters=(tuple(range(1, 8)), tuple(range(8, 15)), tuple(range(15, 22))),
    conditions=_community_conditions(
        transition_reval=LocalChange(add_edges=((4, 17),)),
        reward_reval=LocalChange(rewards=((10, 5.0),)),
        policy_reval=LocalChange(rewards=((14, -20.0),)),
        shortcut_edge=(14, 13),
        detour=LocalChange(add_edges=((4, 16),), remove_edges=((4, 14),)),
        start=4,
        steps=(
            ("1stepPath", 1, 4),
            ("2stepPath", 5, 4),
            ("3stepPath", 7, 18),
            ("nstepPath", 4, 18),
        ),
    ),
    reference="community graph of reference [42] of the paper (Fig. 1F)",
)

GRAPHS: dict[str, GraphSpec] = {
    spec.name: spec for spec in (N7LINE, N7TREE, N13LINE, N15STAR, N16CLUSTER, N21STAR)
}


def get_graph(name: str) -> GraphSpec:
    """Return the graph called ``name``."""
    if name not in GRAPHS:
        raise ParameterError(f"unknown CogEval graph {name!r}; valid: {sorted(GRAPHS)}")
    return GRAPHS[name]
