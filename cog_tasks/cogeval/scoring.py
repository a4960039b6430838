"""Deterministic, graph-aware scoring: exact failure modes with a graph, else from the answers."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal

from cog_tasks.cogeval.parsing import (
    UNPARSEABLE,
    extract_answer,
    has_tuples,
    parse_count,
    read_final_answer,
    read_route,
    split_map,
    split_route,
)
from cog_tasks.cogeval.planning import Environment, expected_first_steps, follow_walk, optimal_plan
from cog_tasks.common.files import DataFileError

AnswerKind = Literal["path", "first_step", "count", "map"]
FAILURE_MODES: tuple[str, ...] = (
    "no_answer", "unparseable", "invalid_edge", "loop", "suboptimal", "wrong_goal", "wrong_count"
)  # fmt: skip


@dataclass(frozen=True)
class GraphContext:
    """The environment of one question, states by normalised name so it travels in JSON."""

    kind: AnswerKind
    directed: bool
    states: tuple[str, ...]
    edges: tuple[tuple[str, str], ...]
    rewards: tuple[tuple[str, float], ...] = ()
    start: str | None = None
    portal: str | None = None
    stochastic: tuple[tuple[str, tuple[tuple[str, float], ...]], ...] = ()
    best_value: float = 0.0
    best_length: int = 0

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dictionary (lists instead of tuples)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GraphContext:
        """Rebuild a context written by :meth:`to_dict`."""
        try:
            return cls(
                kind=data["kind"],
                directed=bool(data["directed"]),
                states=tuple(data["states"]),
                edges=tuple((a, b) for a, b in data["edges"]),
                rewards=tuple((s, float(v)) for s, v in data.get("rewards", ())),
                start=data.get("start"),
                portal=data.get("portal"),
                stochastic=tuple(
                    (s, tuple((n, float(p)) for n, p in exits))
                    for s, exits in data.get("stochastic", ())
                ),
                best_value=float(data.get("best_value", 0.0)),
                best_length=int(data.get("best_length", 0)),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise DataFileError(f"malformed graph context: {error!r}") from error

    def environment(self) -> tuple[Environment, dict[str, int]]:
        """The context as a planning :class:`Environment` over integer states."""
        index = {name: i for i, name in enumerate(self.states)}
        env = Environment(
            directed=self.directed,
            states=tuple(range(len(self.states))),
            edges=tuple((index[a], index[b]) for a, b in self.edges),
            rewards=tuple((index[s], v) for s, v in self.rewards),
            portal=index[self.portal] if self.portal is not None else None,
            stochastic=tuple(
                (index[s], tuple((index[n], p) for n, p in exits)) for s, exits in self.stochastic
            ),
        )
        return env, index


@dataclass(frozen=True)
class ScoreResult:
    """The score (1 or 0) of one reply, its failure mode (``None`` when correct) and answer text."""

    score: int
    failure_mode: str | None
    answer: str | None


def infer_kind(condition: str, expected: Sequence[str]) -> AnswerKind:
    """Answer form from the condition name and the expected answers."""
    if condition == "nClusters":
        return "count"
    if condition == "mapDrawing":
        return "map"
    routes = [split_route(extract_answer(text) or "") for text in expected]
    return "first_step" if all(len(route) == 1 for route in routes) else "path"


def score_response(
    response: str,
    expected: Sequence[str],
    kind: AnswerKind,
    context: GraphContext | None = None,
    start: str | None = None,
    questions: int = 1,
    scored: int | None = None,
) -> ScoreResult:
    """Score one reply against every optimal answer (a route may add or omit the start)."""
    if not expected:
        raise ValueError("no expected answer given")
    reading = read_final_answer(response, questions, scored)
    answer = reading.text
    if reading.problem is not None or answer is None:
        return ScoreResult(0, reading.problem or "no_answer", answer)
    if kind == "count":
        return _score_count(answer, expected)
    if kind == "map":
        if has_tuples(reading.raw):
            return ScoreResult(0, UNPARSEABLE, answer)
        return _score_map(answer, expected, context)
    routes = [split_route(extract_answer(text) or text) for text in expected]
    known = set(context.states) if context else {state for route in routes for state in route}
    route = read_route(answer, known)
    if route is None:
        return ScoreResult(0, UNPARSEABLE, answer)
    start = (context.start if context else None) or start
    if kind == "first_step":
        chosen = route[1] if len(route) > 1 and route[0] == start else route[0]
        if any(chosen == option[-1] for option in routes):
            return ScoreResult(1, None, answer)
        return ScoreResult(0, _first_step_failure(chosen, context), answer)
    if any(_same_route(route, option, start) for option in routes if option):
        return ScoreResult(1, None, answer)
    if context is not None and start is not None and route[0] != start:
        route = [start, *route]
    mode = _route_failure(route, context) if context else _route_failure_from_answers(route, routes)
    return ScoreResult(0, mode, answer)


def _same_route(route: list[str], option: list[str], start: str | None) -> bool:
    """Whether ``route`` is ``option``, the start given or left out on either side."""
    if route == option:
        return True
    if start is None:
        return False
    return route == option[1:] if option[0] == start else route == [start, *option]


def _score_count(answer: str, expected: Sequence[str]) -> ScoreResult:
    count = parse_count(answer)
    if count is None:
        return ScoreResult(0, UNPARSEABLE, answer)
    targets = {parse_count(extract_answer(text) or text) for text in expected}
    return (
        ScoreResult(1, None, answer) if count in targets else ScoreResult(0, "wrong_count", answer)
    )


def _score_map(answer: str, expected: Sequence[str], context: GraphContext | None) -> ScoreResult:
    pairs = split_map(answer)
    if not pairs:
        return ScoreResult(0, UNPARSEABLE, answer)
    directed = bool(context and context.directed)

    def key(pair: tuple[str, str]) -> tuple[str, str] | frozenset[str]:
        return pair if directed else frozenset(pair)

    given = {key(pair) for pair in pairs}
    truths = [{key(pair) for pair in split_map(extract_answer(text) or text)} for text in expected]
    if given in truths:
        return ScoreResult(1, None, answer)
    invented = all(given - truth for truth in truths)
    return ScoreResult(0, "invalid_edge" if invented else "wrong_count", answer)


def _first_step_failure(chosen: str, context: GraphContext | None) -> str:
    if context is None or context.start is None:
        return "wrong_goal"
    env, index = context.environment()
    start = index[context.start]
    if chosen not in index:
        return "invalid_edge"
    if context.stochastic:
        known = index[chosen] in expected_first_steps(env, start)
        return "wrong_goal" if known else "invalid_edge"
    if not follow_walk(env, (start, index[chosen])).valid:
        return "invalid_edge"
    after = optimal_plan(env, start, first_step=index[chosen])
    return "wrong_goal" if after.value < context.best_value else "suboptimal"


def _route_failure(route: list[str], context: GraphContext) -> str:
    env, index = context.environment()
    if any(state not in index for state in route):
        return "invalid_edge"
    check = follow_walk(env, tuple(index[state] for state in route))
    if not check.valid:
        return "invalid_edge"
    if check.value < context.best_value:
        return "loop" if check.revisits else "wrong_goal"
    return "loop" if check.revisits else "suboptimal"


def _route_failure_from_answers(route: list[str], routes: list[list[str]]) -> str:
    if len(set(route)) < len(route):
        return "loop"
    if route[-1] not in {option[-1] for option in routes if option}:
        return "wrong_goal"
    if len(route) > max(len(option) for option in routes):
        return "suboptimal"
    return "invalid_edge"
