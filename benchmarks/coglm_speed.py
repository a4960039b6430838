"""Time CogLM's text-completion scoring: the authors' loop against our lm-eval path.

Four paths, each one selectable with ``--paths`` (default: all):

- ``authors-loop``: the authors' script (WangXinglin/CogLM,
  ``test_OPT_logit.py``): one forward pass per (question, candidate) at batch
  size 1 on ``question + "\\n" + "The answer is: " + candidate``, picking the
  candidate with the lowest mean causal-LM loss over the whole sequence;
- ``hf``: lm-eval's ``hf`` model on the ``coglm`` group, in this process;
- ``hf-shared-prefix``: this package's ``hf`` subclass that reads each question
  once (:mod:`cog_tasks.common.shared_prefix`), in this process;
- ``readme-command``: the README's main job (``cog-tasks lm-eval --model
  hf-shared-prefix ... --tasks coglm``) in a fresh process, everything included.

All run on the same questions (the first ``--limit`` per ability, or all 1,220)
with the same model (``--model``: an embedded model's name, or ``--model-dir``)
in each of the ``--dtypes`` asked for. Results are merged into ``--output``
under the model's folder name and the dtype: a path timed now replaces that
path's entry, the others keep their numbers and the date they were measured,
so single paths can be re-timed on a quiet machine; each check, likewise,
replaces only its own entry, stamped with its run.

Checks: when the authors' loop and an lm-eval path run together, that lm-eval's
``acc_authors`` (:func:`cog_tasks.coglm.completion.choice_picks`) picks what
the loop picks and that both see the same text (continuation log-likelihoods
agree); when both lm-eval models run, that they agree; when an lm-eval path
runs in ``float32`` and ``bfloat16``, how many questions get the same pick under
every choice rule and the largest log-likelihood difference. How often the
other rules agree with the authors' is reported once, by
``benchmarks/coglm_authors_rule.py``.

In-process paths also time the model's output layer (``lm_head``, a matrix of
hidden size x vocabulary, 262,144 tokens for Gemma 3) with forward hooks, and
record its share of the path's time.

Targets: at least 4x the authors' loop, and the README command on the full
set in at most 240 s on 2 CPU cores (SmolLM2, float32). Each entry records the
CPU, its bf16 instruction sets and the load average: time on an otherwise idle
machine. Speed-ups are computed only between entries of the same CPU, model,
dtype and question count.

Usage::

    python benchmarks/coglm_speed.py                                  # all paths, 1,220 questions
    python benchmarks/coglm_speed.py --paths hf-shared-prefix,readme-command
    python benchmarks/coglm_speed.py --model gemma3-270m --paths hf-shared-prefix \\
        --dtypes float32,bfloat16                                     # bf16 against fp32
    python benchmarks/coglm_speed.py --limit 2 --output /tmp/speed.json  # a smoke test
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import time
from pathlib import Path
from typing import Any

import torch
import yaml

from cog_tasks.cli import tasks_path
from cog_tasks.coglm.completion import (
    AUTHORS_PICK_METRIC,
    choice_picks,
    completion_context,
    completion_text,
)
from cog_tasks.coglm.records import CogLMRecord, load_records, records_by_ability
from cog_tasks.common.files import read_json, write_json_atomically

AUTHORS_LOOP = "authors-loop"
LM_EVAL_MODELS = ("hf", "hf-shared-prefix")
README_COMMAND = "readme-command"
PATHS = (AUTHORS_LOOP, *LM_EVAL_MODELS, README_COMMAND)
# The lm-eval model of the README's main job.
FAST_MODEL = "hf-shared-prefix"
FULL_SET = 1220
DTYPES = ("float32", "bfloat16")
# The precision a bfloat16 run is checked against.
REFERENCE_DTYPE = "float32"
# CPU flags of native bf16 arithmetic (Linux names): without them bf16 is emulated.
BF16_FLAGS = ("amx_bf16", "avx512_bf16")
# What each check keeps of its run's context: checks from different runs sit side by side.
CHECK_STAMP = ("measured_at", "coglm_task_version", "questions", "versions", "machine")


def coglm_task_version() -> str:
    """The ``metadata: version`` of the coglm family being timed, from its one declaration."""
    family = tasks_path() / "coglm" / "lm_eval" / "coglm"
    version_yaml = (family / "_coglm_version.yaml").read_text(encoding="utf-8")
    return str(yaml.safe_load(version_yaml)["metadata"]["version"])


def cpu_description() -> dict[str, Any]:
    """The CPU's model name and which native bf16 instruction sets it has.

    Returns:
        ``name`` (from ``/proc/cpuinfo`` where there is one) and
        ``bf16_instructions``, the flags of :data:`BF16_FLAGS` the CPU reports.
    """
    fields: dict[str, str] = {}
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text(encoding="utf-8").splitlines():
            key, _, value = line.partition(":")
            fields.setdefault(key.strip(), value.strip())
    flags = set(fields.get("flags", "").split())
    return {
        "name": fields.get("model name") or platform.processor() or platform.machine(),
        "bf16_instructions": [flag for flag in BF16_FLAGS if flag in flags],
    }


class OutputLayerTimer:
    """Adds up the time a model spends in its output layer, through forward hooks.

    CPU kernels run synchronously, so the wall time between the layer's
    pre-hook and hook is the layer's own time.
    """

    def __init__(self, model: torch.nn.Module) -> None:
        """Hook the model's output layer (``get_output_embeddings()``, the ``lm_head``)."""
        layer = model.get_output_embeddings()
        self.seconds = 0.0
        self._entered = 0.0
        self._handles = [
            layer.register_forward_pre_hook(self._enter),
            layer.register_forward_hook(self._leave),
        ]

    def _enter(self, _module: torch.nn.Module, _inputs: Any) -> None:
        self._entered = time.perf_counter()

    def _leave(self, _module: torch.nn.Module, _inputs: Any, _output: Any) -> None:
        self.seconds += time.perf_counter() - self._entered

    def remove(self) -> None:
        """Take the hooks off the model."""
        for handle in self._handles:
            handle.remove()


