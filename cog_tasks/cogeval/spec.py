"""CogEval's one declaration (:class:`~cog_tasks.common.spec.BenchmarkSpec`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cog_tasks.common.spec import BenchmarkSpec, DataSource, Step


def request_turns(
    task: str, task_args: Mapping[str, Any], metadata: Mapping[str, Any]
) -> list[int]:
    """The first prompt, then each follow-up turn."""
    return [0] + [len(str(turn)) for turn in metadata.get("followups") or []]


SPEC = BenchmarkSpec(
    name="cogeval",
    title="CogEval (Momennejad et al.)",
    unit="task",
    tasks=("cogeval",),
    task_module="cog_tasks.cogeval.inspect",
    headlines="cog_tasks.cogeval.inspect.headlines:headlines",
    paper="cog_tasks.cogeval.paper:PAPER_ROWS",
    trivial="cog_tasks.cogeval.trivial:STRATEGIES",
    chance="cog_tasks.cogeval.inspect.chance:chance_answerer",
    chance_reads_args=True,
    presets={
        "smoke": (
            Step(
                "cogeval",
                "cogeval",
                {"graphs": "n7line", "domains": "ordRooms", "temperatures": "0", "max_tokens": 64},
            ),
        ),
        "standard": (Step("cogeval", "cogeval", {"design": "paper", "temperatures": "0"}),),
        "cpu": (
            Step(
                "cogeval",
                "cogeval",
                {
                    "design": "paper",
                    "source": "generated",
                    "graphs": "n7tree,n13line,n15star",
                    "domains": "ordRooms",
                    "temperatures": "0",
                    "max_tokens": 1024,
                },
            ),
        ),
        "full": (Step("cogeval", "cogeval", {"design": "paper"}, epochs=3),),
    },
    request_turns="cog_tasks.cogeval.spec:request_turns",
    own_temperatures=True,
    data=DataSource(
        "CogEval reference items (seed 0)",
        build="cog_tasks.cogeval.dataset:build_dataset_dict",
        card="cog_tasks.cogeval.dataset:dataset_card",
    ),
    cli="cog_tasks.cogeval.cli",
)
