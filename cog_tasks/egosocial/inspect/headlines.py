"""EgoSocialArena's headline numbers of one Inspect log: the report's cells with a ``measure``."""

from __future__ import annotations

from inspect_ai.log import EvalLog

from cog_tasks.common.headlines import Headline
from cog_tasks.egosocial.inspect.report import BENCHMARK, checked_runs, run_cells


def headlines(log: EvalLog) -> list[Headline]:
    """The headline numbers of one successful EgoSocialArena log, in the report's order."""
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