def authors_loop(model_dir: str, dtype: str, records: list[CogLMRecord]) -> dict[str, Any]:
    """The authors' loop: batch size 1, one pass per candidate, lowest mean loss.

    The pick here is the reference the lm-eval metric ``acc_authors`` is
    checked against, so it comes straight from the model's own loss.
    """
    from transformers import AutoModelForCausalLM, AutoTokenizer

    start = time.perf_counter()
    tokenizer = AutoTokenizer.from_pretrained(model_dir)
    model = AutoModelForCausalLM.from_pretrained(model_dir, dtype=getattr(torch, dtype))
    model.eval()
    timer = OutputLayerTimer(model)
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
                logprobs = torch.log_softmax(
                    output.logits[0, context_length - 1 : -1].float(), dim=-1
                )
                targets = ids[0, context_length:]
                lls.append(float(logprobs.gather(1, targets[:, None]).sum()))
            picks[record.id] = losses.index(min(losses))
            continuation_lls[record.id] = lls
    finished = time.perf_counter()
    timer.remove()
    return {
        "load_s": loaded - start,
        "loop_s": finished - loaded,
        "output_layer_s": timer.seconds,
        "picks": picks,
        "continuation_lls": continuation_lls,
    }


def lm_eval_path(
    model_name: str, model_dir: str, dtype: str, batch_size: int, limit: int | None
) -> dict[str, Any]:
    """Our path: an lm-eval model on the coglm group, in this process."""
    from lm_eval import simple_evaluate
    from lm_eval.api.registry import get_model
    from lm_eval.tasks import TaskManager

    import cog_tasks.common.shared_prefix  # noqa: F401  (registers hf-shared-prefix)

    start = time.perf_counter()
    model = get_model(model_name)(
        pretrained=model_dir, batch_size=batch_size, device="cpu", dtype=dtype
    )
    timer = OutputLayerTimer(model.model)
    loaded = time.perf_counter()
    manager = TaskManager(
        include_path=str(tasks_path()), include_defaults=False, metadata={"pretrained": model_dir}
    )
    output = simple_evaluate(
        model=model, tasks=["coglm"], task_manager=manager, limit=limit, log_samples=True
    )
    finished = time.perf_counter()
    timer.remove()
    samples = {}
    for task_samples in output["samples"].values():
        for sample in task_samples:
            doc = sample["doc"]
            *lls, context_ll = [float(ll) for ll, _ in sample["filtered_resps"]]
            samples[doc["id"]] = {"doc": doc, "lls": lls, "context_ll": context_ll}
    coglm = output["results"]["coglm"]
    return {
        "load_s": loaded - start,
        "eval_s": finished - loaded,
        "output_layer_s": timer.seconds,
        "samples": samples,
        "coglm_acc_authors": coglm["acc_authors,none"],
        "coglm_calibrated_acc_authors": coglm["calibrated_acc_authors,none"],
    }


