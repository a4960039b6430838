"""What a profile would cost before it runs: requests and tokens per step (``--dry-run``)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from cog_tasks.benchmarks import REGISTRY
from cog_tasks.common.spec import Step, load

CHARS_PER_TOKEN = 4  # The rough rule of English text for GPT-style tokenizers.

DEFAULT_OUTPUT_CAP = 512  # Output tokens per request where no cap is set.


@dataclass(frozen=True)
class Estimate:
    """One step's cost: samples (epochs included), requests, input and (at most) output tokens."""

    task: str
    samples: int
    requests: int
    input_tokens: int
    output_tokens: int


def estimate_step(step: Step, dataset: list[Any], output_cap: int | None) -> Estimate:
    """Requests and tokens of one Inspect step from the samples it would run."""
    chosen = dataset[: step.limit] if step.limit is not None else dataset
    cap = step.task_args.get("max_tokens") or output_cap or DEFAULT_OUTPUT_CAP
    # Characters each request of one sample adds beyond the first prompt (its spec's rule).
    spec = REGISTRY[step.benchmark]
    turns = load(spec.request_turns) if spec.request_turns else lambda *_: [0]
    requests = input_chars = 0
    for sample in chosen:
        text = sample.input
        history = len(text) if isinstance(text, str) else sum(len(m.text) for m in text)
        # Options are sent too (the solver lists them under the question).
        history += sum(len(str(choice)) + 4 for choice in sample.choices or [])
        for added in turns(step.task, step.task_args, sample.metadata or {}):
            history += added
            input_chars += history
            requests += 1
            history += cap * CHARS_PER_TOKEN  # the reply joins the history of the next turn
    epochs = step.epochs
    return Estimate(
        step.task,
        len(chosen) * epochs,
        requests * epochs,
        input_chars * epochs // CHARS_PER_TOKEN,
        requests * epochs * cap,
    )


def estimate_lm_eval(items: list[Any]) -> Estimate:
    """CogLM on lm-eval's log-likelihood path: a request per option, and the question's own."""
    requests = sum(len(item.choices) + 1 for item in items)
    characters = sum(
        (len(item.choices) + 1) * len(item.question) + sum(map(len, item.choices)) for item in items
    )
    return Estimate("coglm (lm-eval)", len(items), requests, characters // CHARS_PER_TOKEN, 0)


def format_estimates(
    estimates: list[Estimate], price_in: float | None, price_out: float | None
) -> list[str]:
    """One line a step and a total; a cost column when both prices are given."""
    lines = []
    sums = [sum(getattr(e, f.name) for e in estimates) for f in fields(Estimate)[1:]]
    for estimate in [*estimates, Estimate("total", *sums)]:
        line = (
            f"{estimate.task:<28} {estimate.samples:>7} samples {estimate.requests:>8} requests "
            f"{estimate.input_tokens:>11,} input tokens (est.) "
            f"{estimate.output_tokens:>10,} output tokens (at most)"
        )
        if price_in is not None and price_out is not None:
            cost = (estimate.input_tokens * price_in + estimate.output_tokens * price_out) / 1e6
            line += f"  ${cost:,.2f}"
        lines.append(line)
    return lines
