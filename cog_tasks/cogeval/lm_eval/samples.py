"""CogEval score tables from lm-eval's ``--output_path DIR --log_samples`` output.

lm-eval writes, per run, ``results_<time>.json`` and one
``samples_<task>_<time>.jsonl`` per task beside it. Each sample line holds the
document (graph, domain, condition, id), every reply (several with
``repeats``) and the scores ``process_results`` gave it. A run is one results
file; its identity is the task group, the model with its arguments, the
generation settings, the repeats and the seed, so runs with different
settings stay apart in ``report`` (seeds pooled only on request).
No lm-eval import is needed: the files are JSON.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from cog_tasks.cogeval.scoring import FAILURE_MODES, GraphContext, ScoreResult, score_response
from cog_tasks.common.files import iter_jsonl, parse_json
from cog_tasks.common.runs import RunIdentity, distinguishing_labels, group_runs


def _identity(results: dict[str, Any], tasks: list[str]) -> RunIdentity:
    """The identity of one lm-eval run (see :mod:`cog_tasks.common.runs`)."""
    config = results.get("config") or {}
    model_args = config.get("model_args") or {}
    if isinstance(model_args, dict):
        model_args = ",".join(f"{key}={value}" for key, value in sorted(model_args.items()))
    model = str(config.get("model", "unknown")) + (f"[{model_args}]" if model_args else "")
    configs = results.get("configs") or {}
    arguments: dict[str, object] = {"tasks": ",".join(tasks)}
    for task in tasks:
        generation = (configs.get(task) or {}).get("generation_kwargs") or {}
        arguments.update({f"generate.{k}": v for k, v in generation.items() if k != "until"})
        arguments["repeats"] = (configs.get(task) or {}).get("repeats", 1)
    arguments.update({f"generate.{k}": v for k, v in (config.get("gen_kwargs") or {}).items()})
    versions = results.get("versions") or {}
    version = versions.get(tasks[0]) if tasks else None
    task = "cogeval (lm-eval)" + (f"@{version}" if version is not None else "")
    return RunIdentity.of(task, model, arguments=arguments, seed=config.get("random_seed"))


def _task_temperature(results: dict[str, Any], task: str) -> float:
    """The temperature ``task`` of one lm-eval run sampled at.

    Each task's own generation settings, with the run's ``--gen_kwargs`` over
    them, so the greedy and sampled tasks of one run keep their own temperatures.
    """
    configs = results.get("configs") or {}
    generation = (configs.get(task) or {}).get("generation_kwargs") or {}
    cli = (results.get("config") or {}).get("gen_kwargs") or {}
    return float(cli.get("temperature", generation.get("temperature", 0.0)))


def score_doc_reply(doc: dict[str, Any], reply: str) -> ScoreResult:
    """Score one reply to an lm-eval CogEval document.

    The document's graph facts (``graph_context``, JSON; ``null`` for a
    published task whose map is not read) give exact failure modes where
    present; the answer form and start come from ``kind`` and ``start``
    (documents of tasks version 2.x, all generated, carry them in the facts),
    the questions the prompt asked and the one scored from ``questions`` and
    ``scored_reply`` (documents before 4.0: one question).
    """
    facts = json.loads(doc["graph_context"])
    context = GraphContext.from_dict(facts) if facts is not None else None
    kind = doc.get("kind") or context.kind
    return score_response(
        reply,
        doc["expected"],
        kind,
        context,
        start=doc.get("start"),
        questions=doc.get("questions", 1),
        scored=doc.get("scored_reply"),
    )


def _reply_scores(record: dict[str, Any]) -> list[tuple[float, str | None]]:
    """(score, failure mode) of every reply of one sample line.

    One reply: the scores lm-eval logged. Several (``repeats`` with the
    ``take_first_k`` filter, as in ``cogeval_sampled``): each reply is scored
    again, since the logged scores are their means.
    """
    filtered = record.get("filtered_resps") or []
    replies = filtered[0] if filtered and isinstance(filtered[0], list) else None
    if replies is None or len(replies) == 1:
        failure = next((m for m in FAILURE_MODES if record.get(m) == 1.0), None)
        return [(float(record["acc"]), failure)]
    results = [score_doc_reply(record["doc"], reply) for reply in replies]
    return [(float(result.score), result.failure_mode) for result in results]


def score_table_from_lm_eval(
    source: str | os.PathLike[str] | Sequence[str | os.PathLike[str]], *, pool_seeds: bool = False
) -> pd.DataFrame:
    """One row per scored document of the CogEval lm-eval runs under ``source``.

    Args:
        source: An ``--output_path`` folder (searched recursively), or several;
            the runs of every folder are rows of one table, each its own run.
        pool_seeds: Pool the runs whose identities differ only by seed.

    Returns:
        The score table (the columns of
        :data:`cog_tasks.cogeval.metrics.SCORE_COLUMNS` plus ``run``,
        ``pooling``, ``task``, ``cot``, ``failure_mode``, ``id`` and ``epoch``,
        the reply's number: one row per reply, every repeat included).

    Raises:
        ValueError: Naming the folder when it holds no CogEval samples, or a
            file and line that cannot be read.
    """
    sources = [source] if isinstance(source, (str, os.PathLike)) else list(source)
    results_files = [
        file for folder in sources for file in sorted(Path(folder).rglob("results_*.json"))
    ]
    runs = []
    for results_file in results_files:
        stamp = results_file.stem.removeprefix("results_")
        samples = sorted(results_file.parent.glob(f"samples_cogeval*_{stamp}.jsonl"))
        if not samples:
            continue
        results = parse_json(results_file.read_text(encoding="utf-8"), str(results_file))
        tasks = [file.stem.removeprefix("samples_").removesuffix(f"_{stamp}") for file in samples]
        temperatures = [_task_temperature(results, task) for task in tasks]
        runs.append((_identity(results, tasks), list(zip(samples, temperatures, strict=True))))
    if not runs:
        raise ValueError(
            f"{', '.join(map(str, sources))}: no lm-eval CogEval samples "
            "(run lm-eval with --log_samples)"
        )
    groups = group_runs(runs, lambda run: run[0], pool_seeds=pool_seeds)
    labels = distinguishing_labels([group.identity for group in groups])
    rows = []
    for group, label in zip(groups, labels, strict=True):
        for identity, samples in group.runs:
            for file, temperature in samples:
                for line, record in iter_jsonl(file):
                    doc = record.get("doc") or {}
                    if "condition" not in doc or "acc" not in record:
                        raise ValueError(f"{file}: line {line}: not a scored CogEval sample")
                    base = {
                        "run": label,
                        "pooling": group.pooling_note(),
                        # The paper's task (4.0 documents); older documents: one item per task.
                        "task": doc.get("task")
                        or doc.get("id", f"{doc['graph']}.{doc['domain']}.{doc['condition']}"),
                        "model": identity.model,
                        "graph": doc["graph"],
                        "domain": doc["domain"],
                        "condition": doc["condition"],
                        "temperature": temperature,
                        "cot": doc.get("cot", "none"),
                        "max_score": 1.0,
                        "id": doc.get("id"),
                    }
                    for repeat, (score, failure) in enumerate(_reply_scores(record), start=1):
                        rows.append(
                            {**base, "score": score, "failure_mode": failure, "epoch": repeat}
                        )
    return pd.DataFrame(rows)
