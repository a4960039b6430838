"""A reader on a random sample of real replies, labelled blind (shared parts, and CogEval).

``sample`` stratifies the replies by the reader's outcome and draws ``SIZE`` (all when
fewer) with a seed: proportional allocation (largest remainder), but at least ``FLOOR``
from every stratum (all of a smaller one). Each drawn reply's weight is its stratum's size
over its draws, so agreement can be weighted back to all replies. Two files go to a folder
outside the repository (never commit them): ``<name>_blind.json`` (shuffled ``{id, ...}``,
the question and the reply, nothing of the reading, the score or the expected answer) and
``<name>_key.json`` (id -> where the reply comes from, stratum, reading, weight).
``join`` gives agreement per stratum, overall and weighted back to all replies (Wilson's
intervals; the weighted one over Kish's effective size). ``coglm_reading_sample.py``
uses these parts for CogLM.

CogEval: the finished samples (those with a score) of one Inspect log of ``cogeval``; the
stratum is the scorer's failure mode (``success`` when none); the blind file holds the
user turn the scored reply answers and the scored reply. Labels are
``{id: {"label": "one" | "ambiguous" | "none", "answer": "...", "note": "..."}}`` (``answer``,
the single answer the reply gives, only for ``one``). The reader agrees when it read nothing
(``no_answer`` or ``unparseable``) where the label is ``none`` or ``ambiguous``, or read an
answer equal to the label's after :func:`normalise`. The results keep the reply text (our
own model's replies).

Usage::

    python benchmarks/reading_sample.py sample cogeval LOG [--folder /work/blind]
    python benchmarks/reading_sample.py join cogeval LABELS [--folder /work/blind]
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cog_tasks.common.files import read_json, write_json_atomically
from cog_tasks.common.stats import Interval, wilson_interval

SEED, SIZE, FLOOR = 120, 110, 10
RESULTS = Path(__file__).parent / "results"
NO_ANSWER = ("ambiguous", "none")
NOTHING_READ = ("no_answer", "unparseable")
SCORER = "cogeval_scorer"
_SEPARATORS = re.compile(r"\s*(?:,|;|->|=>|→|\s[-–—]\s|\bthen\b)\s*")
_PREFIX = re.compile(r"^(?:the\s+)?(?:room\s+)?")


def allocate(sizes: dict[str, int], total: int, floor: int) -> dict[str, int]:
    """Draws per stratum: ``total`` shared in proportion, at least ``floor`` (or all) each."""
    fixed: dict[str, int] = {}
    while True:
        rest = {name: size for name, size in sizes.items() if name not in fixed}
        budget = total - sum(fixed.values())
        shares = {name: budget * size / sum(rest.values()) for name, size in rest.items()}
        small = {name: min(floor, sizes[name]) for name, share in shares.items() if share < floor}
        if not small:
            break
        fixed |= small
    draws = {name: int(share) for name, share in shares.items()}
    by_remainder = sorted(shares, key=lambda name: draws[name] - shares[name])
    for name in by_remainder[: budget - sum(draws.values())]:
        draws[name] += 1
    return fixed | draws


def draw_sample(
    strata: dict[str, list[dict[str, Any]]], folder: Path, name: str, size: int, seed: int
) -> None:
    """Draw the stratified sample; write each entry's ``blind`` part and, apart, the rest.

    Args:
        strata: Entries by stratum, each with a ``blind`` dictionary (what the labeller sees).
        folder: Where ``<name>_blind.json`` and ``<name>_key.json`` go.
        name: The files' prefix.
        size: Replies to draw (all of them when there are fewer).
        seed: Seed of the draws and of the shuffle.
    """
    sizes = {stratum: len(entries) for stratum, entries in sorted(strata.items())}
    draws = allocate(sizes, min(size, sum(sizes.values())), FLOOR)
    rng = random.Random(seed)
    picked = [
        entry | {"stratum": stratum, "weight": sizes[stratum] / count}
        for stratum, count in draws.items()
        for entry in rng.sample(strata[stratum], count)
    ]
    rng.shuffle(picked)
    ids = [f"r{number:03d}" for number in range(1, len(picked) + 1)]
    pairs = list(zip(ids, picked, strict=True))
    folder.mkdir(parents=True, exist_ok=True)
    blind = [{"id": id_, **entry["blind"]} for id_, entry in pairs]
    key = {id_: {k: v for k, v in entry.items() if k != "blind"} for id_, entry in pairs}
    write_json_atomically(folder / f"{name}_blind.json", blind)
    write_json_atomically(folder / f"{name}_key.json", key)
    print({stratum: f"{count} of {sizes[stratum]}" for stratum, count in draws.items()})


def read_key_and_labels(labels_path: Path, key_path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """The key and the labels, every drawn id labelled."""
    labels, key = read_json(labels_path), read_json(key_path)
    if missing := sorted(set(key) - set(labels)):
        raise SystemExit(f"{labels_path}: no label for {missing}")
    return key, labels


def _weighted(rows: list[dict[str, Any]]) -> Interval:
    """Agreement weighted back to all replies, Wilson's interval over Kish's effective size."""
    weights = [row["weight"] for row in rows]
    share = sum(w for w, row in zip(weights, rows, strict=True) if row["agree"]) / sum(weights)
    effective = round(sum(weights) ** 2 / sum(w * w for w in weights))
    return wilson_interval(share * effective, effective, unit="reply")


def agreement(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Agreement (rows' ``agree``) per stratum, overall and weighted back to all replies."""
    agreed = Counter(row["stratum"] for row in rows if row["agree"])
    drawn = Counter(row["stratum"] for row in rows)
    return {
        "strata": {
            name: wilson_interval(agreed[name], n, unit="reply").as_dict()
            for name, n in sorted(drawn.items())
        },
        "overall": wilson_interval(agreed.total(), len(rows), unit="reply").as_dict(),
        "weighted": _weighted(rows).as_dict(),
    }


