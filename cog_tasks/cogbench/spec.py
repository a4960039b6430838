"""CogBench's one declaration (:class:`~cog_tasks.common.spec.BenchmarkSpec`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cog_tasks.common.spec import BenchmarkSpec, DataSource, Step


def request_turns(
    task: str, task_args: Mapping[str, Any], metadata: Mapping[str, Any]
) -> list[int]:
    """Characters each request adds: per item a rating (and a judgement), CogGPT two a round."""
    per_round = 2 if task_args.get("agent", "coggpt") == "coggpt" else 0
    judged = 0 if task_args.get("judge") is False else 1
    turns = []
    for step in metadata.get("steps") or []:
        questions = step.get("questions") or []
        flow = len(step.get("information_flow") or "")
        turns += [flow] * per_round + [len(q) for q in questions] * (1 + judged)
    return turns or [0]


SMOKE = dict(
    agent="cot", subset="a", source="sample", iterations=1, max_tokens=32, retries=0, judge=False
)
CPU = {"agent": "cot", "source": "sample", "max_tokens": 256, "judge": False}

SPEC = BenchmarkSpec(
    name="cogbench",
    title="CogBench (Lv et al.)",
    unit="trajectory",
    tasks=("cogbench",),
    task_module="cog_tasks.cogbench.inspect",
    headlines="cog_tasks.cogbench.inspect.headlines:headlines",
    paper="cog_tasks.cogbench.paper:PAPER_ROWS",
    trivial="cog_tasks.cogbench.trivial:STRATEGIES",
    chance="cog_tasks.cogbench.inspect.chance:ChanceRater",
    presets={
        "smoke": (Step("cogbench", "cogbench", SMOKE, limit=2),),
        "standard": (
            Step("cogbench", "cogbench", {"agent": "coggpt", "judge_chars": 12000}, limit=2),
        ),
        "cpu": (Step("cogbench", "cogbench", CPU, limit=2),),
        "full": tuple(
            Step("cogbench", "cogbench", {"agent": agent})
            for agent in ("coggpt", "cot", "react", "reflexion")
        ),
    },
    request_turns="cog_tasks.cogbench.spec:request_turns",
    self_judges=True,
    data=DataSource(
        "CogBench sample set (fixtures, not human data)",
        write="cog_tasks.cogbench.dataset:write_sample_folder",
    ),
    cli="cog_tasks.cogbench.cli",
)
