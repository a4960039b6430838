"""Re-score an lm-eval CogLM run under every choice rule, and compare with the authors'.

The ``coglm`` tasks (version 1.1 on) report the authors' rule themselves
(``acc_authors``): each document asks for its context's own log-likelihood
after the candidates. This script reads a ``--log_samples`` run, applies every
rule of :func:`cog_tasks.coglm.completion.choice_picks` to the logged
log-likelihoods, and reports how often each rule picks what the authors' rule
picks, with the calibrated accuracy per ability, stage and overall under each
rule. For a run made before version 1.1, whose samples lack the context's own
log-likelihood, it computes that with one batched forward pass per question
(the same tokens lm-eval's split gives: the context after its first token).

Usage::

    python benchmarks/coglm_authors_rule.py RESULTS_DIR  # writes benchmarks/results/...
"""

from __future__ import annotations

import argparse
import gzip
import json
import tempfile
import time
from pathlib import Path
from typing import Any

import torch

from cog_tasks.coglm.abilities import ABILITIES
from cog_tasks.coglm.completion import AUTHORS_PICK_METRIC, choice_picks, completion_context
from cog_tasks.coglm.metrics import assemble_summary, calibrated_accuracy
from cog_tasks.coglm.records import distinct_options
from cog_tasks.common.files import iter_jsonl, write_json_atomically


def _samples_file(results_dir: Path, code: str, unpacked: Path) -> Path:
    """The newest ``samples_coglm_<code>_*.jsonl`` (unpacked into ``unpacked`` if gzipped)."""
    files = sorted(results_dir.rglob(f"samples_coglm_{code}_*.jsonl*"))
    if not files:
        raise FileNotFoundError(f"{results_dir}: no samples for coglm_{code}")
    if files[-1].suffix != ".gz":
        return files[-1]
    target = unpacked / files[-1].stem
    target.write_bytes(gzip.decompress(files[-1].read_bytes()))
    return target


def read_samples(results_dir: Path) -> list[dict[str, Any]]:
    """Documents with ``lls`` (per candidate) and, if logged, ``context_ll``.

    Raises:
        ValueError: If candidate lengths were not counted in tokens.
    """
    rows = []
    with tempfile.TemporaryDirectory() as unpacked:
        for ability in ABILITIES:
            path = _samples_file(results_dir, ability.code, Path(unpacked))
            for number, sample in iter_jsonl(path):
                doc = sample["doc"]
                if doc["length_unit"] != "token":
                    raise ValueError(f"{path}:{number}: candidate lengths are not in tokens")
                lls = [float(ll) for ll, _ in sample["filtered_resps"]]
                doc["lls"] = lls[: doc["num_choices"]]
                if len(lls) == doc["num_choices"] + 1:
                    doc["context_ll"] = lls[-1]
                rows.append(doc)
    return rows


def add_context_scores(model_dir: str, docs: list[dict[str, Any]], batch_size: int) -> None:
    """Set ``context_ll`` and ``context_tokens`` where the run did not log them.

    The context's own log-likelihood covers its tokens after the first,
    without special tokens, as :func:`~cog_tasks.coglm.completion.context_split`
    counts them.
    """
    missing = [doc for doc in docs if "context_ll" not in doc]
    if not missing:
        return
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(model_dir)
    model = AutoModelForCausalLM.from_pretrained(model_dir)
    model.eval()
    encoded = [
        tokenizer.encode(completion_context(doc["question"]), add_special_tokens=False)
        for doc in missing
    ]
    order = sorted(range(len(encoded)), key=lambda i: -len(encoded[i]))
    with torch.inference_mode():
        for start in range(0, len(order), batch_size):
            batch = order[start : start + batch_size]
            width = len(encoded[batch[0]])
            ids = torch.zeros((len(batch), width), dtype=torch.long)
            for row, index in enumerate(batch):
                ids[row, : len(encoded[index])] = torch.tensor(encoded[index])
            logprobs = torch.log_softmax(model(ids).logits[:, :-1].float(), dim=-1)
            picked = logprobs.gather(2, ids[:, 1:, None])[..., 0]
            for row, index in enumerate(batch):
                scored = len(encoded[index]) - 1
                missing[index]["context_ll"] = float(picked[row, :scored].sum())
                missing[index]["context_tokens"] = scored


def main() -> None:
    """Re-score the run and write the JSON report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", type=Path, help="lm-eval --output_path of a --log_samples run")
    parser.add_argument("--model-dir", help="HF model directory (default: embedded SmolLM2)")
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument(
        "--output", type=Path, default=Path("benchmarks/results/coglm_authors_rule.json")
    )
    args = parser.parse_args()
    if args.model_dir is None:
        from cog_tasks.common.models import embedded_model_path

        args.model_dir = str(embedded_model_path("smollm2"))

    docs = read_samples(args.results)
    logged = sum("context_ll" in doc for doc in docs)
    start = time.perf_counter()
    add_context_scores(args.model_dir, docs, args.batch_size)
    elapsed = time.perf_counter() - start

    picks = [choice_picks(doc, doc["lls"], doc["context_ll"]) for doc in docs]
    rules = list(picks[0])
    report: dict[str, Any] = {"questions": len(docs), "model_dir": args.model_dir}
    report["context_lls_logged_by_lm_eval"] = logged
    report["context_pass_s"] = round(elapsed, 1)
    report["agreement_with_authors_pick"] = {
        rule: sum(p[rule] == p[AUTHORS_PICK_METRIC] for p in picks) / len(docs) for rule in rules
    }
    report["calibrated_by_rule"] = {}
    for rule in rules:
        rows = {}
        for ability in ABILITIES:
            indices = [i for i, d in enumerate(docs) if d["ability"] == ability.code]
            correct = [picks[i][rule] == docs[i]["answer"] for i in indices]
            # Chance is one over the distinct options, as in the coglm tasks (1.1).
            counts = [distinct_options(docs[i]["choices"]) for i in indices]
            rows[ability.code] = {"calibrated_accuracy": calibrated_accuracy(correct, counts)}
        summary = assemble_summary(rows)
        report["calibrated_by_rule"][rule] = {
            "abilities": {code: round(r["calibrated_accuracy"], 4) for code, r in rows.items()},
            "stages": {s: round(v, 4) for s, v in summary["stages"].items()},
            "overall": round(summary["overall"], 4),
            "cognitive_age": round(summary["cognitive_age"], 2),
        }
    args.output.parent.mkdir(parents=True, exist_ok=True)
    write_json_atomically(args.output, report)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
