"""CogEval's files into the results model: rescored replies (``score``) and score tables."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from cog_tasks.cogeval.graphs import CONDITION_FAMILIES
from cog_tasks.cogeval.headlines import (
    Declared,
    TaskFacts,
    dialog_key,
    dialog_record,
    reply_status,
    run_results,
)
from cog_tasks.cogeval.metrics import validate_scores
from cog_tasks.cogeval.parsing import (
    extract_answer,
    normalize_state,
    parse_count,
    split_map,
    split_route,
)
from cog_tasks.cogeval.scoring import AnswerKind, GraphContext, infer_kind, score_response
from cog_tasks.common.files import DataFileError, iter_jsonl
from cog_tasks.common.results import RunResults
from cog_tasks.common.runs import RunIdentity

#: Stop reasons of a reply cut at its token limit (Inspect's, and OpenAI's ``length``).
TRUNCATED_STOPS: frozenset[str] = frozenset({"max_tokens", "length"})


def rescore_record(record: Mapping[str, Any], where: str = "record") -> dict[str, Any]:
    """Score one reply produced elsewhere: the record plus ``score`` and ``failure_mode``."""
    for key in ("condition", "expected", "response"):
        if key not in record:
            raise DataFileError(f"{where}: missing field {key!r}")
    expected = record["expected"]
    if isinstance(expected, str):
        expected = [expected]
    if not (isinstance(expected, list) and expected and all(isinstance(e, str) for e in expected)):
        raise DataFileError(f"{where}: 'expected' must be a non-empty list of strings")
    if not isinstance(record["response"], str):
        raise DataFileError(f"{where}: 'response' must be a string")
    context = None
    if record.get("graph_context") is not None:
        try:
            context = GraphContext.from_dict(record["graph_context"])
        except ValueError as error:
            raise DataFileError(f"{where}: {error}") from error
    kind = context.kind if context else infer_kind(str(record["condition"]), expected)
    check_expected(expected, kind, context, where)
    start = normalize_state(str(record["start"])) if record.get("start") is not None else None
    result = score_response(record["response"], expected, kind, context, start=start)
    return {**record, "score": result.score, "failure_mode": result.failure_mode}


def check_expected(
    expected: list[str], kind: AnswerKind, context: GraphContext | None, where: str
) -> None:
    """Refuse expected answers that no reply could match, which would score every reply 0."""
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
                raise GoldUnreadableError(
                    f"{where}: expected answer {text!r} names room(s) {', '.join(unknown)} "
                    f"that the graph lacks (rooms: {', '.join(context.states)})"
                )
        if not readable:
            raise GoldUnreadableError(
                f"{where}: expected answer {text!r} does not read as a {kind} answer"
            )


GOLD_UNREADABLE = "gold_unreadable"
"""The mark of a line whose expected answer cannot be read: it has no score."""


class GoldUnreadableError(DataFileError):
    """An expected answer that no reply could match."""


def rescore_file(source: Path, strict: bool = False) -> tuple[list[dict[str, Any]], list[str]]:
    """The rescored lines of ``source`` and its unknown conditions (bad gold kept unless strict)."""
    scored = []
    for number, record in iter_jsonl(source):
        try:
            scored.append(rescore_record(record, where=f"{source}:{number}"))
        except GoldUnreadableError:
            if strict:
                raise
            scored.append(
                {**record, "score": None, "failure_mode": GOLD_UNREADABLE, GOLD_UNREADABLE: True}
            )
    if not scored:
        raise DataFileError(f"{source}: no replies to score (the file is empty)")
    return scored, sorted({str(record["condition"]) for record in scored} - set(CONDITION_FAMILIES))


def _reply_status(record: Mapping[str, Any]) -> str:
    """A scored line's status: ``error`` or ``truncated`` where it says so, else as read."""
    if record.get("error"):
        return "error"
    if record.get("stop_reason") in TRUNCATED_STOPS:
        return "truncated"
    return reply_status(record.get("failure_mode"))


