"""The one reader of lm-eval output folders: results files checked against their samples files."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cog_tasks.common.files import iter_jsonl, read_json
from cog_tasks.common.logs import DATA_ARGUMENT, DATA_DIGITS
from cog_tasks.common.provenance import data_verdict, recording_reads
from cog_tasks.common.results import ResultsError
from cog_tasks.common.runs import UNRECORDED, file_sha256, text_sha256
from cog_tasks.common.stats import plural


def find_results_files(path: Path) -> list[Path]:
    """The lm-eval results files at ``path`` (a results file or an output folder), sorted."""
    if path.is_file():
        if path.suffix != ".json":
            raise FileNotFoundError(f"{path}: not an lm-eval results_*.json file")
        return [path]
    if not path.is_dir():
        raise FileNotFoundError(f"{path}: no such file or directory")
    found = sorted(path.rglob("results_*.json"))
    if not found:
        raise FileNotFoundError(
            f"{path}: no lm-eval results_*.json below it (run lm-eval with --output_path {path})"
        )
    return found


@dataclass(frozen=True)
class TaskSamples:
    """One task's samples file: ``(line number, row)`` per document (one filter's rows)."""

    path: Path
    rows: list[tuple[int, dict[str, Any]]]


@dataclass(frozen=True)
class LmEvalRun:
    """One results file with its checked samples (``content``: hash of the samples files)."""

    data: dict[str, Any]
    samples: dict[str, TaskSamples]
    missing: tuple[str, ...]
    content: str = ""


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def check_sample_hashes(path: Path, number: int, row: dict[str, Any]) -> None:
    """Refuse a samples row whose ``doc`` or ``target`` no longer matches lm-eval's hash of it."""
    checks = (
        ("doc", "doc_hash", lambda: json.dumps(row.get("doc"), indent=2, ensure_ascii=False)),
        ("target", "target_hash", lambda: str(row.get("target"))),
    )
    for name, field, text in checks:
        recorded = row.get(field)
        if isinstance(recorded, str) and name in row and _sha256(text()) != recorded:
            raise ResultsError(
                f"{path}:{number}: {name} does not match its {field} (doc_id "
                f"{row.get('doc_id')}): the file was edited after lm-eval wrote it"
            )


def read_lm_eval_run(
    results_file: Path, tasks: Collection[str], *, filter_name: str | None = None
) -> LmEvalRun:
    """Read one results file and the samples files of ``tasks`` beside it, checked."""
    data = read_json(results_file)
    if not isinstance(data, dict):
        raise ResultsError(f"{results_file}: not an lm-eval results file (not a JSON object)")
    listed = [task for task in tasks if task in (data.get("results") or {})]
    stamp = results_file.stem.removeprefix("results_")
    samples: dict[str, TaskSamples] = {}
    missing = []
    digests = []
    for task in listed:
        path = results_file.parent / f"samples_{task}_{stamp}.jsonl"
        if not path.is_file():
            missing.append(task)
            continue
        digests.append(f"{task}:{file_sha256(path)}")
        rows = [
            (number, row)
            for number, row in iter_jsonl(path)
            if filter_name is None or row.get("filter") == filter_name
        ]
        for number, row in rows:
            check_sample_hashes(path, number, row)
        counts = Counter(row.get("doc_id") for _, row in rows)
        repeated = sorted((doc for doc, count in counts.items() if count > 1), key=str)
        if repeated:
            raise ResultsError(
                f"{path}: document(s) {', '.join(map(str, repeated[:5]))} appear twice"
            )
        expected = ((data.get("n-samples") or {}).get(task) or {}).get("effective")
        if expected is not None and int(expected) != len(rows):
            raise ResultsError(
                f"{path}: {len(rows)} documents, but {results_file.name} says {expected} "
                "(an interrupted or mixed folder? rerun the task)"
            )
        samples[task] = TaskSamples(path, rows)
    content = text_sha256("lm-eval", *digests) if digests else ""
    return LmEvalRun(data, samples, tuple(missing), content)


def _digest(doc: dict[str, Any], fields: Collection[str] | None) -> str:
    kept = {k: v for k, v in doc.items() if fields is None or k in fields}
    return _sha256(json.dumps(kept, sort_keys=True, ensure_ascii=False))


def check_documents(
    run: LmEvalRun, load: Callable[[str], Iterable[dict]], fields: Collection[str] | None = None
) -> tuple[dict[str, str], str]:
    """The run's :data:`~cog_tasks.common.logs.DATA_ARGUMENT` argument and data check.

    The check compares the documents' ``fields`` (all by default) with ``load(task)``, a task's
    documents as its lm-eval task builds them: the worst check of the files read, or ``differs``.
    """
    docs = [
        (task, row["doc"])
        for task, samples in run.samples.items()
        for _, row in samples.rows
        if isinstance(row.get("doc"), dict)
    ]
    digests = [_digest(doc, fields) for _, doc in docs]
    argument = {DATA_ARGUMENT: text_sha256(*sorted(digests))[:DATA_DIGITS]} if docs else {}
    try:
        with recording_reads() as reads:  # each task's documents, so none passes under another
            loaded = {task: {_digest(doc, fields) for doc in load(task)} for task in run.samples}
    except (ValueError, OSError):  # no data to compare with (offline, say)
        return argument, UNRECORDED
    pairs = zip(docs, digests, strict=True)
    absent = [doc.get("id") for (task, doc), digest in pairs if digest not in loaded[task]]
    if not absent:
        return argument, data_verdict(reads.metadata())
    count = f"{len(absent)} {plural('document', len(absent))}"
    return argument, f"differs ({count} not in the pinned data, e.g. {absent[0]})"
