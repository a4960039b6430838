"""lm-eval hooks for CogEval: the dataset (published or generated), prompt, target and scoring."""

from __future__ import annotations

import json
from typing import Any

import datasets

from cog_tasks.cogeval.generator import CogEvalItem, generate_items, split_names
from cog_tasks.cogeval.lm_eval.samples import score_doc_reply
from cog_tasks.cogeval.published import PublishedTask, select_published
from cog_tasks.cogeval.scoring import FAILURE_MODES
from cog_tasks.common.params import ParameterError

DEFAULT_SOURCE = "published"


def _records(
    source: str,
    graphs: list[str] | None,
    families: list[str] | None,
    seed: int,
    cot: str | None,
    design: str,
    experiment: int | None,
) -> list[dict[str, Any]]:
    """The records of the ``source`` tasks the other arguments select (no other task is read)."""
    items: list[PublishedTask] | list[CogEvalItem]
    if source == "published":
        if seed != 0:
            raise ParameterError(f"CogEval seed: {seed!r} relabels generated tasks only")
        items = select_published(graphs=graphs, cot=cot, design=design, experiment=experiment)
    elif source == "generated":
        items = generate_items(
            graphs=graphs, seed=seed, cot=cot or "none", design=design, experiment=experiment
        )
    else:
        raise ParameterError(
            f"CogEval source: {source!r} is not valid; valid: published, generated"
        )
    return [item.to_record() for item in items if not families or item.family in families]


def load_cogeval(
    graphs: Any = None,
    families: Any = None,
    seed: int = 0,
    cot: str | None = None,
    design: str = "all",
    source: str = DEFAULT_SOURCE,
    experiment: int | None = None,
    **_: Any,
) -> datasets.DatasetDict:
    """The CogEval tasks as a ``test`` split (``custom_dataset`` hook), each dialog one prompt."""
    records = _records(
        source, split_names(graphs), split_names(families), int(seed), cot, design, experiment
    )
    rows = [
        {
            "id": record["id"],
            "task": record.get("task", record["id"]),
            "source": source,
            "graph": record["graph"],
            "domain": record["domain"],
            "condition": record["condition"],
            "family": record["family"],
            "cot": record["cot"],
            "prompt": record["prompt"],
            "expected": record["expected"],
            "questions": len(record["turns"]) if source == "published" else 1,
            "scored_reply": record.get("scored_reply", 1) if source == "published" else 1,
            "kind": record.get("kind") or record["graph_context"]["kind"],
            "start": record.get("start"),
            "graph_context": json.dumps(record["graph_context"]),
        }
        for record in records
    ]
    return datasets.DatasetDict({"test": datasets.Dataset.from_list(rows)})


def doc_to_target(doc: dict[str, Any]) -> str:
    """The first optimal answer (for logging; scoring accepts all of them)."""
    return doc["expected"][0]


def process_results(doc: dict[str, Any], results: list[Any]) -> dict[str, float]:
    """Score a document's replies: ``acc`` plus one indicator per failure mode (means)."""
    replies = results[0] if isinstance(results[0], list) else [results[0]]
    totals = dict.fromkeys(["acc", *FAILURE_MODES], 0.0)
    for reply in replies:
        result = score_doc_reply(doc, reply)
        totals["acc"] += float(result.score)
        if result.failure_mode is not None:
            totals[result.failure_mode] += 1.0
    return {key: value / len(replies) for key, value in totals.items()}
