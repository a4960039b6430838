"""Time CogLM's text-completion scoring: the authors' loop against our lm-eval path.

The authors' script (WangXinglin/CogLM, ``test_OPT_logit.py``) runs one forward
pass per (question, candidate) at batch size 1 on ``question + "\\n" +
"The answer is: " + candidate`` and picks the candidate with the lowest mean
causal-LM loss over the whole sequence. Our path is ``lm_eval`` with the
``coglm`` tasks, timed with two lm-eval models: ``hf`` (batched
log-likelihoods, each candidate with its own copy of the question) and
``hf-shared-prefix`` (this package's ``hf`` subclass that reads each question
once; see :mod:`cog_tasks.lm_eval_models.shared_prefix`).

Both run in this process on the same questions (the first ``--limit`` per
ability, or all 1,220) with the same model directory. The script also checks
that both paths see the same text (continuation log-likelihoods agree) and how
often each lm-eval choice rule picks what the authors' rule picks, and that
both lm-eval models return the same log-likelihoods.

Targets: at least 3x the authors' loop, and the full set in at most 4 minutes
on 2 CPU cores including model load. ``--full-cli`` also times the README's
main job (``cog-tasks lm-eval ... --tasks coglm``) in a fresh process. The
results record the load average: time it on an otherwise idle machine.

Usage::

    python benchmarks/coglm_speed.py                # all 1,220 questions
    python benchmarks/coglm_speed.py --limit 10     # first 10 per ability
    python benchmarks/coglm_speed.py --full-cli --output benchmarks/results/coglm_speed.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import time
from pathlib import Path
from typing import Any

import torch

from cog_tasks.cli import tasks_path
from cog_tasks.coglm.completion import (
    completion_context,
    completion_text,
    pick_by_mean,
    pick_by_sum,
)
from cog_tasks.coglm.records import CogLMRecord, load_records, records_by_ability
from cog_tasks.files import write_atomically

# The lm-eval models timed; the README's main job uses the second.
LM_EVAL_MODELS = ("hf", "hf-shared-prefix")
FAST_MODEL = "hf-shared-prefix"


def authors_loop(model_dir: str, records: list[CogLMRecord]) -> dict[str, Any]:
    """The authors' rule: batch size 1, one pass per candidate, lowest mean loss."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    start = time.perf_counter()
    tokenizer = AutoTokenizer.from_pretrained(model_dir)
    model = AutoModelForCausalLM.from_pretrained(model_dir)
    model.eval()
    loaded = time.perf_counter()
    picks: dict[str, int] = {}
    continuation_lls: dict[str, list[float]] = {}
    with torch.inference_mode():
        for record in records:
            context_length = len(
                tokenizer.encode(completion_context(record.question), add_special_tokens=False)
            )
            losses, lls = [], []
            for choice in record.choices:
                ids = tokenizer.encode(
                    completion_text(record.question, choice),
                    add_special_tokens=False,
                    return_tensors="pt",
                )
                output = model(ids, labels=ids)
                losses.append(float(output.loss))
                # Continuation log-likelihood from the same logits (for the agreement check).
                logprobs = torch.log_softmax(output.logits[0, context_length - 1 : -1], dim=-1)
                targets = ids[0, context_length:]
                lls.append(float(logprobs.gather(1, targets[:, None]).sum()))
            picks[record.id] = min(range(len(losses)), key=losses.__getitem__)
            continuation_lls[record.id] = lls
    finished = time.perf_counter()
    return {
        "load_s": loaded - start,
        "loop_s": finished - loaded,
        "picks": picks,
        "continuation_lls": continuation_lls,
    }


def lm_eval_path(
    model_name: str, model_dir: str, batch_size: int, limit: int | None
) -> dict[str, Any]:
    """Our path: an lm-eval model on the coglm group, in this process."""
    from lm_eval import simple_evaluate
    from lm_eval.api.registry import get_model
    from lm_eval.tasks import TaskManager

    import cog_tasks.lm_eval_models.shared_prefix  # noqa: F401  (registers hf-shared-prefix)

    start = time.perf_counter()
    model = get_model(model_name)(pretrained=model_dir, batch_size=batch_size, device="cpu")
    loaded = time.perf_counter()
    manager = TaskManager(include_path=str(tasks_path()), metadata={"pretrained": model_dir})
    output = simple_evaluate(
        model=model, tasks=["coglm"], task_manager=manager, limit=limit, log_samples=True
    )
    finished = time.perf_counter()
    samples = {}
    for task_samples in output["samples"].values():
        for sample in task_samples:
            doc = sample["doc"]
            samples[doc["id"]] = {
                "lls": [float(ll) for ll, _ in sample["filtered_resps"]],
                "choices": doc["choices"],
                "choice_lengths": doc["choice_lengths"],
            }
    return {
        "load_s": loaded - start,
        "eval_s": finished - loaded,
        "samples": samples,
        "calibrated_acc": output["results"]["coglm"]["calibrated_acc,none"],
    }


