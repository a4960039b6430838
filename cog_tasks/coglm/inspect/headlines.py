"""CogLM's headline numbers of one ``coglm_chat`` log (pooled measure ``calibrated_acc_pooled``)."""

from __future__ import annotations

from inspect_ai.log import EvalLog

from cog_tasks.coglm.headlines import CHAT_POOLED, run_headlines
from cog_tasks.coglm.inspect.report import log_results
from cog_tasks.common.headlines import Headline
from cog_tasks.common.results import check_run


def headlines(log: EvalLog, seed: int = 0) -> list[Headline]:
    """The headlines of one successful ``coglm_chat`` log, each carrying the run's coverage."""
    return run_headlines(check_run(log_results(log)), pooled_measure=CHAT_POOLED, seed=seed)
