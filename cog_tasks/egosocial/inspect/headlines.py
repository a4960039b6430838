"""EgoSocialArena's headline numbers of one Inspect log, for the cross-benchmark profile.

The headlines are the checked report's cells that carry a ``measure``, so the profile and
``egosocial report`` show the same numbers over the same units, on the raw scale.
"""

from __future__ import annotations

from inspect_ai.log import EvalLog

from cog_tasks.common.headlines import Headline
from cog_tasks.egosocial.inspect.report import BENCHMARK, checked_runs, run_cells


def headlines(log: EvalLog) -> list[Headline]:
    """The headline numbers of one successful EgoSocialArena log, in the report's order.

    Static accuracy per source (and circular), Blackjack self and external belief and the judge's
    unparsed rate, the Number Guessing hit rate overall and per level, Hold'em style and belief
    accuracy (names in the README).

    Raises:
        cog_tasks.common.results.ResultsError: From the shared checks.
    """
    (run,) = checked_runs([log])
    return [
        Headline(
            BENCHMARK,
            cell.measure,
            cell.interval(),
            run.checked.identity,
            cell.counted(),
            coverage=run.checked.coverage,
            scale="raw",
        )
        for cell in run_cells(run)
        if cell.measure
    ]
