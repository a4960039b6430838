"""How much a hidden chain-of-cognition rationale points at its answer, on the authors' replies.

Reads raw-output files in the CogLM authors' layout (their
``result/llama-2-*-chat/result.json``, whole or a sample of their items in
the same layout) and prints, per file, with 95 % intervals over replies:

- the share of replies whose hidden rationale (``-T coc_rationale=hidden``,
  :func:`cog_tasks.coglm.rationale.shown_rationale`) still reads as the
  option the full reply chose, by the ``ours`` reader, by the ``authors``
  reader, and by both (over the replies both read);
- the share of replies that mention ``boxed`` and that start with the
  speaker tag ``A:`` (facts about the replies, not about the hiding);
- the share whose hidden rationale still holds an ordinal, a fragment of
  an option or an order of steps that singles out an option
  (:func:`cog_tasks.coglm.rationale.points_at_options`);
- the share of the replies' characters the hidden rationale keeps;
- for options that are sequences of steps (three or more comma-separated
  parts, as in ``plan``), the share whose hidden rationale still lists the
  chosen option's steps in its order (every step's text, word for word; a
  check independent of the hiding code's own detector, which counts the
  first step of each clause);

and, over the items, ``ours`` minus ``authors``: the pooled calibrated
accuracy (chance one over the listed options) and the accuracy, paired
(:func:`cog_tasks.common.results.compare_units`). A sample is no full file:
the pooled difference weighs the sampled abilities by their items, so it is
not Table 9's mean over ten abilities.

Usage::

    python benchmarks/coglm_coc_leak_sample.py FILE... [--note TEXT] [--out JSON]
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cog_tasks.coglm.extract import get_extractor
from cog_tasks.coglm.metrics import calibrated_unit
from cog_tasks.coglm.predictions import iter_authors_outputs
from cog_tasks.coglm.rationale import leak_counts, shown_rationale
from cog_tasks.common.files import write_json_atomically
from cog_tasks.common.results import compare_units
from cog_tasks.common.stats import Interval, wilson_interval

READERS = ("ours", "authors")
SEQUENCE_STEPS = 3
"""An option of this many comma-separated steps or more is a sequence."""


def lists_in_order(text: str, steps: Sequence[str]) -> bool:
    """Whether ``text`` names every step, case ignored, in the steps' order."""
    lowered, at = text.lower(), -1
    for step in steps:
        at = lowered.find(step.strip().lower(), at + 1)
        if at < 0:
            return False
    return True


def _shown(interval: Interval, scale: float = 100.0) -> str:
    return f"{scale * interval.value:.1f} [{scale * interval.low:.1f}, {scale * interval.high:.1f}]"