def results(
    rows: list[dict[str, Any]],
    what: str,
    command: str,
    labels: str,
    *,
    read: Callable[[dict[str, Any]], bool],
    shown: tuple[str, ...],
    seed: int = SEED,
) -> dict[str, Any]:
    """A results file: agreement, replies ``read`` where the label says ambiguous, disagreements."""
    return {
        "what": what,
        "seed": seed,
        "command": command,
        "labels": labels,
        **agreement(rows),
        "reads_where_ambiguous": sum(r["label"] == "ambiguous" and read(r) for r in rows),
        "disagreements": [{key: r[key] for key in shown} for r in rows if not r["agree"]],
        "replies": rows,
    }


def normalise(answer: str) -> str:
    """Comparable form of an answer text.

    Lower case; split at commas, semicolons, arrows, a spaced dash and "then"; each part
    without surrounding spaces, quotes, ``*``, backticks or end punctuation, and without a
    leading "the " or "room "; inner spaces single; the parts joined by ", ". So "Room 1 ->
    room 3." and "1, 3" are equal (a map's pairs compare as the flat list of their ends).
    """
    parts = (part.strip(" .!:*`'\"") for part in _SEPARATORS.split(answer.lower()))
    return ", ".join(" ".join(_PREFIX.sub("", part).split()) for part in parts if part)


def _cogeval_entry(sample: Any) -> dict[str, Any]:
    """Key entry of one scored CogEval sample, with the question and scored reply as ``blind``."""
    replies = [i for i, message in enumerate(sample.messages) if message.role == "assistant"]
    number = (sample.metadata or {}).get("scored_reply") or len(replies)
    scored = replies[number - 1]
    question = next(m for m in reversed(sample.messages[:scored]) if m.role == "user")
    score = sample.scores[SCORER]
    return {
        "sample": str(sample.id),
        "epoch": sample.epoch,
        "answer": score.answer,
        "blind": {"question": question.text, "reply": sample.messages[scored].text},
    }


def sample_cogeval(log_path: Path, folder: Path) -> None:
    """Stratify the log's finished samples by the reader's outcome and draw the sample."""
    from inspect_ai.log import read_eval_log

    strata: dict[str, list[dict[str, Any]]] = {}
    for sample in read_eval_log(str(log_path)).samples or []:
        if sample.scores and SCORER in sample.scores:
            outcome = (sample.scores[SCORER].metadata or {}).get("failure_mode") or "success"
            strata.setdefault(outcome, []).append(_cogeval_entry(sample))
    draw_sample(strata, folder, "cogeval", SIZE, SEED)


def join_cogeval(labels_path: Path, folder: Path) -> dict[str, Any]:
    """Join the labels with the key and the replies; agreement per stratum, overall, weighted."""
    key, labels = read_key_and_labels(labels_path, folder / "cogeval_key.json")
    replies = {entry["id"]: entry["reply"] for entry in read_json(folder / "cogeval_blind.json")}
    rows = []
    for id_, entry in key.items():
        label, label_answer = labels[id_]["label"], labels[id_].get("answer")
        if label not in ("one", *NO_ANSWER) or (label == "one") != (label_answer is not None):
            raise SystemExit(f"{labels_path}: {id_}: not one with an answer, ambiguous or none")
        read = entry["stratum"] not in NOTHING_READ
        if label == "one":
            agree = read and normalise(entry["answer"]) == normalise(label_answer)
        else:
            agree = not read
        rows.append({
            "id": id_, **entry, "label": label, "label_answer": label_answer, "agree": agree,
            "note": labels[id_].get("note", ""), "reply": replies[id_],
        })  # fmt: skip
    return results(
        rows,
        "CogEval's reader on a random sample of Qwen2.5-Coder-1.5B's replies (the CPU preset's "
        "profile), labelled blind.",
        "python benchmarks/reading_sample.py sample cogeval LOG; label the blind file; "
        "python benchmarks/reading_sample.py join cogeval LABELS",
        "one labeller (a helper agent) who saw only the blind file: the question turn and the "
        "scored reply; never the reader's outcome or answer, the score or the expected answer",
        read=lambda r: r["stratum"] not in NOTHING_READ,
        shown=("id", "sample", "stratum", "answer", "label", "label_answer"),
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("sample", "join"))
    parser.add_argument("benchmark", choices=("cogeval",))
    parser.add_argument("path", type=Path, help="the Inspect log (sample), the labels (join)")
    parser.add_argument("--folder", type=Path, default=Path("/work/blind"))
    args = parser.parse_args()
    if args.command == "sample":
        sample_cogeval(args.path, args.folder)
    else:
        write_json_atomically(
            RESULTS / "cogeval_reading_random.json", join_cogeval(args.path, args.folder)
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
