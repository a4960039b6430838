"""CogEval runs from lm-eval's ``--output_path DIR --log_samples`` output (plain JSON)."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from cog_tasks.cogeval.headlines import (
    Declared,
    declared_items,
    dialog_key,
    dialog_record,
    reply_status,
    run_results,
)
from cog_tasks.cogeval.scoring import FAILURE_MODES, GraphContext, ScoreResult, score_response
from cog_tasks.common.files import read_json
from cog_tasks.common.lm_eval_samples import check_documents, find_results_files, read_lm_eval_run
from cog_tasks.common.results import ResultsError, RunResults
from cog_tasks.common.runs import RunIdentity


def _identity(results: dict[str, Any], tasks: list[str], data: dict[str, str]) -> RunIdentity:
    """The identity of one lm-eval run; ``data`` is the documents' hash."""
    config = results.get("config") or {}
    model_args = config.get("model_args") or {}
    if isinstance(model_args, dict):
        model_args = ",".join(f"{key}={value}" for key, value in sorted(model_args.items()))
    model = str(config.get("model", "unknown")) + (f"[{model_args}]" if model_args else "")
    configs = results.get("configs") or {}
    arguments: dict[str, object] = {"tasks": ",".join(tasks), **data}
    for task in tasks:
        generation = (configs.get(task) or {}).get("generation_kwargs") or {}
        arguments.update({f"generate.{k}": v for k, v in generation.items() if k != "until"})
        arguments["repeats"] = (configs.get(task) or {}).get("repeats", 1)
    arguments.update({f"generate.{k}": v for k, v in (config.get("gen_kwargs") or {}).items()})
    versions = results.get("versions") or {}
    version = versions.get(tasks[0]) if tasks else None
    task = "cogeval (lm-eval)" + (f"@{version}" if version is not None else "")
    return RunIdentity.of(task, model, arguments=arguments, seed=config.get("random_seed"))


def task_temperature(results: dict[str, Any], task: str) -> float:
    """The temperature ``task`` sampled at (its settings, the run's ``--gen_kwargs`` over them)."""
    configs = results.get("configs") or {}
    generation = (configs.get(task) or {}).get("generation_kwargs") or {}
    cli = (results.get("config") or {}).get("gen_kwargs") or {}
    return float(cli.get("temperature", generation.get("temperature", 0.0)))


def score_doc_reply(doc: dict[str, Any], reply: str) -> ScoreResult:
    """Score one reply to an lm-eval CogEval document (older documents lack some fields)."""
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
    """(score, failure mode) of every reply of one sample line; several replies are rescored."""
    filtered = record.get("filtered_resps") or []
    replies = filtered[0] if filtered and isinstance(filtered[0], list) else None
    if replies is None or len(replies) == 1:
        failure = next((m for m in FAILURE_MODES if record.get(m) == 1.0), None)
        return [(float(record["acc"]), failure)]
    results = [score_doc_reply(record["doc"], reply) for reply in replies]
    return [(float(result.score), result.failure_mode) for result in results]


def _declared(results: dict[str, Any], tasks: list[str], source: Path) -> Declared:
    """The dialogs the run's tasks cover in full, each at its task's temperature."""
    configs = results.get("configs") or {}
    dialogs = []
    for task in tasks:
        arguments = (configs.get(task) or {}).get("dataset_kwargs") or {}
        try:
            items = declared_items(arguments)
        except ValueError as error:
            raise ResultsError(f"{source}: task {task}: {error}") from error
        dialogs += [(*entry, task_temperature(results, task)) for entry in items]
    return Declared.of(dialogs)


def results_of_file(results_file: Path) -> tuple[RunResults, Declared] | None:
    """One lm-eval results file as an unchecked CogEval run, or ``None`` without CogEval tasks."""
    data = read_json(results_file)
    configs = (data.get("configs") or {}) if isinstance(data, dict) else {}
    tasks = [task for task in configs if task.startswith("cogeval")]
    run = read_lm_eval_run(results_file, tasks)
    if not run.samples and not run.missing:
        return None
    if run.missing:
        raise ResultsError(
            f"{results_file}: no samples file for {', '.join(run.missing)} "
            "(run lm-eval with --log_samples; an interrupted or copied folder?)"
        )
    declared = _declared(run.data, list(run.samples), results_file)
    records = []
    for task, samples in run.samples.items():
        temperature = task_temperature(run.data, task)
        for line, row in samples.rows:
            doc = row.get("doc") or {}
            if "condition" not in doc or "acc" not in row or "id" not in doc:
                raise ResultsError(f"{samples.path}:{line}: not a scored CogEval sample")
            unit = str(doc.get("task") or doc["id"])
            key = dialog_key(str(doc["id"]), temperature)
            condition = str(doc["condition"])
            for repeat, (score, failure) in enumerate(_reply_scores(row), start=1):
                status = reply_status(failure)
                records.append(dialog_record(unit, key, condition, score, failure, repeat, status))
    from cog_tasks.cogeval.lm_eval.utils import load_cogeval  # (it imports this module)

    argument, verdict = check_documents(
        run, lambda task: load_cogeval(**configs[task].get("dataset_kwargs") or {})["test"]
    )
    identity = replace(_identity(run.data, list(run.samples), argument), data=verdict)
    protocol = "lm-eval, the dialog flattened into one prompt"
    return run_results(identity, records, declared, str(results_file), protocol), declared


def read_lm_eval_runs(
    source: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
) -> list[tuple[RunResults, Declared]]:
    """Every CogEval run (results file) below ``source``, folders searched recursively."""
    sources = [source] if isinstance(source, (str, os.PathLike)) else list(source)
    found = (results_of_file(f) for folder in sources for f in find_results_files(Path(folder)))
    runs = [run for run in found if run is not None]
    if not runs:
        raise ResultsError(
            f"{', '.join(map(str, sources))}: no lm-eval CogEval samples "
            "(run lm-eval with --log_samples)"
        )
    return runs