#: A row as :func:`_run` takes it: ``((item, task, facts, temperature), score,
#: failure mode, status, epoch)``, the epoch ``None`` for the next repeat of its dialog.
Row = tuple[tuple[str, str, TaskFacts, float], float, str | None, str, int | None]


def _dialog(fields: Mapping[str, Any], default_task: str) -> tuple[str, str, TaskFacts, float]:
    """A row's item (``id``, else its task), task (else ``default_task``), facts, temperature."""
    facts = TaskFacts(
        str(_cell(fields, "graph") or "-"),
        str(_cell(fields, "domain") or "-"),
        str(fields["condition"]),
        str(_cell(fields, "cot") or "none"),
    )
    task = str(_cell(fields, "task") or default_task)
    return str(_cell(fields, "id") or task), task, facts, float(_cell(fields, "temperature") or 0)


def _run(
    identity: RunIdentity, source: str, protocol: str, rows: list[Row]
) -> tuple[RunResults, Declared]:
    """A run over the tasks and dialogs its rows hold (nothing more is declared)."""
    records = []
    repeats: Counter[str] = Counter()
    for (item, task, facts, temperature), score, failure, status, epoch in rows:
        key = dialog_key(item, temperature)
        repeats[key] += 1
        number = repeats[key] if epoch is None else int(epoch)
        records.append(dialog_record(task, key, facts.condition, score, failure, number, status))
    declared = Declared.of(dialog for dialog, *_ in rows)
    return run_results(identity, records, declared, source, protocol), declared


def score_file_run(source: Path, scored: list[dict[str, Any]]) -> tuple[RunResults, Declared]:
    """The scored lines of ``cog-tasks cogeval score`` as one run (gold-unreadable left out)."""
    rows: list[Row] = [
        (
            _dialog(record, str(record.get("id") or f"line {number}")),
            float(record["score"]),
            record["failure_mode"],
            _reply_status(record),
            int(record.get("epoch") or 1),
        )
        for number, record in enumerate(scored, start=1)
        if not record.get(GOLD_UNREADABLE)
    ]
    models = {str(record["model"]) for record in scored if record.get("model")}
    model = models.pop() if len(models) == 1 else "replies"
    return _run(RunIdentity.of("cogeval (score file)", model), str(source), "rescored", rows)


def read_score_table(path: Path) -> pd.DataFrame:
    """Read a score table from CSV, or from JSONL with the same fields."""
    if path.suffix == ".csv":
        try:
            return pd.read_csv(path)
        except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as error:
            reason = str(error).strip().splitlines()[0] if str(error).strip() else "no text"
            raise DataFileError(f"{path}: not a readable CSV score table ({reason})") from error
    if path.suffix in (".jsonl", ".json"):
        return pd.DataFrame([record for _, record in iter_jsonl(path)])
    raise DataFileError(f"{path}: expected a .csv or .jsonl score table")


def _cell(row: Mapping[str, Any], column: str) -> Any:
    """A row's value, or ``None`` where the column is absent or empty."""
    value = row.get(column)
    return None if value is None or (isinstance(value, float) and math.isnan(value)) else value


def score_table_runs(path: Path) -> list[tuple[RunResults, Declared]]:
    """A score table's runs: one per ``run`` value (else per ``model``), each row a dialog."""
    table = validate_scores(read_score_table(path), source=str(path))
    column = "run" if "run" in table else "model"
    runs = []
    for name, part in table.groupby(column, sort=False):
        rows: list[Row] = []
        for row in part.to_dict("records"):
            cot = str(_cell(row, "cot") or "none")
            task = ".".join(
                [row["graph"], row["domain"], row["condition"]] + [cot] * (cot != "none")
            )
            failure = _cell(row, "failure_mode")
            status = str(_cell(row, "status") or reply_status(failure))
            score = row["score"] / row["max_score"]
            rows.append((_dialog(row, task), score, failure, status, _cell(row, "epoch")))
        arguments = {"run": name} if column == "run" else {}
        identity = RunIdentity.of(
            "cogeval (score table)", str(part["model"].iloc[0]), arguments=arguments
        )
        runs.append(_run(identity, str(path), "score table", rows))
    return runs
