"""Apply the authors' exact choice rule to an lm-eval CogLM run, and compare.

The authors pick the candidate with the lowest mean causal-LM loss over the
whole string ``question + "\\nThe answer is: " + candidate``. With lm-eval's
split of that string into a context (question and cue) and a continuation
(the candidate), that loss is

    (NLL_context + NLL_candidate) / (context_tokens - 1 + candidate_tokens)

where ``NLL_context`` sums over the context's tokens after the first (the
first token is never predicted). lm-eval's ``--log_samples`` files hold
``-NLL_candidate`` per candidate and the candidate token counts; this script
adds ``NLL_context`` with one batched forward pass per question, then reports
how often each lm-eval rule picks what the authors' rule picks and the
calibrated accuracy per ability under each rule.

Usage::

    python benchmarks/coglm_authors_rule.py RESULTS_DIR  # writes benchmarks/results/...
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import torch

from cog_tasks.coglm.abilities import ABILITIES
from cog_tasks.coglm.completion import completion_context, pick_by_mean, pick_by_sum
from cog_tasks.files import write_atomically
from cog_tasks.metrics.coglm import assemble_summary, calibrated_accuracy


def read_samples(results_dir: Path) -> list[dict[str, Any]]:
    """Documents and candidate log-likelihoods from lm-eval ``samples_coglm_*`` files."""
    rows = []
    for ability in ABILITIES:
        files = sorted(results_dir.rglob(f"samples_coglm_{ability.code}_*.jsonl"))
        if not files:
            raise FileNotFoundError(f"{results_dir}: no samples for coglm_{ability.code}")
        for line in files[-1].read_text().splitlines():
            sample = json.loads(line)
            doc = sample["doc"]
            if doc["length_unit"] != "token":
                raise ValueError(f"{files[-1]}: candidate lengths are not in tokens")
            doc["lls"] = [float(ll) for ll, _ in sample["filtered_resps"]]
            rows.append(doc)
    return rows


def context_nlls(model_dir: str, questions: list[str], batch_size: int) -> list[tuple[float, int]]:
    """``(NLL over tokens 2..T, T - 1)`` of each question's context."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(model_dir)
    model = AutoModelForCausalLM.from_pretrained(model_dir)
    model.eval()
    encoded = [tokenizer.encode(completion_context(q), add_special_tokens=False) for q in questions]
    order = sorted(range(len(encoded)), key=lambda i: -len(encoded[i]))
    results: dict[int, tuple[float, int]] = {}
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
                predicted = len(encoded[index]) - 1
                results[index] = (-float(picked[row, :predicted].sum()), predicted)
    return [results[i] for i in range(len(encoded))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("results", type=Path, help="lm-eval --output_path of a --log_samples run")
    parser.add_argument("--model-dir", help="HF model directory (default: embedded SmolLM2)")
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument(
        "--output", type=Path, default=Path("benchmarks/results/coglm_authors_rule.json")
    )
    args = parser.parse_args()
    if args.model_dir is None:
        from cog_tasks.models import embedded_model_path

        args.model_dir = str(embedded_model_path("smollm2"))

    docs = read_samples(args.results)
    start = time.perf_counter()
    contexts = context_nlls(args.model_dir, [d["question"] for d in docs], args.batch_size)
    elapsed = time.perf_counter() - start

    rules = {
        "authors (whole-sequence mean loss)": lambda d, c: pick_by_mean(
            [ll - c[0] for ll in d["lls"]], [c[1] + n for n in d["choice_lengths"]]
        ),
        "acc (sum)": lambda d, c: pick_by_sum(d["lls"]),
        "acc_norm (per character)": lambda d, c: pick_by_mean(
            d["lls"], [len(choice) for choice in d["choices"]]
        ),
        "acc_per_token": lambda d, c: pick_by_mean(d["lls"], d["choice_lengths"]),
    }
    pairs = list(zip(docs, contexts, strict=True))
    picks = {rule: [pick(d, c) for d, c in pairs] for rule, pick in rules.items()}
    authors = picks["authors (whole-sequence mean loss)"]
    report: dict[str, Any] = {"questions": len(docs), "model_dir": args.model_dir}
    report["context_pass_s"] = round(elapsed, 1)
    report["agreement_with_authors_pick"] = {
        rule: sum(a == b for a, b in zip(chosen, authors, strict=True)) / len(docs)
        for rule, chosen in picks.items()
    }
    report["calibrated_by_rule"] = {}
    for rule, chosen in picks.items():
        rows = {}
        for ability in ABILITIES:
            indices = [i for i, d in enumerate(docs) if d["ability"] == ability.code]
            correct = [chosen[i] == docs[i]["answer"] for i in indices]
            counts = [docs[i]["num_choices"] for i in indices]
            rows[ability.code] = {"calibrated_accuracy": calibrated_accuracy(correct, counts)}
        summary = assemble_summary(rows)
        report["calibrated_by_rule"][rule] = {
            "abilities": {code: round(r["calibrated_accuracy"], 4) for code, r in rows.items()},
            "stages": {s: round(v, 4) for s, v in summary["stages"].items()},
            "overall": round(summary["overall"], 4),
            "cognitive_age": round(summary["cognitive_age"], 2),
        }
    args.output.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(args.output, (json.dumps(report, indent=2) + "\n").encode())
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
