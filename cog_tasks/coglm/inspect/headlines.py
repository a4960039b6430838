"""CogLM's headline numbers of one Inspect ``coglm_chat`` log, for the cross-benchmark profile.

The unit is the item (sample id ``plan-0007``, stable across models and runs
on the same data); the measures are those of
:func:`cog_tasks.coglm.headlines.item_headlines`, the pooled one named
``calibrated_acc_pooled`` (the task's ``calibrated_acc`` metric is the mean of
the abilities, ``overall`` here; the chat protocol's answers, read by the task's extractor,
with the listed-option chance).
"""

from __future__ import annotations

from inspect_ai.log import EvalLog

from cog_tasks.coglm.headlines import item_headlines
from cog_tasks.coglm.inspect.logs import IGNORED_ARGUMENTS
from cog_tasks.coglm.inspect.report import log_items, partial_description
from cog_tasks.common.headlines import Headline
from cog_tasks.common.logs import run_identity


def headlines(log: EvalLog, seed: int = 0) -> list[Headline]:
    """The headlines of one successful ``coglm_chat`` log.

    Args:
        log: The log, with samples.
        seed: Seed of the bootstrap.

    Returns:
        ``calibrated_acc_pooled``, ``overall``, the stages present and, with all four,
        ``cognitive_age``; each noted when the run was partial.
    """
    partial = partial_description(log)
    return item_headlines(
        log_items(log),
        run_identity(log, ignore=IGNORED_ARGUMENTS),
        pooled_measure="calibrated_acc_pooled",
        note=f"partial run ({partial})" if partial else "",
        seed=seed,
    )
