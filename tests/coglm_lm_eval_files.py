"""lm-eval output folders for CogLM tests: a results file and its samples files."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

STAMP = "2026-01-01T00-00-00.000001"


def _sample(code: str, number: int, right: bool, record: Any = None) -> dict[str, Any]:
    """One sample whose log-likelihoods pick the answer when ``right``.

    ``record``: the :class:`~cog_tasks.coglm.records.CogLMRecord` it is of (its document as
    lm-eval's ``coglm`` task builds it); ``None``: a made-up two-option item.
    """
    doc = {
        "id": f"{code}-{number:04d}",
        "ability": code,
        "choices": ["yes", "no"],
        "answer": 0,
        "num_choices": 2,
    }
    if record is not None:
        doc = record.to_dict()
    doc |= {"choice_lengths": [1] * len(doc["choices"]), "context_tokens": 9}
    loglikelihoods = [
        -1.0 if (index == doc["answer"]) == right else -5.0 for index in range(len(doc["choices"]))
    ]
    return {
        "doc_id": number,
        "doc": doc,
        "target": doc["answer"],
        "filtered_resps": [[str(value), "False"] for value in [*loglikelihoods, -20.0]],
        # lm-eval's own hashes of the document and the target
        "doc_hash": lm_eval_hash(doc),
        "target_hash": _sha256(str(doc["answer"])),
    }


def lm_eval_hash(doc: dict[str, Any]) -> str:
    """The ``doc_hash`` lm-eval writes beside a document."""
    return _sha256(json.dumps(doc, indent=2, ensure_ascii=False))


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def write_lm_eval_run(
    folder: Path,
    outcomes: Mapping[str, Sequence[bool]],
    *,
    model: str = "/m/tiny",
    limit: int | None = None,
    stamp: str = STAMP,
    date: float = 1.0,
    without_samples: Sequence[str] = (),
    config: Mapping[str, Any] | None = None,
    version: float = 2.1,
    records: Sequence[Any] = (),
) -> Path:
    """Write one ``coglm`` run as lm-eval does: a results file and a samples file per task.

    Args:
        folder: The model's output folder (created).
        outcomes: Per ability code, whether each of its first items is answered right.
        model: The ``pretrained`` model argument.
        limit: lm-eval's ``--limit`` as recorded in the config.
        stamp: The run's timestamp in the file names.
        date: The results file's ``date``.
        without_samples: Ability codes whose samples file is left out (as an
            interrupted copy would).
        config: Replaces the results file's ``config``.
        version: The ``coglm`` task version recorded (the current one by default).
        records: The CogLM records of the samples, in order, per ability (their
            documents); made-up two-option items when empty.

    Returns:
        The results file.
    """
    tasks = [f"coglm_{code}" for code in outcomes]
    data = {
        "results": {task: {"acc_authors,none": 0.5} for task in tasks},
        "versions": {"coglm": version, **{task: version for task in tasks}},
        "n-shot": {task: 0 for task in tasks},
        "n-samples": {
            f"coglm_{code}": {"original": 120, "effective": len(values)}
            for code, values in outcomes.items()
        },
        "config": dict(config)
        if config is not None
        else {"model": "hf", "model_args": {"pretrained": model}, "limit": limit, "random_seed": 0},
        "date": date,
    }
    folder.mkdir(parents=True, exist_ok=True)
    results = folder / f"results_{stamp}.json"
    results.write_text(json.dumps(data))
    for code, values in outcomes.items():
        if code in without_samples:
            continue
        mine = [record for record in records if record.ability == code]
        rows = [
            _sample(code, number, right, mine[number] if mine else None)
            for number, right in enumerate(values)
        ]
        (folder / f"samples_coglm_{code}_{stamp}.jsonl").write_text(
            "\n".join(json.dumps(row) for row in rows) + "\n"
        )
    return results
