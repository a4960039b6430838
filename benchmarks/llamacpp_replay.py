"""Faithfulness per prompt: llama.cpp's logged requests replayed through transformers.

For the multi-turn chat tasks (Number Guessing, Hold'em, CogBench) two backends' games part
at their first different reply, so whole runs are not compared there. Instead, ``--prompts``
requests the model answered in a llama.cpp log (drawn with a seed among the turns a reader
of ``reading_sample.py`` reads) are sent again, exactly as logged (every message, the same
token cap, greedy), to the GGUF's dequantized folder through transformers (bfloat16, in one
process, ``--batch`` at a time). For each prompt: whether the two replies are identical, and
whether the reader reads the same answer from both. Number Guessing's rounds also give the
paired difference of the prediction hit rate (transformers minus llama.cpp) over the
prompts.

    nice python benchmarks/llamacpp_replay.py number_guessing LOG --out results/x.json
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from dataclasses import astuple
from pathlib import Path
from typing import Any

from inspect_ai.event import ModelEvent
from inspect_ai.log import read_eval_log

sys.path.insert(0, str(Path(__file__).parent))
from reading_sample import READERS, _holdem_kind  # noqa: E402

from cog_tasks.cogbench.parsing import parse_rating_answer  # noqa: E402
from cog_tasks.common.models import embedded_model_path  # noqa: E402
from cog_tasks.common.stats import paired_difference, wilson_interval  # noqa: E402
from cog_tasks.egosocial.holdem import HOLDING_OPTIONS, parse_action, parse_beliefs  # noqa: E402
from cog_tasks.egosocial.number_guessing import parse_round_reply  # noqa: E402


def _holdem(prompt: str, reply: str) -> Any:
    """A Hold'em reply read as its question asks (beliefs: holding and raise; else an action)."""
    kind, match = _holdem_kind(prompt)
    if kind == "beliefs":
        order = tuple(HOLDING_OPTIONS.index(match.group(f"f{i}")) for i in range(3))
        read = parse_beliefs(reply, order)
        return (read.holding, read.raise_)
    if kind in ("action", "reask"):
        return parse_action(reply, tuple(match.group("legal").split(", ")))
    return None


#: How each reader reads one reply to a prompt (what is compared across the backends).
READ: dict[str, Callable[[str, str], Any]] = {
    "number_guessing": lambda _, reply: astuple(parse_round_reply(reply)),
    "holdem_action": _holdem,
    "holdem_beliefs": _holdem,
    "cogbench_rating": lambda _, reply: parse_rating_answer(reply).rating,
}


def logged_requests(reader: str, path: Path) -> list[dict[str, Any]]:
    """Each turn the reader reads, with the full logged request that got its reply."""
    log = read_eval_log(str(path), resolve_attachments=True)
    requests = []
    for sample in log.samples or []:
        if not sample.scores:
            continue
        events = [e for e in sample.events if isinstance(e, ModelEvent) and e.role is None]
        for turn in READERS[reader].turns(sample):
            event = next(
                e
                for e in events
                if e.output.completion == turn.reply and e.input[-1].text.endswith(turn.prompt)
            )
            messages = [{"role": m.role, "content": m.text} for m in event.input]
            requests.append({
                "id": f"{sample.id}/{turn.turn}", "messages": messages, "reply": turn.reply,
                "max_tokens": event.config.max_tokens, "prompt": turn.prompt,
                "recorded": turn.recorded,
            })  # fmt: skip
    return requests


def generate(folder: str, requests: list[dict[str, Any]], batch: int) -> list[str]:
    """Greedy replies of the transformers model in ``folder``, in the order of ``requests``."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(folder, padding_side="left")
    model = AutoModelForCausalLM.from_pretrained(folder, dtype=torch.bfloat16).eval()
    texts = [
        tokenizer.apply_chat_template(r["messages"], tokenize=False, add_generation_prompt=True)
        for r in requests
    ]
    order = sorted(range(len(texts)), key=lambda i: (requests[i]["max_tokens"], len(texts[i])))
    replies: dict[int, str] = {}
    for start in range(0, len(order), batch):
        chunk = order[start : start + batch]
        encoded = tokenizer([texts[i] for i in chunk], return_tensors="pt", padding=True)
        with torch.inference_mode():
            output = model.generate(
                **encoded,
                max_new_tokens=max(requests[i]["max_tokens"] or 256 for i in chunk),
                do_sample=False,
                pad_token_id=tokenizer.pad_token_id or tokenizer.eos_token_id,
            )
        for row, i in enumerate(chunk):
            new = output[row, encoded["input_ids"].shape[1] :]
            cap = requests[i]["max_tokens"] or 256
            replies[i] = tokenizer.decode(new[:cap], skip_special_tokens=True)
        print(f"{min(start + batch, len(order))} of {len(order)}", flush=True)
    return [replies[i] for i in range(len(requests))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("reader", choices=sorted(READ))
    parser.add_argument("log", type=Path, help="a llama.cpp Inspect log of the reader's task")
    parser.add_argument("--model", default="qwen2.5-coder-1.5b")
    parser.add_argument("--prompts", type=int, default=50)
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--seed", type=int, default=50)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    folder = str(embedded_model_path(args.model))
    every = logged_requests(args.reader, args.log)
    drawn = random.Random(args.seed).sample(every, min(args.prompts, len(every)))
    started = time.monotonic()
    replies = generate(folder, drawn, args.batch)
    wall = time.monotonic() - started
    read = READ[args.reader]
    rows = []
    for request, reply in zip(drawn, replies, strict=True):
        readings = [read(request["prompt"], text) for text in (request["reply"], reply)]
        rows.append({
            "id": request["id"], "identical": reply.strip() == request["reply"].strip(),
            "same_reading": readings[0] == readings[1],
            "llamacpp": request["reply"], "transformers": reply,
        })  # fmt: skip
    result: dict[str, Any] = {
        "command": " ".join(sys.argv),
        "log": str(args.log),
        "reader": args.reader,
        "prompts": len(rows),
        "of": len(every),
        "transformers_wall_s": round(wall, 1),
        "identical": sum(row["identical"] for row in rows),
        "same_reading": sum(row["same_reading"] for row in rows),
        "same_reading_ci": wilson_interval(
            sum(row["same_reading"] for row in rows), len(rows), unit="prompt"
        ).as_dict(),
    }
    if args.reader == "number_guessing":
        hits = {
            backend: {
                row["id"]: float(
                    read("", row[backend])[0] == request["recorded"]["opponent_number"]
                )
                for row, request in zip(rows, drawn, strict=True)
            }
            for backend in ("llamacpp", "transformers")
        }
        result["prediction_hit_rate"] = {b: sum(h.values()) / len(h) for b, h in hits.items()}
        result["hit_rate_difference"] = paired_difference(
            hits["transformers"], hits["llamacpp"], unit="prompt", bounds=(-1.0, 1.0)
        ).as_dict()
    result["rows"] = rows
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps({k: v for k, v in result.items() if k != "rows"}, indent=2))


if __name__ == "__main__":
    main()
