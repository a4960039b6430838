"""EgoSocialArena's headline numbers of one Inspect log, for the cross-benchmark profile.

The log is read into the shared results model and checked
(:func:`cog_tasks.egosocial.inspect.report.checked_runs`); the headlines are
the report's cells that carry a ``measure``, so the profile and ``egosocial
report`` show the same numbers over the same units: an item for the static
tasks (the authors' items and the generated ones are separate measures), a
prompt for the Blackjack beliefs, a game for Number Guessing and a match for
Hold'em, each the mean over its epochs. Every headline is on the raw scale
(read against the chance row) and carries the run's coverage.
"""

from __future__ import annotations

from inspect_ai.log import EvalLog

from cog_tasks.common.headlines import Headline
from cog_tasks.egosocial.inspect.report import BENCHMARK, checked_runs, run_cells


def headlines(log: EvalLog) -> list[Headline]:
    """The headline numbers of one successful EgoSocialArena log.

    - ``egosocial_static``: ``static_accuracy_<source>`` (source ``authors``
      or ``generated``) and, when the run was ``circular``,
      ``static_circular_accuracy_<source>`` (an item counts only when every
      rotation of its options is right);
    - ``egosocial_blackjack_beliefs``: ``blackjack_self_belief``,
      ``blackjack_external_belief`` and ``blackjack_judge_unparsed_rate``;
    - ``egosocial_number_guessing``: ``number_guessing_hit_rate`` over every
      game and ``number_guessing_hit_rate_L<level>`` (per game, the share of
      its rounds whose prediction hit); the win rate is a secondary column
      of the report, not a headline (a constant ``Choice: 1`` wins most rounds);
    - ``egosocial_holdem``: ``holdem_style_accuracy`` and
      ``holdem_belief_accuracy`` (correct over asked, a ratio of sums over matches).

    Args:
        log: A log with samples.

    Returns:
        The headlines, in the report's order.

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
