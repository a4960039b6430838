"""lm-eval hooks for CogEval: dataset generation, prompt, target and scoring."""

from __future__ import annotations

import json
from typing import Any

import datasets

from cog_tasks.cogeval.generator import generate_items, split_names
from cog_tasks.cogeval.graphs import CONDITION_FAMILIES
from cog_tasks.cogeval.scoring import FAILURE_MODES, GraphContext, score_response


def load_cogeval(
    graphs: Any = None,
    families: Any = None,
    seed: int = 0,
    cot: str = "none",
    design: str = "all",
    **_: Any,
) -> datasets.DatasetDict:
    """Generate the CogEval items as a ``test`` split (``custom_dataset`` hook).

    Args:
        graphs: Graph names (a list or comma-separated); all by default.
        families: Condition families to keep (``Traversal``, ``RewardReval``,
            ``TransitionReval``, ``Shortcut``, ``Detour``, ``Clusters``, ``Map``,
            ``Experiment2``).
        seed: Relabelling seed; 0 is the reference set.
        cot: ``none``, ``bfs`` or ``dfs``.
        design: ``all``, or ``paper`` (the paper's 3 domains and 5 families).
        **_: Other task metadata (``version`` ...), ignored.
    """
    wanted = split_names(families)
    conditions = [c for c, f in CONDITION_FAMILIES.items() if f in wanted] if wanted else None
    items = generate_items(
        graphs=split_names(graphs), conditions=conditions, seed=int(seed), cot=cot, design=design
    )
    rows = []
    for item in items:
        record = item.to_record()
        rows.append(
            {
                "id": record["id"],
                "graph": record["graph"],
                "domain": record["domain"],
                "condition": record["condition"],
                "family": record["family"],
                "prompt": record["prompt"],
                "expected": record["expected"],
                "graph_context": json.dumps(record["graph_context"]),
            }
        )
    return datasets.DatasetDict({"test": datasets.Dataset.from_list(rows)})


def doc_to_target(doc: dict[str, Any]) -> str:
    """The first optimal answer (for logging; scoring accepts all of them)."""
    return doc["expected"][0]


def process_results(doc: dict[str, Any], results: list[Any]) -> dict[str, float]:
    """Score a document's generation: ``acc`` plus one indicator per failure mode.

    ``results[0]`` is one reply, or the list of every reply of a task with
    ``repeats`` (``cogeval_sampled``, filter ``take_first_k``): then each is
    scored and the values are their means.
    """
    context = GraphContext.from_dict(json.loads(doc["graph_context"]))
    replies = results[0] if isinstance(results[0], list) else [results[0]]
    totals = dict.fromkeys(["acc", *FAILURE_MODES], 0.0)
    for reply in replies:
        result = score_response(reply, doc["expected"], context.kind, context)
        totals["acc"] += float(result.score)
        if result.failure_mode is not None:
            totals[result.failure_mode] += 1.0
    return {key: value / len(replies) for key, value in totals.items()}
