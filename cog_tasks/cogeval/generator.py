"""Generate CogEval dialogs (world and value question, then change and scored question)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from cog_tasks.cogeval.domains import Domain, get_domain, state_labels
from cog_tasks.cogeval.graphs import (
    ANALYSIS_FAMILIES,
    CONDITION_FAMILIES,
    COT_MODES,
    COUNT_CONDITIONS,
    GRAPHS,
    PAPER_DOMAINS,
    ConditionSpec,
    GraphSpec,
    cot_variants,
    get_graph,
    in_experiment,
)
from cog_tasks.cogeval.parsing import FORMAT_EXAMPLES, normalize_state
from cog_tasks.cogeval.planning import (
    Environment,
    cluster_count,
    environment,
    expected_first_steps,
    optimal_plan,
)
from cog_tasks.cogeval.scoring import AnswerKind, GraphContext
from cog_tasks.common.files import package_json
from cog_tasks.common.params import ParameterError

#: ``all``: every item; ``paper``: the paper's 3 domains and 5 condition families.
DESIGNS: tuple[str, ...] = ("all", "paper")
SINGLE_TURN_FAMILY = "Experiment2"
SYSTEM_MESSAGE = (
    "You will be told about a small world and asked to plan in it. Think it through "
    "step by step, then finish your reply with one last line that starts with 'Answer:'."
)
#: Goal-neutral search instructions, our wording of the paper's Experiment 2 text
#: (``cot_instructions.json`` next to this module).
COT_INSTRUCTIONS: dict[str, str] = package_json("cog_tasks.cogeval", "cot_instructions.json")
SHORTCUT_HINT = (
    "Hint: a new connection can open a shorter way; count the moves of every route to "
    "the reward, the new ones included, before you decide."
)


@dataclass(frozen=True)
class Turn:
    """One user turn: what the world is or how it changed, then the question."""

    context: str
    question: str

    @property
    def text(self) -> str:
        """The full turn as the model sees it."""
        return f"{self.context}\n\n{self.question}" if self.context else self.question


@dataclass(frozen=True)
class CogEvalItem:
    """One generated dialog (id ``graph.domain.condition.s<seed>[.cot]``); last turn scored."""

    id: str
    graph: str
    domain: str
    condition: str
    family: str
    cot: str
    seed: int
    system: str
    turns: tuple[Turn, ...]
    expected: tuple[str, ...]
    context: GraphContext = field(repr=False)

    @property
    def kind(self) -> AnswerKind:
        """The answer form of the scored question."""
        return self.context.kind

    def flattened_prompt(self) -> str:
        """The dialog as one text for lm-eval: system message, every context, the last question."""
        parts = [self.system, *(turn.context for turn in self.turns if turn.context)]
        return "\n\n".join([*parts, self.turns[-1].question])

    def to_record(self) -> dict[str, Any]:
        """A JSON-ready record (turns as texts, context as a dictionary)."""
        return {
            "id": self.id,
            "graph": self.graph,
            "domain": self.domain,
            "condition": self.condition,
            "family": self.family,
            "cot": self.cot,
            "seed": self.seed,
            "system": self.system,
            "turns": [turn.text for turn in self.turns],
            "prompt": self.flattened_prompt(),
            "expected": list(self.expected),
            "graph_context": self.context.to_dict(),
        }


def answer_text(label: str) -> str:
    """How a state is written in an answer: ``room 7`` becomes ``7``."""
    words = label.split(" ", 1)
    if words[0] in ("room", "the") and len(words) == 2:
        return words[1]
    return label


def _capital(sentence: str) -> str:
    return sentence[:1].upper() + sentence[1:]


def _join(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


class _Writer:
    """Writes the sentences of one graph in one domain."""

    def __init__(self, spec: GraphSpec, domain: Domain, labels: dict[int, str]):
        self.spec = spec
        self.domain = domain
        self.labels = labels

    def connections(self, edges: Iterable[tuple[int, int]]) -> list[str]:
        edges = list(edges)
        if self.spec.directed:
            return [
                _capital(self.domain.one_way.format(a=self.labels[a], b=self.labels[b]))
                for a, b in edges
            ]
        grouped: dict[int, list[int]] = {}
        for a, b in edges:
            grouped.setdefault(a, []).append(b)
        sentences = []
        for a, others in grouped.items():
            names = [self.labels[b] for b in others]
            template = self.domain.neighbours if len(names) > 1 else self.domain.two_way
            sentences.append(_capital(template.format(a=self.labels[a], b=_join(names))))
        return sentences

    def reward(self, state: int, value: float, changed: bool = False) -> str:
        if value > 0:
            template = self.domain.reward
        elif value < 0:
            template = self.domain.penalty
        else:
            template = self.domain.no_reward
        sentence = _capital(template.format(s=self.labels[state], v=f"{abs(value):g}"))
        return f"Now {sentence[0].lower()}{sentence[1:]}" if changed and value else sentence

    def describe(self, rewards: bool = True) -> str:
        spec = self.spec
        lobby = spec.entry_is_lobby and self.labels[spec.start] == "the lobby"
        parts = [self.domain.setting.format(n=len(spec.states) - lobby)]
        if lobby:
            parts.append("There is also a lobby.")
        parts += self.connections(spec.edges)
        if spec.directed:
            direction = " Connections work only in the direction given."
        else:
            direction = " Every connection works in both directions."
        if not rewards:
            parts.append(f"You can move only along these connections.{direction}")
            return " ".join(parts)
        parts += [self.reward(state, value) for state, value in spec.rewards]
        parts.append(
            f"You can move only along these connections.{direction} Rewards and costs count "
            f"only the first time you reach a {self.domain.noun}."
        )
        return " ".join(parts)

    def change(self, condition: ConditionSpec) -> str:
        change = condition.change
        known = set(self.spec.states)
        parts: list[str] = []
        for a, b in change.remove_edges:
            parts.append(_capital(self.domain.blocked.format(a=self.labels[a], b=self.labels[b])))
        new_states = sorted(
            {s for edge in change.add_edges for s in edge} - known,
            key=lambda s: [s for e in change.add_edges for s in e].index(s),
        )
        if new_states:
            names = _join([self.labels[s] for s in new_states])
            if len(new_states) > 1:
                parts.append(f"You discover new {self.domain.plural}: {names}.")
            else:
                parts.append(f"You discover a new {self.domain.noun}: {names}.")
        parts += self.connections(change.add_edges)
        parts += [self.reward(state, value, changed=True) for state, value in change.rewards]
        if change.portal is not None:
            portal = _capital(self.domain.portal.format(s=self.labels[change.portal]))
            parts.append(f"{portal} Using it counts as one move.")
        for state, exits in change.stochastic:
            outcomes = _join(
                [self.domain.outcome.format(p=f"{p:g}", b=self.labels[nxt]) for nxt, p in exits]
            )
            parts.append(_capital(self.domain.lottery.format(a=self.labels[state], b=outcomes)))
        if not parts:
            return ""
        return "Something has changed. " + " ".join(parts)


def _value_question(writer: _Writer, stochastic: bool, again: bool) -> str:
    spec, domain = writer.spec, writer.domain
    start = writer.labels[spec.start]
    lead = "Starting again from" if again else "Starting from"
    if spec.value_answer == "first_step":
        aim = "the highest expected amount of" if stochastic else "the most"
        return (
            f"{lead} {start}, you want to end up with {aim} {domain.unit}, in as few moves as "
            f"possible. Which {domain.noun} do you move to first? "
            f"End with a line 'Answer: {FORMAT_EXAMPLES['state']}' naming that {domain.noun}."
        )
    return (
        f"{lead} {start}, which route collects the most {domain.unit}? If several routes "
        f"collect the same amount, give one with the fewest moves. End with a line "
        f"'Answer: {FORMAT_EXAMPLES['route']}' listing the {domain.plural} of the route in "
        f"order, starting with {start}, separated by commas."
    )


def _scored_question(writer: _Writer, condition: ConditionSpec) -> str:
    domain, labels = writer.domain, writer.labels
    if condition.source is not None and condition.target is not None:
        source, target = labels[condition.source], labels[condition.target]
        return (
            f"What is the shortest route from {source} to {target}? End with a line "
            f"'Answer: {FORMAT_EXAMPLES['route']}' listing the {domain.plural} in order, "
            f"starting with {source}, separated by commas."
        )
    if condition.name in COUNT_CONDITIONS:
        return (
            f"The {domain.plural} form groups: within a group most {domain.plural} are "
            f"directly connected, while only a few connections run between groups. How many "
            f"such groups are there? End with a line 'Answer: {FORMAT_EXAMPLES['count']}' "
            "giving the number."
        )
    if condition.name == "mapDrawing":
        order = (
            " (for a one-way connection, write where it starts first)"
            if writer.spec.directed
            else ""
        )
        return (
            f"Draw a map of this world: list every direct connection between two "
            f"{domain.plural}{order}. End with a line 'Answer: {FORMAT_EXAMPLES['map']}' with all "
            f"connections separated by commas."
        )
    question = _value_question(writer, bool(condition.change.stochastic), again=True)
    return f"{SHORTCUT_HINT} {question}" if condition.change.hint else question


def _graph_context(
    spec: GraphSpec, condition: ConditionSpec, env: Environment, labels: dict[int, str]
) -> tuple[GraphContext, tuple[str, ...]]:
    """The scorer's context and every optimal answer of one question."""
    names = {state: normalize_state(labels[state]) for state in env.states}
    base = {
        "directed": env.directed,
        "states": tuple(names[s] for s in env.states),
        "edges": tuple((names[a], names[b]) for a, b in env.edges),
        "portal": names[env.portal] if env.portal is not None else None,
    }
    if condition.name in COUNT_CONDITIONS:
        count = cluster_count(env)
        return GraphContext(kind="count", **base), (f"Answer: {count}",)
    if condition.name == "mapDrawing":
        pairs = ", ".join(
            f"{answer_text(labels[a])} - {answer_text(labels[b])}" for a, b in env.edges
        )
        return GraphContext(kind="map", **base), (f"Answer: {pairs}",)
    if condition.source is not None and condition.target is not None:
        start, rewards = condition.source, {condition.target: 1.0}
    else:
        start, rewards = spec.start, env.reward_map()
    plan = optimal_plan(env, start, rewards)
    context = GraphContext(
        kind="path"
        if condition.source is not None or spec.value_answer == "path"
        else "first_step",
        rewards=tuple((names[s], v) for s, v in rewards.items()),
        start=names[start],
        stochastic=tuple(
            (names[s], tuple((names[n], p) for n, p in exits)) for s, exits in env.stochastic
        ),
        best_value=plan.value,
        best_length=plan.length,
        **base,
    )
    if env.stochastic:
        values = expected_first_steps(env, start)
        best = max(values.values())
        context = replace(context, best_value=best, best_length=1)
        firsts = sorted(s for s, v in values.items() if v == best)
        return context, tuple(f"Answer: {answer_text(labels[s])}" for s in firsts)
    if context.kind == "first_step":
        firsts = sorted({walk[1] for walk in plan.walks})
        return context, tuple(f"Answer: {answer_text(labels[s])}" for s in firsts)
    return context, tuple(
        "Answer: " + ", ".join(answer_text(labels[s]) for s in walk) for walk in plan.walks
    )