def measure(path: Path) -> dict[str, Any]:
    """Every number of one file (see the module docstring)."""
    items = [item for _, item in iter_authors_outputs(path)]
    replies = [(str(i["prediction"] or ""), i["choices"], i["question"]) for i in items]
    result: dict[str, Any] = {
        "file": str(path),
        "items": len(items),
        "abilities": dict(Counter(item["ability"] for item in items)),
        "boxed_share": wilson_interval(
            sum("boxed" in reply for reply, _, _ in replies), len(replies), unit="reply"
        ).as_dict(),
        "speaker_tag_share": wilson_interval(
            sum(reply.startswith("A:") for reply, _, _ in replies), len(replies), unit="reply"
        ).as_dict(),
    }
    for name in READERS:
        counts = leak_counts(replies, extractor=get_extractor(name))
        result[name] = {
            "readable": counts.readable,
            "same_option_share": counts.share("same_option").as_dict(),
            "pointer_share": counts.share("pointers").as_dict(),
            "kept_share": counts.kept_interval().as_dict(),
        }
    ours, authors = (get_extractor(name) for name in READERS)
    both = same = 0
    for reply, choices, question in replies:
        full = (ours(reply, choices), authors(reply, choices))
        if None in full:
            continue
        both += 1
        shown = shown_rationale(reply, choices, "hidden", question)
        same += (ours(shown, choices), authors(shown, choices)) == full
    result["both_same_option_share"] = wilson_interval(same, both, unit="reply").as_dict()
    sequences = listed = 0
    for reply, choices, question in replies:
        chosen = ours(reply, choices)
        if chosen is None or len(choices[chosen].split(",")) < SEQUENCE_STEPS:
            continue
        sequences += 1
        shown = shown_rationale(reply, choices, "hidden", question)
        listed += lists_in_order(shown, choices[chosen].split(","))
    if sequences:
        result["sequence_listed_share"] = wilson_interval(listed, sequences, unit="reply").as_dict()
    correct = {
        name: {
            item["id"]: float(
                get_extractor(name)(item["prediction"], item["choices"]) == item["answer"]
            )
            for item in items
        }
        for name in READERS
    }
    counts = {item["id"]: len(item["choices"]) for item in items}
    calibrated = {
        name: {key: calibrated_unit(value, counts[key]) for key, value in correct[name].items()}
        for name in READERS
    }
    pooled = compare_units(
        calibrated["ours"], calibrated["authors"], unit="item", scale="calibrated"
    )
    raw = compare_units(correct["ours"], correct["authors"], unit="item", scale="raw")
    assert pooled.difference is not None and raw.difference is not None
    result["ours_minus_authors_calibrated"] = pooled.difference.as_dict()
    result["ours_minus_authors_accuracy"] = raw.difference.as_dict()
    return result


def report(results: Sequence[dict[str, Any]]) -> str:
    """The numbers as text, one block per file (percent, 95 % interval)."""
    lines = []
    for result in results:
        lines.append(
            f"{result['file']}: {result['items']} items "
            f"({', '.join(f'{k} {v}' for k, v in result['abilities'].items())}); "
            f"replies mentioning boxed: {_shown(Interval.from_dict(result['boxed_share']))} %, "
            f"starting 'A:': {_shown(Interval.from_dict(result['speaker_tag_share']))} %"
        )
        for name in READERS:
            shares = result[name]
            lines.append(
                f"  hidden rationale, {name} reader ({shares['readable']} readable): same option "
                f"{_shown(Interval.from_dict(shares['same_option_share']))} %, ordinal, "
                f"fragment or order {_shown(Interval.from_dict(shares['pointer_share']))} %, "
                f"characters kept {_shown(Interval.from_dict(shares['kept_share']))} %"
            )
        lines.append(
            "  same option by both readers: "
            f"{_shown(Interval.from_dict(result['both_same_option_share']))} %"
        )
        if "sequence_listed_share" in result:
            listed = Interval.from_dict(result["sequence_listed_share"])
            lines.append(
                f"  sequence options ({listed.n} replies): hidden rationale still lists the "
                f"chosen option's steps in order: {_shown(listed)} %"
            )
        for key, what in (
            ("ours_minus_authors_calibrated", "pooled calibrated accuracy"),
            ("ours_minus_authors_accuracy", "accuracy"),
        ):
            difference = Interval.from_dict(result[key])
            lines.append(
                f"  ours - authors, {what}: {_shown(difference)} points "
                f"({difference.method}, n={difference.n} items)"
            )
    return "\n".join(lines)


def main() -> None:
    """Measure the files given and print (and optionally write) the numbers."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", type=Path, nargs="+", metavar="FILE")
    parser.add_argument("--note", default="", help="what the files are (e.g. which pages)")
    parser.add_argument("--out", type=Path, help="write the numbers as JSON here")
    args = parser.parse_args()
    results = [measure(path) for path in args.files]
    print(report(results))
    if args.out:
        write_json_atomically(args.out, {"note": args.note, "files": results})
        print(f"written to {args.out}")


if __name__ == "__main__":
    main()
