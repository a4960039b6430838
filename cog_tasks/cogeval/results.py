"""Reading and writing CogEval results: rescoring JSONL and score tables.

Inspect logs are read by the Inspect frontend, which hands the rows here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from cog_tasks.cogeval.graphs import CONDITION_FAMILIES
from cog_tasks.cogeval.parsing import (
    extract_answer,
    normalize_state,
    parse_count,
    split_map,
    split_route,
)
from cog_tasks.cogeval.scoring import AnswerKind, GraphContext, infer_kind, score_response
from cog_tasks.common.files import iter_jsonl, write_jsonl_atomically


def rescore_record(record: Mapping[str, Any], where: str = "record") -> dict[str, Any]:
    """Score one reply produced elsewhere.

    Args:
        record: Needs ``condition``, ``expected`` (list of ``"Answer: ..."``)
            and ``response``; an optional ``graph_context`` (a
            :class:`GraphContext` dictionary) makes failure modes exact, and
            an optional ``start`` (the start state, without a context) lets a
            route repeat the start where the expected answers omit it.
        where: Where the record comes from, for error messages.

    Returns:
        The record plus ``score`` (0 or 1) and ``failure_mode`` (``None`` when
        correct).

    Raises:
        ValueError: Naming ``where`` when a field is missing or malformed, or an
            expected answer is unreadable (:func:`check_expected`).
    """
    for key in ("condition", "expected", "response"):
        if key not in record:
            raise ValueError(f"{where}: missing field {key!r}")
    expected = record["expected"]
    if isinstance(expected, str):
        expected = [expected]
    if (
        not isinstance(expected, list)
        or not expected
        or not all(isinstance(e, str) for e in expected)
    ):
        raise ValueError(f"{where}: 'expected' must be a non-empty list of strings")
    if not isinstance(record["response"], str):
        raise ValueError(f"{where}: 'response' must be a string")
    context = None
    if record.get("graph_context") is not None:
        try:
            context = GraphContext.from_dict(record["graph_context"])
        except ValueError as error:
            raise ValueError(f"{where}: {error}") from error
    kind = context.kind if context else infer_kind(str(record["condition"]), expected)
    check_expected(expected, kind, context, where)
    start = normalize_state(str(record["start"])) if record.get("start") is not None else None
    result = score_response(record["response"], expected, kind, context, start=start)
    return {**record, "score": result.score, "failure_mode": result.failure_mode}


def check_expected(
    expected: list[str], kind: AnswerKind, context: GraphContext | None, where: str
) -> None:
    """Refuse expected answers that no reply could match, which would score every reply 0.

    Each must read as its kind's answer (a route, a count, a map), and with a
    graph context a route may name only the graph's rooms.

    Raises:
        ValueError: Naming ``where`` and the answer.
    """
    for text in expected:
        answer = extract_answer(text) or text
        if kind == "count":
            readable = parse_count(answer) is not None
        elif kind == "map":
            readable = bool(split_map(answer))
        else:
            route = split_route(answer)
            readable = bool(route)
            unknown = [s for s in route if s not in context.states] if context else []
            if context and unknown:
                raise ValueError(
                    f"{where}: expected answer {text!r} names room(s) {', '.join(unknown)} "
                    f"that the graph lacks (rooms: {', '.join(context.states)})"
                )
        if not readable:
            raise ValueError(f"{where}: expected answer {text!r} does not read as a {kind} answer")


def rescore_file(source: Path, target: Path) -> tuple[int, int, list[str]]:
    """Rescore every line of ``source`` into ``target``, written atomically.

    Returns:
        ``(lines scored, lines correct, unknown condition names)``; rows of an
        unknown condition are still scored, from their expected answers.

    Raises:
        ValueError: Naming the file when it holds no reply, or the file and
            line of a bad record.
    """
    scored = [
        rescore_record(record, where=f"{source}:{number}") for number, record in iter_jsonl(source)
    ]
    if not scored:
        raise ValueError(f"{source}: no replies to score (the file is empty)")
    target.parent.mkdir(parents=True, exist_ok=True)
    write_jsonl_atomically(target, scored)
    return len(scored), sum(record["score"] for record in scored), unknown_conditions(scored)


def unknown_conditions(records: Iterable[Mapping[str, Any]]) -> list[str]:
    """Condition names in ``records`` that no CogEval graph has, sorted."""
    return sorted({str(record["condition"]) for record in records} - set(CONDITION_FAMILIES))


def read_score_table(path: Path) -> pd.DataFrame:
    """Read a score table from CSV, or from JSONL with the same fields.

    Raises:
        ValueError: Naming the file for an unsupported extension, a CSV file that
            cannot be parsed (empty, an unclosed quote, not text) or bad lines.
    """
    if path.suffix == ".csv":
        try:
            return pd.read_csv(path)
        except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as error:
            reason = str(error).strip().splitlines()[0] if str(error).strip() else "no text"
            raise ValueError(f"{path}: not a readable CSV score table ({reason})") from error
    if path.suffix in (".jsonl", ".json"):
        return pd.DataFrame([record for _, record in iter_jsonl(path)])
    raise ValueError(f"{path}: expected a .csv or .jsonl score table")