def make_item(
    graph: str, domain: str, condition: str, seed: int = 0, cot: str = "none"
) -> CogEvalItem:
    """Generate one dialog; ``seed`` 0 gives the reference set."""
    if cot not in COT_MODES:
        raise ParameterError(f"unknown cot mode {cot!r}; known: {list(COT_MODES)}")
    spec = get_graph(graph)
    condition_spec = spec.condition(condition)
    labels = state_labels(spec, domain, seed)
    writer = _Writer(spec, get_domain(domain), labels)
    env = environment(spec, condition_spec)
    context, expected = _graph_context(spec, condition_spec, env, labels)
    if condition_spec.family == SINGLE_TURN_FAMILY:
        turns = [Turn(writer.describe(rewards=False), _scored_question(writer, condition_spec))]
    else:
        first = Turn(writer.describe(), _value_question(writer, stochastic=False, again=False))
        turns = [first]
        if condition != "valuePath":
            scored = _scored_question(writer, condition_spec)
            turns.append(Turn(writer.change(condition_spec), scored))
    if cot != "none":
        last = turns[-1]
        turns[-1] = Turn(last.context, f"{COT_INSTRUCTIONS[cot]} {last.question}")
    suffix = "" if cot == "none" else f".{cot}"
    return CogEvalItem(
        id=f"{graph}.{domain}.{condition}.s{seed}{suffix}",
        graph=graph,
        domain=domain,
        condition=condition,
        family=condition_spec.family,
        cot=cot,
        seed=seed,
        system=SYSTEM_MESSAGE,
        turns=tuple(turns),
        expected=expected,
        context=context,
    )


