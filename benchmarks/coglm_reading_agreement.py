"""CogLM ``ours`` against ``authors`` on the authors' released Llama-2-chat replies.

Reads ``$COG_TASKS_DATA/coglm/result/<model>/result.json`` (3 models x 1,220
replies) at run time, reads every reply with both rules (and, with
``--before REV``, with ``ours`` as it was at git revision REV), and writes the
agreement counts and accuracies to ``benchmarks/results/coglm_reading_agreement.json``.
The replies themselves are never written into the repository: ``--sample DIR``
writes a stratified sample of disagreements to DIR in two files, the replies
alone (``sample_replies.jsonl``, for labelling blind) and the readers' outputs
(``sample_readings.jsonl``, joined after labelling).

Usage::

    python benchmarks/coglm_reading_agreement.py [--before REV] [--sample /tmp/coglm_sample]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import random
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from cog_tasks.coglm.authors_rule import authors_llama_choice
from cog_tasks.coglm.extract import LETTERS, extract_choice
from cog_tasks.common.files import allow_overwrite, write_json_atomically

MODELS = ("llama-2-7b-chat", "llama-2-13b-chat", "llama-2-70b-chat")
RESULT = Path(__file__).parent / "results" / "coglm_reading_agreement.json"


def _old_reader(revision: str) -> Any:
    """``extract_choice`` from ``cog_tasks/coglm/extract.py`` at git ``revision``."""
    source = subprocess.run(
        ["git", "show", f"{revision}:cog_tasks/coglm/extract.py"],
        check=True, capture_output=True, text=True, cwd=Path(__file__).parent,
    ).stdout  # fmt: skip
    path = Path(tempfile.mkdtemp()) / "old_extract.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("old_extract", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.extract_choice


def replies_file(model: str) -> Path:
    """The authors' released replies of ``model`` (``$COG_TASKS_DATA/coglm/result``)."""
    return (
        Path(os.environ.get("COG_TASKS_DATA", "data")) / "coglm" / "result" / model / "result.json"
    )


def letter_of(index: int | None) -> str | None:
    return None if index is None else LETTERS[index]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", help="git revision of the previous 'ours' reader")
    parser.add_argument(
        "--sample", type=Path, help="folder for a disagreement sample (not the repo)"
    )
    parser.add_argument("--size", type=int, default=100)
    parser.add_argument("--force", action="store_true", help="write over the results file")
    args = parser.parse_args()
    allow_overwrite(args.force)
    old = _old_reader(args.before) if args.before else None
    rows, summary = [], {}
    for model in MODELS:
        data = json.loads(replies_file(model).read_text())
        counts: Counter[str] = Counter()
        for stage, abilities in data.items():
            for ability, items in abilities.items():
                for number, item in enumerate(items):
                    reply, choices = item["predict"], item["candidates"]
                    ours = letter_of(extract_choice(reply, choices))
                    authors = letter_of(authors_llama_choice(reply, choices))
                    before = letter_of(old(reply, choices)) if old else None
                    counts["replies"] += 1
                    counts["agree"] += ours == authors
                    counts["ours_invalid"] += ours is None
                    counts["authors_invalid"] += authors is None
                    counts["ours_correct"] += ours == item["answer"]
                    counts["authors_correct"] += authors == item["answer"]
                    if old:
                        counts["changed_from_before"] += ours != before
                        counts["before_correct"] += before == item["answer"]
                        counts["before_invalid"] += before is None
                    if ours != authors:
                        counts[
                            "ours_none_authors_letter"
                            if ours is None
                            else "both_letters_differ"
                            if authors
                            else "ours_letter_authors_none"
                        ] += 1
                        rows.append({
                            "id": f"{model}/{stage}/{ability}/{number}", "reply": reply,
                            "choices": choices, "ours": ours, "authors": authors, "before": before,
                        })  # fmt: skip
        summary[model] = dict(counts)
    total = Counter()
    for counts in summary.values():
        total.update(counts)
    summary["all"] = dict(total)
    summary["agreement"] = round(total["agree"] / total["replies"], 4)
    write_json_atomically(RESULT, {"before": args.before, "models": summary})
    print(json.dumps(summary, indent=1))
    if args.sample:
        _write_sample(rows, args.sample, args.size)
    return 0


def _write_sample(rows: list[dict[str, Any]], folder: Path, size: int) -> None:
    """A sample stratified by whether ``ours`` read a letter: replies alone, readings apart."""
    rng = random.Random(49)
    strata = [[row for row in rows if row["ours"] is None], [row for row in rows if row["ours"]]]
    picked = []
    for stratum in strata:
        picked += rng.sample(stratum, min(len(stratum), size // 2))
    rng.shuffle(picked)
    folder.mkdir(parents=True, exist_ok=True)
    with (
        (folder / "sample_replies.jsonl").open("w") as blind,
        (folder / "sample_readings.jsonl").open("w") as readings,
    ):
        for row in picked:
            blind.write(json.dumps({k: row[k] for k in ("id", "reply", "choices")}) + "\n")
            readings.write(
                json.dumps({k: row[k] for k in ("id", "ours", "authors", "before")}) + "\n"
            )


if __name__ == "__main__":
    sys.exit(main())
