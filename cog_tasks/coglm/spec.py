"""CogLM's one declaration (:class:`~cog_tasks.common.spec.BenchmarkSpec`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cog_tasks.common.spec import BenchmarkSpec, DataSource, Step


def request_turns(
    task: str, task_args: Mapping[str, Any], metadata: Mapping[str, Any]
) -> list[int]:
    """One request an item, times the self-consistency samples."""
    return [0] * int(task_args.get("sc_samples") or 1)


def _chat(per_ability: int | None) -> tuple[Step, ...]:
    """The chat step; a profile of local weights runs lm-eval's ``coglm`` on the same items."""
    return (Step("coglm", "coglm_chat", {"per_ability": per_ability} if per_ability else {}),)


SPEC = BenchmarkSpec(
    name="coglm",
    title="CogLM (Wang et al.)",
    unit="item",
    tasks=("coglm", "coglm_chat"),
    task_module="cog_tasks.coglm.inspect",
    headlines="cog_tasks.coglm.inspect.headlines:headlines",
    paper="cog_tasks.coglm.paper:PAPER_ROWS",
    trivial="cog_tasks.coglm.trivial:STRATEGIES",
    chance="cog_tasks.coglm.inspect.chance:ChanceAnswerer",
    presets={"smoke": _chat(20), "standard": _chat(30), "cpu": _chat(5), "full": _chat(None)},
    lm_eval_task="coglm",
    request_turns="cog_tasks.coglm.spec:request_turns",
    data=DataSource(
        "CogLM: configs all, one per ability and one per stage",
        build="cog_tasks.coglm.dataset:build_dataset_dict",
        card="cog_tasks.coglm.dataset:dataset_card",
        check="cog_tasks.coglm.dataset:check_complete",
    ),
    cli="cog_tasks.coglm.cli",
)