def split_names(value: str | Sequence[str] | None) -> list[str] | None:
    """Accept names as ``"a,b"`` (how command lines give them) or as a list."""
    if value is None:
        return None
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    return [str(part) for part in value]


def generate_items(
    graphs: Sequence[str] | None = None,
    domains: Sequence[str] | None = None,
    conditions: Sequence[str] | None = None,
    seed: int = 0,
    cot: str = "none",
    *,
    design: str = "all",
    experiment: int | None = None,
) -> list[CogEvalItem]:
    """Generate every (graph, domain, condition) combination that exists, in a stable order."""
    if design not in DESIGNS:
        raise ParameterError(f"unknown CogEval design {design!r}; valid: {list(DESIGNS)}")
    specs = [get_graph(name) for name in (graphs or list(GRAPHS))]
    for name in domains or ():
        get_domain(name)
    known_conditions = {c.name for spec in GRAPHS.values() for c in spec.conditions}
    for name in conditions or ():
        if name not in known_conditions:
            raise ParameterError(
                f"unknown CogEval condition {name!r}; valid: {sorted(known_conditions)}"
            )
    variants = cot_variants(experiment, cot)
    paper = design == "paper"
    items = []
    for spec in specs:
        for domain in spec.domains:
            if (domains and domain not in domains) or (paper and domain not in PAPER_DOMAINS):
                continue
            for condition in spec.conditions:
                name = condition.name
                if (
                    (conditions and name not in conditions)
                    or not in_experiment(name, experiment)
                    or (paper and CONDITION_FAMILIES[name] not in ANALYSIS_FAMILIES)
                ):
                    continue
                items += [
                    make_item(spec.name, domain, name, seed=seed, cot=variant)
                    for variant in variants
                ]
    return items