def full_cli_run(model_dir: str, batch_size: int) -> dict[str, Any]:
    """The README's main job, end to end: a fresh process, all 1,220 questions."""
    command = ["cog-tasks", "lm-eval", "--model", FAST_MODEL]
    command += ["--model_args", f"pretrained={model_dir}"]
    command += ["--tasks", "coglm", "--batch_size", str(batch_size)]
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    wall = time.perf_counter() - start
    return {"command": " ".join(command), "wall_s": round(wall, 1), "questions_per_s": 1220 / wall}


def agreement(authors: dict[str, Any], ours: dict[str, Any]) -> dict[str, Any]:
    """How often each lm-eval rule picks the authors' choice; largest LL difference."""
    rules = {
        "acc (sum)": lambda s: pick_by_sum(s["lls"]),
        "acc_norm (per character)": lambda s: pick_by_mean(
            s["lls"], [len(c) for c in s["choices"]]
        ),
        "acc_per_token": lambda s: pick_by_mean(s["lls"], s["choice_lengths"]),
    }
    ids = sorted(authors["picks"])
    result: dict[str, Any] = {
        rule: sum(pick(ours["samples"][i]) == authors["picks"][i] for i in ids) / len(ids)
        for rule, pick in rules.items()
    }
    differences = [
        abs(a - b)
        for i in ids
        for a, b in zip(authors["continuation_lls"][i], ours["samples"][i]["lls"], strict=True)
    ]
    result["max_abs_continuation_ll_difference"] = max(differences)
    return result


def _lm_eval_summary(run: dict[str, Any], questions: int, batch_size: int) -> dict[str, Any]:
    """The timing and score fields written for one lm-eval model."""
    return {
        "batch_size": batch_size,
        "load_s": round(run["load_s"], 2),
        "eval_s": round(run["eval_s"], 2),
        "questions_per_s": round(questions / run["eval_s"], 3),
        "wall_incl_load_s": round(run["load_s"] + run["eval_s"], 2),
        "coglm_calibrated_acc": run["calibrated_acc"],
    }


def main() -> None:
    """Run the timings and write the JSON results file."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model-dir", help="HF model directory (default: embedded SmolLM2)")
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--limit", type=int, help="first N questions per ability (default all)")
    parser.add_argument("--output", type=Path, default=Path("benchmarks/results/coglm_speed.json"))
    parser.add_argument(
        "--full-cli",
        action="store_true",
        help="also time the README command on all 1,220 questions in a fresh process",
    )
    args = parser.parse_args()

    if args.model_dir is None:
        from cog_tasks.models import embedded_model_path

        args.model_dir = str(embedded_model_path("smollm2"))
    grouped = records_by_ability(load_records())
    records = [r for rows in grouped.values() for r in rows[: args.limit]]
    questions = len(records)
    load_before = os.getloadavg()

    authors = authors_loop(args.model_dir, records)
    runs = {
        name: lm_eval_path(name, args.model_dir, args.batch_size, args.limit)
        for name in LM_EVAL_MODELS
    }
    full = full_cli_run(args.model_dir, args.batch_size) if args.full_cli else None
    load_after = os.getloadavg()

    fast = runs[FAST_MODEL]
    result: dict[str, Any] = {
        "questions": questions,
        "candidates": sum(r.num_choices for r in records),
        "full_set": questions == 1220,
        "model_dir": args.model_dir,
        "machine": {
            "cpu_count": os.cpu_count(),
            "torch_threads": torch.get_num_threads(),
            "processor": platform.processor() or platform.machine(),
            "loadavg_before": load_before,
            "loadavg_after": load_after,
        },
        "versions": {
            "torch": torch.__version__,
            "transformers": __import__("transformers").__version__,
            "lm_eval": __import__("lm_eval").__version__,
        },
        "authors_loop": {
            "batch_size": 1,
            "load_s": round(authors["load_s"], 2),
            "loop_s": round(authors["loop_s"], 2),
            "questions_per_s": round(questions / authors["loop_s"], 3),
        },
        "lm_eval": {
            name: _lm_eval_summary(run, questions, args.batch_size) for name, run in runs.items()
        },
        "speedup_over_authors_loop": {
            name: round(authors["loop_s"] / run["eval_s"], 2) for name, run in runs.items()
        },
        "agreement_with_authors_pick": agreement(authors, fast),
        "max_abs_ll_difference_between_lm_eval_models": max(
            abs(a - b)
            for key, sample in runs["hf"]["samples"].items()
            for a, b in zip(sample["lls"], fast["samples"][key]["lls"], strict=True)
        ),
        "full_set_cli": full,
    }
    fast_wall = fast["load_s"] + fast["eval_s"]
    full_wall = full["wall_s"] if full else (fast_wall if questions == 1220 else None)
    result["targets"] = {
        "model": FAST_MODEL,
        "speedup_at_least_3x": result["speedup_over_authors_loop"][FAST_MODEL] >= 3,
        "full_set_within_240s": None if full_wall is None else full_wall <= 240,
    }
    args.output.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(args.output, (json.dumps(result, indent=2) + "\n").encode())
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
