"""CogEval's headline numbers of one Inspect log, for the cross-benchmark profile."""

from __future__ import annotations

from inspect_ai.log import EvalLog

from cog_tasks.cogeval.headlines import checked_runs, run_headlines
from cog_tasks.cogeval.inspect.logs import log_results
from cog_tasks.common.headlines import Headline


def headlines(log: EvalLog) -> list[Headline]:
    """The CogEval headline numbers of one successful ``cogeval`` Inspect log."""
    (run,) = checked_runs([log_results(log)])
    return run_headlines(run)
