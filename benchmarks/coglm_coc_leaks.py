"""Leaks of hidden chain-of-cognition rationales on the authors' full released replies.

Reads the CogLM authors' raw outputs (``result/llama-2-{7b,13b,70b}-chat/result.json``,
all 1,220 replies each; at run time, never copied into the project), shows
each reply as ``-T coc_rationale=hidden`` and ``=masked`` do
(:func:`cog_tasks.coglm.rationale.shown_rationale`) and counts, per form, file
and rule of the independent detector (:mod:`cog_tasks.coglm.leaks`, its
:data:`~cog_tasks.coglm.leaks.RULES`), the replies whose shown
rationale still leaks, with 95 % Wilson intervals over replies, the share
of the replies' characters kept (pooled, bootstrap over replies), overall
and for ``plan``, the replies left with nothing to show, and the same-option
share of the hider's own count (:func:`cog_tasks.coglm.rationale.leak_counts`,
``ours`` reader).

``--handread PATH`` also writes, for a blind hand-read outside the project, 50 hidden
rationales per file drawn with ``--seed`` (48 by default) among those that show anything: id,
model, question, lettered options and the rationale, never which option the reply chose.

Usage::

    python benchmarks/coglm_coc_leaks.py RESULT_DIR [--out JSON] [--handread PATH] [--force]

``RESULT_DIR`` holds ``llama-2-*-chat/result.json`` (``$COG_TASKS_DATA/coglm/result``).
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from pathlib import Path
from typing import Any

from cog_tasks.coglm.extract import LETTERS
from cog_tasks.coglm.inspect.version import TASK_VERSION
from cog_tasks.coglm.leaks import RULES, find_leaks
from cog_tasks.coglm.predictions import iter_authors_outputs
from cog_tasks.coglm.rationale import leak_counts, shown_rationale
from cog_tasks.common.files import allow_overwrite, write_json_atomically
from cog_tasks.common.stats import ratio_interval, wilson_interval

MODELS = ("llama-2-7b-chat", "llama-2-13b-chat", "llama-2-70b-chat")
FORMS = ("hidden", "masked")
HANDREAD_SEED, HANDREAD_ITEMS = 48, 50


def handread(result_dir: Path, seed: int = HANDREAD_SEED) -> list[dict[str, Any]]:
    """50 seeded hidden rationales per file of those showing anything, without the chosen option."""
    rng, drawn = random.Random(seed), []
    for model in MODELS:
        shown = [
            {
                "id": row["id"],
                "model": model,
                "question": row["question"],
                "options": dict(zip(LETTERS, row["choices"], strict=False)),
                "rationale": shown_rationale(
                    str(row["prediction"] or ""), row["choices"], "hidden", row["question"]
                ),
            }
            for _, row in iter_authors_outputs(result_dir / model / "result.json")
        ]
        drawn += rng.sample([row for row in shown if row["rationale"]], HANDREAD_ITEMS)
    return drawn


def measure(path: Path, form: str) -> dict[str, Any]:
    """The counts of one released file shown in ``form`` (see the module docstring)."""
    items = [item for _, item in iter_authors_outputs(path)]
    leaking: Counter[str] = Counter()
    kept: list[tuple[int, int]] = []
    kept_plan: list[tuple[int, int]] = []
    examples: dict[str, list[str]] = {}
    for item in items:
        reply = str(item["prediction"] or "")
        hidden = shown_rationale(reply, item["choices"], form, item["question"])
        leaks = find_leaks(hidden, reply, item["choices"], item["question"])
        leaking["nothing shown"] += not hidden
        for rule in {leak.rule for leak in leaks}:
            leaking[rule] += 1
            examples.setdefault(rule, []).append(item["id"])
        leaking["any"] += bool(leaks)
        pair = (len(hidden), len(reply.strip()))
        kept.append(pair)
        if item["ability"] == "plan":
            kept_plan.append(pair)
    own = leak_counts(
        ((str(i["prediction"] or ""), i["choices"], i["question"]) for i in items), form=form
    )
    replies = len(items)
    return {
        "file": path.parent.name,
        "form": form,
        "replies": replies,
        "leaks": {
            rule: wilson_interval(leaking[rule], replies, unit="reply").as_dict()
            for rule in (*RULES, "any")
        },
        "nothing_shown": leaking["nothing shown"],
        "leak_ids": examples,
        "kept_share": ratio_interval(kept, unit="reply", bounds=(0.0, 1.0)).as_dict(),
        "kept_share_plan": ratio_interval(kept_plan, unit="reply", bounds=(0.0, 1.0)).as_dict(),
        "hider_same_option": {"readable": own.readable, "same_option": own.same_option},
    }


def main() -> None:
    """Measure the three files and print (and optionally write) the numbers."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("result_dir", type=Path)
    parser.add_argument("--out", type=Path, help="write the numbers as JSON here")
    parser.add_argument("--handread", type=Path, help="write the blind hand-read file here")
    parser.add_argument("--seed", type=int, default=HANDREAD_SEED, help="--handread's draw")
    parser.add_argument("--force", action="store_true", help="write over --out and --handread")
    args = parser.parse_args()
    allow_overwrite(args.force)
    if args.handread:
        write_json_atomically(args.handread, handread(args.result_dir, args.seed))
    results = [
        measure(args.result_dir / model / "result.json", form) for form in FORMS for model in MODELS
    ]
    for result in results:
        own = result["hider_same_option"]
        leaks = ", ".join(
            f"{rule} {round(value['value'] * value['n'])}"
            for rule, value in result["leaks"].items()
        )
        print(
            f"{result['file']} {result['form']}: {result['replies']} replies; leaking: {leaks}; "
            f"nothing shown {result['nothing_shown']}; "
            f"characters kept {100 * result['kept_share']['value']:.1f} % "
            f"(plan {100 * result['kept_share_plan']['value']:.1f} %); hider's own same-option "
            f"{own['same_option']} of {own['readable']}"
        )
    if args.out:
        write_json_atomically(
            args.out, {"coglm_chat": TASK_VERSION, "detector_rules": list(RULES), "files": results}
        )
        print(f"written to {args.out}")


if __name__ == "__main__":
    main()
