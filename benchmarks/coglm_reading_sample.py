"""CogLM ``ours`` on a random sample of all the authors' Llama-2-chat replies, labelled blind.

``sample`` reads the 3 x 1,220 released replies with ``ours`` (the default reading of
``coglm_chat``), stratifies them by its outcome (the option read, or ``none``) and draws
120 with seed 120: proportional allocation (largest remainder), but at least 10 from
every stratum (all of a smaller one). Each drawn reply's weight is its stratum's size
over its draws, so agreement can be weighted back to all replies. Two files go to a
folder outside the repository (they hold the replies: never commit them):
``coglm_blind.json`` (shuffled ``{id, question, options, reply}``, nothing of the reading
or the gold answer) and ``coglm_key.json`` (id -> model, stage, ability, index, stratum,
outcome, weight).

``join LABELS`` reads ``{id: {"label": "A".. | "ambiguous" | "none", "note": ...}}`` and
writes ``results/coglm_reading_random.json`` (ids and readings, no text); with
``--reread`` each drawn reply is read again by ``ours`` as the code reads it now (the
key's reading kept as ``sampled_outcome``; strata and weights stay the sample's), and
``--out`` names the file. ``ours`` agrees
when it reads the labelled option, or reads none where the label is ``none`` or
``ambiguous``. Intervals are Wilson's; the weighted one over Kish's effective size. The
drawing, the files and the agreement are ``reading_sample.py``'s.

Usage::

    python benchmarks/coglm_reading_sample.py sample [--folder /work/blind]
    python benchmarks/coglm_reading_sample.py join LABELS [--folder /work/blind]
    python benchmarks/coglm_reading_sample.py join LABELS --reread --out RESULT.json
    python benchmarks/coglm_reading_sample.py sample --seed 2026 --name coglm2
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from coglm_reading_agreement import MODELS, letter_of, replies_file
from reading_sample import NO_ANSWER, draw_sample, read_key_and_labels, results

from cog_tasks.coglm.abilities import ABILITY_BY_CODE
from cog_tasks.coglm.extract import LETTERS, coerce_prediction
from cog_tasks.coglm.inspect.version import TASK_VERSION
from cog_tasks.coglm.predictions import iter_authors_outputs
from cog_tasks.common.files import write_json_atomically

SEED, SIZE = 120, 120
RESULT = Path(__file__).parent / "results" / "coglm_reading_random.json"


def sample(folder: Path, seed: int = SEED, name: str = "coglm") -> None:
    """Read every reply, draw the stratified sample, write the blind and key files."""
    strata: dict[str, list[dict[str, Any]]] = {}
    for model in MODELS:
        for _, row in iter_authors_outputs(replies_file(model)):
            outcome = letter_of(coerce_prediction(row["prediction"], row["choices"]))
            ability = ABILITY_BY_CODE[row["ability"]]
            strata.setdefault(outcome or "none", []).append({
                "model": model, "stage": ability.stage_folder, "ability": ability.file_stem,
                "index": int(row["id"].rsplit("-", 1)[1]), "outcome": outcome, "blind": {
                    "question": row["question"],
                    "options": dict(zip(LETTERS, row["choices"], strict=False)),
                    "reply": row["prediction"],
                },
            })  # fmt: skip
    draw_sample(strata, folder, name, SIZE, seed)


def _reread(entry: dict[str, Any], files: dict[str, Any]) -> dict[str, Any]:
    """``entry`` with ``outcome`` read again from the released reply, the sampled one kept."""
    if entry["model"] not in files:
        files[entry["model"]] = json.loads(replies_file(entry["model"]).read_text())
    item = files[entry["model"]][entry["stage"]][entry["ability"]][entry["index"]]
    outcome = letter_of(coerce_prediction(item["predict"], item["candidates"]))
    return {**entry, "sampled_outcome": entry["outcome"], "outcome": outcome}


def join(
    labels_path: Path, folder: Path, reread: bool = False, name: str = "coglm", seed: int = SEED
) -> dict[str, Any]:
    """Join the labels with the key; agreement per stratum, overall and weighted."""
    key, labels = read_key_and_labels(labels_path, folder / f"{name}_key.json")
    rows, files = [], {}
    for id_, entry in key.items():
        entry = _reread(entry, files) if reread else entry
        label = labels[id_]["label"]
        if label not in (*LETTERS[:8], *NO_ANSWER):
            raise SystemExit(f"{labels_path}: {id_}: label {label!r} is not A-H, ambiguous, none")
        agree = entry["outcome"] == label or (entry["outcome"] is None and label in NO_ANSWER)
        rows.append({"id": id_, **entry, "label": label, "agree": agree})
    reading = f" Read again by coglm_chat {TASK_VERSION}'s ours (--reread)." if reread else ""
    return results(
        rows,
        __doc__.splitlines()[0] + reading,
        f"python benchmarks/coglm_reading_sample.py sample --seed {seed} --name {name}; label "
        f"the blind file; python benchmarks/coglm_reading_sample.py join LABELS --name {name}"
        + (" --reread --out FILE" if reread else ""),
        "one labeller (a helper agent) who saw only the blind file: question, lettered options, "
        "reply; never the reader's outcome or the gold answer",
        misread=lambda r: r["label"] == "ambiguous" and r["outcome"] is not None,
        shown=("id", "sampled_outcome", "outcome", "label")
        if reread
        else ("id", "outcome", "label"),
        seed=seed,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("sample", "join"))
    parser.add_argument("labels", nargs="?", type=Path, help="labels file (join)")
    parser.add_argument("--folder", type=Path, default=Path("/work/blind"))
    parser.add_argument("--seed", type=int, default=SEED, help="seed of the draw (sample)")
    parser.add_argument("--name", default="coglm", help="prefix of the blind and key files")
    parser.add_argument("--reread", action="store_true", help="read the drawn replies again")
    parser.add_argument("--out", type=Path, default=RESULT, help="results file (join)")
    args = parser.parse_args()
    if args.command == "sample":
        sample(args.folder, args.seed, args.name)
    elif args.labels is None:
        parser.error("join needs the labels file")
    else:
        found = join(args.labels, args.folder, args.reread, args.name, args.seed)
        write_json_atomically(args.out, found)
    return 0


if __name__ == "__main__":
    sys.exit(main())
