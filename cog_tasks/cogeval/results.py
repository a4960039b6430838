"""Reading and writing CogEval results: rescoring JSONL, score tables, Inspect logs."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from cog_tasks.cogeval.scoring import GraphContext, infer_kind, score_response

SCORER_NAME = "cogeval_scorer"


def rescore_record(record: Mapping[str, Any], where: str = "record") -> dict[str, Any]:
    """Score one reply produced elsewhere.

    Args:
        record: Needs ``condition``, ``expected`` (list of ``"Answer: ..."``)
            and ``response``; an optional ``graph_context`` (a
            :class:`GraphContext` dictionary) makes failure modes exact.
        where: Where the record comes from, for error messages.

    Returns:
        The record plus ``score`` (0 or 1) and ``failure_mode`` (``None`` when
        correct).

    Raises:
        ValueError: Naming ``where`` when a field is missing or malformed.
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
    result = score_response(record["response"], expected, kind, context)
    return {**record, "score": result.score, "failure_mode": result.failure_mode}


def read_jsonl(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield ``(line number, object)`` for each non-empty line of a JSONL file.

    Raises:
        ValueError: Naming the file and line of invalid JSON or a non-object.
    """
    with path.open(encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                value = json.loads(line)
            except json.JSONDecodeError as error:
                raise ValueError(f"{path}:{number}: invalid JSON ({error.msg})") from error
            if not isinstance(value, dict):
                raise ValueError(f"{path}:{number}: expected a JSON object")
            yield number, value


def rescore_file(source: Path, target: Path) -> tuple[int, int]:
    """Rescore every line of ``source`` into ``target``, written atomically.

    Returns:
        ``(lines scored, lines correct)``.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    handle = tempfile.NamedTemporaryFile(
        "w", encoding="utf-8", dir=target.parent, suffix=".partial", delete=False
    )
    total = correct = 0
    try:
        with handle:
            for number, record in read_jsonl(source):
                scored = rescore_record(record, where=f"{source}:{number}")
                handle.write(json.dumps(scored, ensure_ascii=False) + "\n")
                total += 1
                correct += scored["score"]
        os.replace(handle.name, target)
    except BaseException:
        Path(handle.name).unlink(missing_ok=True)
        raise
    return total, correct


def read_score_table(path: Path) -> pd.DataFrame:
    """Read a score table from CSV, or from JSONL with the same fields.

    Raises:
        ValueError: Naming the file for an unsupported extension or bad lines.
    """
    if path.suffix == ".csv":
        return pd.read_csv(path)
    if path.suffix in (".jsonl", ".json"):
        return pd.DataFrame([record for _, record in read_jsonl(path)])
    raise ValueError(f"{path}: expected a .csv or .jsonl score table")


def score_table_from_logs(log_dir: Path) -> pd.DataFrame:
    """One row per scored sample (and epoch) of the CogEval Inspect logs in ``log_dir``.

    Raises:
        ValueError: If the directory holds no CogEval sample.
    """
    from inspect_ai.log import list_eval_logs, read_eval_log

    rows = []
    for info in list_eval_logs(str(log_dir)):
        log = read_eval_log(info)
        for sample in log.samples or []:
            score = (sample.scores or {}).get(SCORER_NAME)
            metadata = sample.metadata or {}
            if score is None or "condition" not in metadata:
                continue
            value = score.value if isinstance(score.value, dict) else {}
            rows.append(
                {
                    "model": log.eval.model,
                    "graph": metadata["graph"],
                    "domain": metadata["domain"],
                    "condition": metadata["condition"],
                    "temperature": metadata["temperature"],
                    "cot": metadata.get("cot", "none"),
                    "score": float(value.get("correct", 0.0)),
                    "max_score": 1.0,
                    "failure_mode": (score.metadata or {}).get("failure_mode"),
                    "epoch": sample.epoch,
                    "id": sample.id,
                }
            )
    if not rows:
        raise ValueError(f"{log_dir}: no scored CogEval samples in these Inspect logs")
    return pd.DataFrame(rows)
