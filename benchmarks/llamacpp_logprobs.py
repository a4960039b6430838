"""Do llama.cpp's prompt log-probabilities agree with hf-shared-prefix's? (CogLM items)

For the first ``--limit`` CogLM items per ability (lm-eval's ``coglm`` requests:
context and one continuation per option), the continuation's summed
log-probability from llama-cpp-python's server on the GGUF
(``/v1/completions``, ``echo``, ``logprobs``, no new token) against
``hf-shared-prefix`` on the dequantized float32 folder (lm-eval's
``loglikelihood``): the largest and median absolute difference, and how many
items pick the same option (the largest sum).

    nice -n 10 python benchmarks/llamacpp_logprobs.py --model smollm2 --limit 2 \\
        --out benchmarks/results/llamacpp_logprobs_smollm2.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import urllib.request
from collections import defaultdict
from pathlib import Path

from lm_eval.tasks import TaskManager

from cog_tasks.cli import tasks_path
from cog_tasks.common.llamacpp import LlamaServer
from cog_tasks.common.models import embedded_model_path
from cog_tasks.common.shared_prefix import SharedPrefixHFLM


def coglm_requests(limit: int) -> list[tuple[str, int, str, str]]:
    """``(task, doc index, context, continuation)`` of the first ``limit`` docs per task."""
    manager = TaskManager(include_path=str(tasks_path()), include_defaults=False)
    found = []
    for name, task in _leaves(manager.load_task_or_group(["coglm"])):
        task.build_all_requests(limit=limit, rank=0, world_size=1)
        for instance in task.instances:
            context, continuation = instance.args
            found.append((name, instance.doc_id, context, continuation))
    return found


def _leaves(tree: dict) -> list:
    out = []
    for key, value in tree.items():
        if isinstance(value, dict):
            out += _leaves(value)
        else:
            out.append((getattr(key, "group", None) or str(key), value))
    return out


def server_logprob(server: LlamaServer, context: str, continuation: str) -> float:
    """Sum of the continuation tokens' log-probabilities (tokens after the context's)."""

    def post(path: str, body: dict) -> dict:
        request = urllib.request.Request(
            server.base_url.removesuffix("/v1") + path,
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request) as reply:
            return json.load(reply)

    prefix = len(post("/extras/tokenize", {"input": context})["tokens"])
    body = {
        "model": server.model,
        "prompt": context + continuation,
        "max_tokens": 1,
        "echo": True,
        "logprobs": 1,
        "temperature": 0,
    }
    logprobs = post("/v1/completions", body)["choices"][0]["logprobs"]["token_logprobs"]
    scored = logprobs[prefix:-1]  # the last entry is the generated token
    return float(sum(value for value in scored if value is not None))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="smollm2")
    parser.add_argument("--limit", type=int, default=2)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    requests = coglm_requests(args.limit)
    hf = SharedPrefixHFLM(
        pretrained=str(embedded_model_path(args.model)), dtype="float32", device="cpu"
    )
    from lm_eval.api.instance import Instance

    instances = [
        Instance("loglikelihood", {}, (context, continuation), index)
        for index, (_, _, context, continuation) in enumerate(requests)
    ]
    reference = [value for value, _ in hf.loglikelihood(instances)]
    with LlamaServer(args.model, context=4096) as server:
        served = [server_logprob(server, c, x) for _, _, c, x in requests]
    differences = [abs(a - b) for a, b in zip(reference, served, strict=True)]
    picks: dict[tuple[str, int], list[tuple[float, float]]] = defaultdict(list)
    for (task, doc, _, _), a, b in zip(requests, reference, served, strict=True):
        picks[(task, doc)].append((a, b))
    same = sum(
        max(range(len(pairs)), key=lambda i: pairs[i][0])
        == max(range(len(pairs)), key=lambda i: pairs[i][1])
        for pairs in picks.values()
    )
    result = {
        "model": args.model,
        "gguf_sha256": server.sha256,
        "continuations": len(requests),
        "items": len(picks),
        "same_pick": same,
        "max_abs_difference": max(differences),
        "median_abs_difference": statistics.median(differences),
    }
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
