"""The one reader of lm-eval output folders: results files checked against their samples files.

lm-eval writes, below its ``--output_path``, one ``results_<stamp>.json`` per
run and, with ``--log_samples``, one ``samples_<task>_<stamp>.jsonl`` per task
beside it. It writes the results file first, so an interrupted or copied
folder can hold a results file whose samples are incomplete. This reader
checks, for every task a benchmark asks for that the results file lists:

- its samples file exists (a missing one is reported, never skipped silently);
- it holds as many documents as the results file's ``n-samples`` says;
- no document appears twice in it;
- each row's ``doc_hash`` and ``target_hash`` (lm-eval's SHA-256 of the
  document as indented JSON, and of the target as text) match its ``doc`` and
  ``target``: an edited document or target is refused, naming file and line.

A run's content key (:attr:`LmEvalRun.content`) is the hash of its samples
files, so a copied output folder is one run (see :mod:`cog_tasks.common.runs`).

:func:`data_argument` hashes the documents a run scored, so that a reader can
put the data in the run's identity (as Inspect runs carry
:data:`~cog_tasks.common.logs.DATA_ARGUMENT`): runs on different data are
never one row, paired or pooled.

It imports no framework: lm-eval's files are plain JSON.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cog_tasks.common.files import iter_jsonl, read_json
from cog_tasks.common.logs import DATA_ARGUMENT, DATA_DIGITS
from cog_tasks.common.results import ResultsError
from cog_tasks.common.runs import file_sha256, text_sha256


def find_results_files(path: Path) -> list[Path]:
    """The lm-eval results files at ``path`` (a results file or an output folder), sorted.

    Raises:
        FileNotFoundError: If ``path`` does not exist, is a file but not JSON
            (an Inspect ``.eval`` log), or holds no ``results_*.json``.
    """
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
    """One task's samples file.

    Attributes:
        task: The task name.
        path: The samples file.
        rows: ``(line number, row)`` per document (one filter's rows where the
            task has several filters, as lm-eval writes one line per filter).
    """

    task: str
    path: Path
    rows: list[tuple[int, dict[str, Any]]]


@dataclass(frozen=True)
class LmEvalRun:
    """One results file with its checked samples.

    Attributes:
        results_file: The ``results_<stamp>.json``.
        data: Its parsed content.
        samples: The samples of each asked-for task that has its file.
        missing: Asked-for tasks the results file lists but whose samples file is missing.
        content: The hash of its samples files' bytes, in task order.
    """

    results_file: Path
    data: dict[str, Any]
    samples: dict[str, TaskSamples]
    missing: tuple[str, ...]
    content: str = ""


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def check_sample_hashes(path: Path, number: int, row: dict[str, Any]) -> None:
    """Refuse a samples row whose ``doc`` or ``target`` no longer matches lm-eval's hash of it.

    lm-eval writes ``doc_hash`` (of the document as ``json.dumps(doc, indent=2,
    ensure_ascii=False)``) and ``target_hash`` (of ``str(target)``); a row
    without them (an older lm-eval) is not checked.

    Raises:
        ResultsError: Naming the file, line and field.
    """
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


def _expected(data: dict[str, Any], task: str) -> int | None:
    counts = (data.get("n-samples") or {}).get(task) or {}
    value = counts.get("effective")
    return int(value) if value is not None else None


def read_lm_eval_run(
    results_file: Path, tasks: Collection[str], *, filter_name: str | None = None
) -> LmEvalRun:
    """Read one results file and the samples files of ``tasks`` beside it, checked.

    Args:
        results_file: The ``results_<stamp>.json``.
        tasks: The task names the benchmark reads (others are ignored).
        filter_name: Keep only samples rows of this lm-eval filter (``None``: all rows).

    Returns:
        The run; tasks the results file does not list are absent from both
        ``samples`` and ``missing``.

    Raises:
        ResultsError: Naming the file when a samples file holds another
            number of documents than ``n-samples`` says, or a document twice,
            or naming the line of a document or target that fails its hash.
    """
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
        expected = _expected(data, task)
        if expected is not None and expected != len(rows):
            raise ResultsError(
                f"{path}: {len(rows)} documents, but {results_file.name} says {expected} "
                "(an interrupted or mixed folder? rerun the task)"
            )
        samples[task] = TaskSamples(task, path, rows)
    content = text_sha256("lm-eval", *digests) if digests else ""
    return LmEvalRun(results_file, data, samples, tuple(missing), content)


def data_argument(run: LmEvalRun, fields: Collection[str] | None = None) -> dict[str, str]:
    """The identity argument :data:`~cog_tasks.common.logs.DATA_ARGUMENT` of a run's documents.

    Each document lm-eval logged (its ``doc``, only ``fields`` where given) is
    hashed as canonical JSON; the value is the SHA-256 over the sorted
    document hashes, one per line, shortened to :data:`~cog_tasks.common.logs.DATA_DIGITS`. It
    depends on the data alone: the same documents give the same value in any
    order or folder, and one changed answer or option gives another. It is the
    hash of what was scored, not of the data files: a run of fewer documents
    (``--limit``, fewer tasks) has its own, as its other arguments already say.

    Args:
        run: The run, its samples read.
        fields: The document keys that are data (``None``: every key). Keys
            that depend on the model, such as token counts of its tokenizer,
            must be left out, or the same data would differ between models.

    Returns:
        ``{DATA_ARGUMENT: hash}``, or ``{}`` when no samples row holds a document.
    """
    digests = sorted(
        hashlib.sha256(
            json.dumps(
                {k: v for k, v in row["doc"].items() if fields is None or k in fields},
                sort_keys=True,
                ensure_ascii=False,
            ).encode("utf-8")
        ).hexdigest()
        for samples in run.samples.values()
        for _, row in samples.rows
        if isinstance(row.get("doc"), dict)
    )
    if not digests:
        return {}
    combined = hashlib.sha256("".join(f"{digest}\n" for digest in digests).encode("ascii"))
    return {DATA_ARGUMENT: combined.hexdigest()[:DATA_DIGITS]}
