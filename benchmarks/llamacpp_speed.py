"""llama.cpp against transformers on an embedded model: whole process, alternating.

Each run is one whole ``inspect eval`` process (imports, model load, server
start, generation) on the same short chat task at temperature 0. Backends
take turns (``--rounds`` times through the list), so a change in the shared
machine's load falls on all of them. For each run: wall time, output tokens
and output tokens per second of wall time, peak resident memory of the
process tree (polled every 0.25 s, server included), and ``uptime``'s
one-minute load before and after. ``BACKEND/N`` runs a backend with
``--max-connections N`` (for ``hf``, its batch). Then, per pair of backends, the share of
samples with identical greedy replies (every reply of a multi-turn sample) and the paired
difference of the task's headline score on the same samples, with its 95 % interval
(faithfulness of the GGUF against its dequantized folder). ``--reuse BACKEND=LOG`` takes a
backend's side from a log already written with the same task arguments (a profile step's;
its wall time is then the log's, its memory unmeasured).

    nice -n 10 python benchmarks/llamacpp_speed.py --model qwen2.5-coder-1.5b \\
        --task egosocial_static --limit 5 --max-tokens 48 \\
        --out benchmarks/results/llamacpp_speed_qwen.json
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil
from inspect_ai.log import read_eval_log
from inspect_ai.scorer import value_to_float

from cog_tasks.common.models import embedded_model_path
from cog_tasks.common.stats import paired_difference

BACKENDS = ("llamacpp", "hf-bfloat16", "hf-float32")


def load() -> float:
    return os.getloadavg()[0]


def model_arguments(backend: str, name: str, folder: str) -> list[str]:
    """``inspect eval`` model options; ``BACKEND/N`` also caps connections (hf: the batch) at N."""
    backend, _, slots = backend.partition("/")
    limit = ["--max-connections", slots] if slots else []
    if backend == "llamacpp":
        return ["--model", f"llamacpp/{name}", *limit]
    dtype = backend.split("-", 1)[1]
    return ["--model", "hf/local", "-M", f"model_path={folder}", "-M", f"dtype={dtype}",
            "-M", "do_sample=false", *limit]  # fmt: skip


def run_once(backend: str, args: argparse.Namespace, folder: str, logs: Path) -> dict:
    log_dir = logs / f"{backend}-{int(time.time())}"
    command = [
        shutil.which("inspect") or "inspect", "eval", f"cog_tasks/{args.task}",
        *model_arguments(backend, args.model, folder),
        *(["--limit", str(args.limit)] if args.limit else []), "--max-tokens", str(args.max_tokens),
        *(option for pair in args.task_arg for option in ("-T", pair)),
        # CogEval sets each sample's temperature itself (and refuses --temperature).
        *(["-T", "temperatures=0"] if args.task == "cogeval" else ["--temperature", "0"]),
        "--log-dir", str(log_dir), "--display", "none",
    ]  # fmt: skip
    before = load()
    start = time.monotonic()
    process = psutil.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = 0
    while process.poll() is None:
        try:
            tree = [process, *process.children(recursive=True)]
            peak = max(peak, sum(p.memory_info().rss for p in tree if p.is_running()))
        except psutil.Error:
            pass
        time.sleep(0.25)
    wall = time.monotonic() - start
    if process.returncode != 0:
        raise SystemExit(f"{backend}: exit {process.returncode}\n{process.stderr.read().decode()}")
    [path] = sorted(log_dir.glob("*.eval"))
    return {**from_log(backend, path, wall), "peak_rss_gib": round(peak / 2**30, 2),
            "load_before": before, "load_after": load()}  # fmt: skip


def from_log(backend: str, path: Path, wall: float | None = None) -> dict:
    """A run's replies, headline scores and tokens from its log (``wall``: else the log's)."""
    from datetime import datetime

    log = read_eval_log(str(path))
    if log.status != "success":  # inspect eval exits 0 on a task that errored
        raise SystemExit(f"{backend}: status {log.status}: {log.error and log.error.message}")
    reused = wall is None
    if wall is None:
        started, completed = (
            datetime.fromisoformat(t) for t in (log.stats.started_at, log.stats.completed_at)
        )
        wall = (completed - started).total_seconds()
    output_tokens = sum(usage.output_tokens for usage in log.stats.model_usage.values())
    return {
        "backend": backend,
        "model": log.eval.model,
        "log": str(path) if reused else None,
        "wall_s": round(wall, 1),
        "output_tokens": output_tokens,
        "tokens_per_s": round(output_tokens / wall, 2),
        "replies": {str(s.id): replies(s) for s in log.samples or []},
        "scores": {str(s.id): headline_score(s.scores) for s in log.samples or [] if s.scores},
    }


def replies(sample: object) -> str:
    """Every assistant reply of a sample, in order (one string, so equal means all equal)."""
    return "\n\x00".join(m.text for m in sample.messages if m.role == "assistant")  # type: ignore[attr-defined]


def headline_score(scores: dict) -> float:
    """A sample's headline: its first scorer's value (a dict's first entry) as a number."""
    value = next(iter(scores.values())).value
    return value_to_float()(next(iter(value.values())) if isinstance(value, dict) else value)


def agreement(runs: list[dict]) -> list[dict]:
    first = {run["backend"]: run for run in reversed(runs)}
    rows = []
    for left, right in itertools.combinations(sorted(first), 2):
        replies = [first[left]["replies"], first[right]["replies"]]
        shared = sorted(set(replies[0]) & set(replies[1]))
        same = sum(replies[0][key] == replies[1][key] for key in shared)
        difference = paired_difference(
            first[left]["scores"], first[right]["scores"], unit="sample", bounds=(-1.0, 1.0)
        )
        rows.append({
            "pair": f"{left} vs {right}", "prompts": len(shared), "identical": same,
            "headline_difference": difference.as_dict(),
        })  # fmt: skip
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="qwen2.5-coder-1.5b")
    parser.add_argument("--task", default="egosocial_static")
    parser.add_argument("--limit", type=int, default=5, help="samples (0: all)")
    parser.add_argument("--max-tokens", type=int, default=48)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--backends", default=",".join(BACKENDS))
    parser.add_argument("--task-arg", "-T", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--reuse", action="append", default=[], metavar="BACKEND=LOG")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    folder = str(embedded_model_path(args.model))
    runs: list[dict] = []
    for pair in args.reuse:
        backend, _, log = pair.partition("=")
        runs.append(from_log(backend, Path(log)))
    backends = [backend for backend in args.backends.split(",") if backend]
    with tempfile.TemporaryDirectory(prefix="llamacpp-speed-") as logs:
        for _ in range(args.rounds):
            for backend in backends:
                runs.append(run_once(backend, args, folder, Path(logs)))
                print(json.dumps({k: v for k, v in runs[-1].items() if k != "replies"}), flush=True)
                args.out.write_text(json.dumps(result(args, runs), indent=2) + "\n")
    args.out.write_text(json.dumps(result(args, runs), indent=2) + "\n")


def result(args: argparse.Namespace, runs: list[dict]) -> dict:
    return {
        "command": " ".join(sys.argv),
        "machine": f"{os.cpu_count()} CPU cores, shared; load = uptime's 1-minute average",
        "task": args.task,
        "limit": args.limit,
        "task_args": args.task_arg,
        "max_tokens": args.max_tokens,
        "runs": runs,
        "identical_greedy_replies": agreement(runs),
    }


if __name__ == "__main__":
    main()
