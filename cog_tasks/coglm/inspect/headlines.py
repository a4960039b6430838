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

from cog_tasks.coglm.headlines import run_headlines
from cog_tasks.coglm.inspect.report import log_results
from cog_tasks.common.headlines import Headline
from cog_tasks.common.results import check_run


def headlines(log: EvalLog, seed: int = 0) -> list[Headline]:
    """The headlines of one successful ``coglm_chat`` log.

    Args:
        log: The log, with samples.
        seed: Seed of the bootstrap.

    Returns:
        ``calibrated_acc_pooled``, ``overall``, the stages present and, with all four,
        ``cognitive_age``; each carrying the run's coverage (partial, flagged replies).
    """
    return run_headlines(
        check_run(log_results(log)), pooled_measure="calibrated_acc_pooled", seed=seed
    )
