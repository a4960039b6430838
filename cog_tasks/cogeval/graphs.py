"""The six CogEval graphs as data (Momennejad et al. 2023, Fig. 1), numbered as the templates."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from cog_tasks.common.files import package_json
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


def _tuples(value: Any) -> Any:
    """``value`` read from JSON with every list in it, at any depth, made a tuple."""
    if isinstance(value, dict):
        return {key: _tuples(item) for key, item in value.items()}
    return tuple(_tuples(item) for item in value) if isinstance(value, list) else value


def _graph(fields: dict[str, Any]) -> GraphSpec:
    """A graph from its ``graphs.json`` entry (fields at their defaults are left out there)."""
    conditions = tuple(
        ConditionSpec(
            **(condition | {"change": LocalChange(**_tuples(condition.get("change", {})))})
        )
        for condition in fields["conditions"]
    )
    return GraphSpec(
        **{name: _tuples(value) for name, value in fields.items() if name != "conditions"},
        conditions=conditions,
    )


#: The six graphs by name, panels A to F, from ``graphs.json`` next to this module.
GRAPHS: dict[str, GraphSpec] = {
    spec.name: spec for spec in map(_graph, package_json("cog_tasks.cogeval", "graphs.json"))
}


def get_graph(name: str) -> GraphSpec:
    """Return the graph called ``name``."""
    if name not in GRAPHS:
        raise ParameterError(f"unknown CogEval graph {name!r}; valid: {sorted(GRAPHS)}")
    return GRAPHS[name]
