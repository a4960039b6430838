"""EgoSocialArena's one declaration (:class:`~cog_tasks.common.spec.BenchmarkSpec`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cog_tasks.common.spec import BenchmarkSpec, DataSource, Step


def request_turns(
    task: str, task_args: Mapping[str, Any], metadata: Mapping[str, Any]
) -> list[int]:
    """Characters each request adds, one entry a request, by task (static, round, belief, hand)."""
    if task == "egosocial_number_guessing":
        return [0] * int(metadata.get("rounds") or task_args.get("rounds") or 10)
    if task == "egosocial_blackjack_beliefs":
        return [0, 0]
    if task == "egosocial_holdem":
        return [0] * int(task_args.get("hands") or 10) * 4
    return [0] * (4 if task_args.get("circular") else 1)


def _steps(*steps: tuple[str, dict[str, Any], int | None]) -> tuple[Step, ...]:
    return tuple(Step("egosocial", task, args, limit=limit) for task, args, limit in steps)


SPEC = BenchmarkSpec(
    name="egosocial",
    title="EgoSocialArena (Hou et al.)",
    unit="item, prompt, game or match (by task)",
    tasks=(
        "egosocial_static",
        "egosocial_blackjack_beliefs",
        "egosocial_number_guessing",
        "egosocial_holdem",
    ),
    task_module="cog_tasks.egosocial.inspect",
    headlines="cog_tasks.egosocial.inspect.headlines:headlines",
    paper="cog_tasks.egosocial.paper:PAPER_ROWS",
    trivial="cog_tasks.egosocial.inspect.trivial:STRATEGIES",
    chance="cog_tasks.egosocial.inspect.chance:ChanceAnswerer",
    presets={
        "smoke": _steps(
            ("egosocial_static", {}, 30), ("egosocial_number_guessing", {"rounds": 3}, None)
        ),
        "standard": _steps(
            ("egosocial_static", {"circular": True}, None),
            ("egosocial_number_guessing", {"games": 5}, None),
            ("egosocial_holdem", {"matches": 15}, None),
        ),
        "cpu": _steps(
            ("egosocial_static", {}, None),
            ("egosocial_number_guessing", {"games": 10}, None),
            ("egosocial_holdem", {"hands": 2, "matches": 15}, None),
        ),
        "full": _steps(
            ("egosocial_static", {"source": "both"}, None),
            ("egosocial_blackjack_beliefs", {}, None),
            ("egosocial_number_guessing", {}, None),
            ("egosocial_holdem", {"hands": 10, "matches": 3}, None),
        ),
    },
    request_turns="cog_tasks.egosocial.spec:request_turns",
    judged_tasks=("egosocial_blackjack_beliefs",),
    data=DataSource(
        "EgoSocialArena static items: authors' and generated",
        build="cog_tasks.egosocial.dataset:build_dataset_dict",
        card="cog_tasks.egosocial.dataset:dataset_card",
    ),
    cli="cog_tasks.egosocial.cli",
)