def readme_command(
    model_dir: str, dtype: str, batch_size: int, limit: int | None
) -> dict[str, Any]:
    """The README's main job, end to end in a fresh process (``dtype=`` added unless float32)."""
    model_args = f"pretrained={model_dir}" + ("" if dtype == "float32" else f",dtype={dtype}")
    command = ["cog-tasks", "lm-eval", "--model", FAST_MODEL, "--model_args", model_args]
    command += ["--tasks", "coglm", "--batch_size", str(batch_size)]
    if limit is not None:
        command += ["--limit", str(limit)]
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True)
    return {"command": " ".join(command), "wall_s": round(time.perf_counter() - start, 1)}


def _max_difference(pairs: list[tuple[list[float], list[float]]]) -> float:
    """Largest absolute difference between paired lists of log-likelihoods."""
    return max(abs(a - b) for first, second in pairs for a, b in zip(first, second, strict=True))


def _all_lls(sample: dict[str, Any]) -> list[float]:
    """Every log-likelihood of one question's requests: the options', then the context's."""
    return [*sample["lls"], sample["context_ll"]]


def checks(authors: dict[str, Any] | None, runs: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Agreement of ``acc_authors`` with the authors' loop, and of the paths' log-likelihoods."""
    result: dict[str, Any] = {}
    if authors is not None and runs:
        name, run = next(iter(runs.items()))
        ids = sorted(authors["picks"])
        samples = [run["samples"][i] for i in ids]
        disagreeing = [
            i
            for i, s in zip(ids, samples, strict=True)
            if choice_picks(s["doc"], s["lls"], s["context_ll"])[AUTHORS_PICK_METRIC]
            != authors["picks"][i]
        ]
        result[f"{AUTHORS_PICK_METRIC}_agreement_with_authors_loop"] = {
            "lm_eval_model": name,
            "fraction": 1 - len(disagreeing) / len(ids),
            "disagreeing_questions": disagreeing,
        }
        result["max_abs_continuation_ll_difference_from_authors_loop"] = _max_difference(
            [(authors["continuation_lls"][i], s["lls"]) for i, s in zip(ids, samples, strict=True)]
        )
    if len(runs) == len(LM_EVAL_MODELS):
        first, second = (runs[name]["samples"] for name in LM_EVAL_MODELS)
        result["max_abs_ll_difference_between_lm_eval_models"] = _max_difference(
            [(_all_lls(s), _all_lls(second[k])) for k, s in first.items()]
        )
    return result


def precision_check(
    reference: dict[str, Any], other: dict[str, Any], other_dtype: str
) -> dict[str, Any]:
    """How far an lm-eval run in another dtype departs from the reference dtype's run.

    Args:
        reference: :func:`lm_eval_path` result in :data:`REFERENCE_DTYPE`.
        other: The same path's result in another dtype, on the same questions.
        other_dtype: That dtype's name.

    Returns:
        Per choice rule, the fraction of questions with the same pick and the
        questions without; the largest absolute difference between any two
        paired log-likelihoods; both runs' calibrated accuracies.
    """
    ids = sorted(reference["samples"])
    picks = {
        key: {
            i: choice_picks(s["doc"], s["lls"], s["context_ll"])
            for i, s in ((i, run["samples"][i]) for i in ids)
        }
        for key, run in (("reference", reference), ("other", other))
    }
    rules = sorted(next(iter(picks["reference"].values())))
    same_pick = {}
    for rule in rules:
        differing = [i for i in ids if picks["reference"][i][rule] != picks["other"][i][rule]]
        same_pick[rule] = {
            "fraction": 1 - len(differing) / len(ids),
            "differing_questions": differing,
        }
    return {
        "questions": len(ids),
        "same_pick": same_pick,
        "max_abs_ll_difference": _max_difference(
            [(_all_lls(reference["samples"][i]), _all_lls(other["samples"][i])) for i in ids]
        ),
        "calibrated_acc_authors": {
            REFERENCE_DTYPE: reference["coglm_calibrated_acc_authors"],
            other_dtype: other["coglm_calibrated_acc_authors"],
        },
    }


def derived(paths: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Speed-ups and targets from the merged entries of one model, dtype and question set.

    Speed-ups are computed only between entries measured on the same CPU.
    """
    loop = paths.get(AUTHORS_LOOP)

    def cpu(entry: dict[str, Any]) -> str | None:
        return entry["machine"].get("cpu", {}).get("name")

    speedups = {
        name: round(loop["loop_s"] / paths[name]["eval_s"], 2)
        for name in LM_EVAL_MODELS
        if loop and name in paths and cpu(paths[name]) == cpu(loop)
    }
    readme = paths.get(README_COMMAND)
    return {
        "speedup_over_authors_loop": speedups,
        "targets": {
            "model": FAST_MODEL,
            "speedup_at_least_4x": speedups[FAST_MODEL] >= 4 if FAST_MODEL in speedups else None,
            "readme_command_within_240s": (
                readme["wall_s"] <= 240 if readme and readme["questions"] == FULL_SET else None
            ),
        },
    }


def run_key(model_dir: str, dtype: str, questions: int) -> str:
    """The results file's key of one model, dtype and question set."""
    return f"{Path(model_dir).name}/{dtype}/{questions} questions"


def main() -> None:
    """Run the chosen timings and merge them into the JSON results file."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default="smollm2", help="embedded model name (default: smollm2)")
    parser.add_argument("--model-dir", help="HF model directory (instead of --model)")
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--limit", type=int, help="first N questions per ability (default all)")
    parser.add_argument("--output", type=Path, default=Path("benchmarks/results/coglm_speed.json"))
    parser.add_argument(
        "--paths",
        default=",".join(PATHS),
        help=f"comma-separated paths to time, of: {', '.join(PATHS)} (default: all)",
    )
    parser.add_argument(
        "--dtypes",
        default=REFERENCE_DTYPE,
        help=f"comma-separated torch dtypes, of: {', '.join(DTYPES)} (default: {REFERENCE_DTYPE})",
    )
    args = parser.parse_args()
    chosen = [name.strip() for name in args.paths.split(",") if name.strip()]
    unknown = sorted(set(chosen) - set(PATHS))
    if unknown or not chosen:
        parser.error(f"--paths: unknown {unknown}; choose from {', '.join(PATHS)}")
    dtypes = [name.strip() for name in args.dtypes.split(",") if name.strip()]
    if not dtypes or set(dtypes) - set(DTYPES):
        parser.error(f"--dtypes: choose from {', '.join(DTYPES)}")

    if args.model_dir is None:
        from cog_tasks.common.models import embedded_model_path

        args.model_dir = str(embedded_model_path(args.model))
    grouped = records_by_ability(load_records())
    records = [r for rows in grouped.values() for r in rows[: args.limit]]
    task_version = coglm_task_version()
    machine_cpu = cpu_description()

    def context(load_before: tuple[float, float, float], dtype: str) -> dict[str, Any]:
        """What every entry records besides its timings."""
        return {
            "measured_at": datetime.datetime.now(datetime.timezone.utc).isoformat(
                timespec="seconds"
            ),
            "coglm_task_version": task_version,
            "questions": len(records),
            "candidates": sum(r.num_choices for r in records),
            "model_dir": args.model_dir,
            "dtype": dtype,
            "machine": {
                "cpu_count": os.cpu_count(),
                "torch_threads": torch.get_num_threads(),
                "cpu": machine_cpu,
                "loadavg_before": load_before,
                "loadavg_after": os.getloadavg(),
            },
            "versions": {
                "torch": torch.__version__,
                "transformers": __import__("transformers").__version__,
                "lm_eval": __import__("lm_eval").__version__,
            },
        }

    result = read_json(args.output) if args.output.exists() else {}
    result.setdefault("runs", {})
    lm_eval_runs: dict[str, dict[str, dict[str, Any]]] = {}
    for dtype in dtypes:
        timed: dict[str, dict[str, Any]] = {}
        authors = None
        if AUTHORS_LOOP in chosen:
            before = os.getloadavg()
            authors = authors_loop(args.model_dir, dtype, records)
            timed[AUTHORS_LOOP] = context(before, dtype) | {
                "batch_size": 1,
                "load_s": round(authors["load_s"], 2),
                "loop_s": round(authors["loop_s"], 2),
                "output_layer_s": round(authors["output_layer_s"], 2),
                "output_layer_share": round(authors["output_layer_s"] / authors["loop_s"], 3),
                "questions_per_s": round(len(records) / authors["loop_s"], 3),
            }
        runs = lm_eval_runs[dtype] = {}
        for name in LM_EVAL_MODELS:
            if name in chosen:
                before = os.getloadavg()
                run = lm_eval_path(name, args.model_dir, dtype, args.batch_size, args.limit)
                runs[name] = run
                timed[name] = context(before, dtype) | {
                    "batch_size": args.batch_size,
                    "load_s": round(run["load_s"], 2),
                    "eval_s": round(run["eval_s"], 2),
                    "output_layer_s": round(run["output_layer_s"], 2),
                    "output_layer_share": round(run["output_layer_s"] / run["eval_s"], 3),
                    "questions_per_s": round(len(records) / run["eval_s"], 3),
                    "wall_incl_load_s": round(run["load_s"] + run["eval_s"], 2),
                    "coglm_acc_authors": run["coglm_acc_authors"],
                    "coglm_calibrated_acc_authors": run["coglm_calibrated_acc_authors"],
                }
        if README_COMMAND in chosen:
            before = os.getloadavg()
            entry = readme_command(args.model_dir, dtype, args.batch_size, args.limit)
            timed[README_COMMAND] = context(before, dtype) | entry
            timed[README_COMMAND]["questions_per_s"] = round(len(records) / entry["wall_s"], 3)

        merged = result["runs"].setdefault(
            run_key(args.model_dir, dtype, len(records)), {"paths": {}, "checks": {}}
        )
        merged["paths"] |= timed
        stamp = context(os.getloadavg(), dtype)
        for name, value in checks(authors, runs).items():
            merged["checks"][name] = {key: stamp[key] for key in CHECK_STAMP} | {"value": value}
        merged |= derived(merged["paths"])

    reference_runs = lm_eval_runs.get(REFERENCE_DTYPE, {})
    for dtype, runs in lm_eval_runs.items():
        if dtype == REFERENCE_DTYPE:
            continue
        stamp = context(os.getloadavg(), dtype)
        merged_checks = result["runs"][run_key(args.model_dir, dtype, len(records))]["checks"]
        for name in sorted(set(runs) & set(reference_runs)):
            merged_checks[f"against_{REFERENCE_DTYPE}_{name}"] = {
                field: stamp[field] for field in CHECK_STAMP
            } | {"value": precision_check(reference_runs[name], runs[name], dtype)}
    args.output.parent.mkdir(parents=True, exist_ok=True)
    write_json_atomically(args.output, result)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
