"""EgoSocialArena's headline numbers of one Inspect log, for the cross-benchmark profile.

The unit of every interval is the benchmark's independent unit: an item for
the static tasks (the authors' items and the generated ones are separate
measures, never one cell), a game for Number Guessing and a match for
Hold'em (the rounds and hands of one game are not independent). Unit ids are
``<sample id>#<epoch>``, stable across models and runs on the same items.
"""

from __future__ import annotations

from collections import defaultdict

from inspect_ai.log import EvalLog

from cog_tasks.common.headlines import Headline
from cog_tasks.common.logs import run_identity, task_name
from cog_tasks.common.stats import UnitValue, bootstrap_interval, mean_interval
from cog_tasks.egosocial.inspect.report import (
    BELIEFS_TASK,
    HOLDEM_TASK,
    NUMBER_GUESSING_TASK,
    STATIC_TASK,
    sample_units,
)

BENCHMARK = "egosocial"
#: Task arguments that do not change the measurement.
IGNORED_ARGUMENTS = ("data_file",)


def _mean_headline(
    measure: str, units: dict[str, float], unit: str, log: EvalLog, note: str = ""
) -> Headline:
    interval = mean_interval(list(units.values()), unit=unit)
    return Headline(
        BENCHMARK, measure, interval, run_identity(log, ignore=IGNORED_ARGUMENTS), dict(units), note
    )


def _ratio_headline(
    measure: str, units: dict[str, tuple[float, float]], unit: str, log: EvalLog
) -> Headline:
    pairs = [pair for pair in units.values() if pair[1] > 0]
    tops = [top for top, _ in pairs]
    bottoms = [bottom for _, bottom in pairs]
    interval = bootstrap_interval(
        lambda indices: sum(tops[i] for i in indices) / sum(bottoms[i] for i in indices),
        len(pairs),
        unit=unit,
    )
    kept: dict[str, UnitValue] = {key: pair for key, pair in units.items() if pair[1] > 0}
    return Headline(BENCHMARK, measure, interval, run_identity(log, ignore=IGNORED_ARGUMENTS), kept)


def headlines(log: EvalLog) -> list[Headline]:
    """The headline numbers of one successful EgoSocialArena log.

    - ``egosocial_static``: ``static_accuracy_<source>`` (source ``authors``
      or ``generated``) over items, and ``static_circular_accuracy_<source>``
      when the run was ``circular`` (an item counts only when every rotation
      of its options is right).
    - ``egosocial_blackjack_beliefs``: ``blackjack_self_belief``,
      ``blackjack_external_belief`` and ``blackjack_judge_unparsed_rate`` over prompts.
    - ``egosocial_number_guessing``: ``number_guessing_hit_rate_L<level>``
      (per game, the share of its rounds whose prediction hit) and
      ``number_guessing_win_rate`` over games.
    - ``egosocial_holdem``: ``holdem_style_accuracy`` over matches and
      ``holdem_belief_accuracy`` (correct over asked, a ratio of sums over matches).

    Args:
        log: A log with samples.

    Returns:
        The headlines, in the order above.
    """
    task = task_name(log)
    units = sample_units(log)
    found: list[Headline] = []
    if task == STATIC_TASK:
        by_measure: dict[str, dict[str, float]] = defaultdict(dict)
        for unit in units:
            source = unit.metadata.get("source", "generated")
            by_measure[f"static_accuracy_{source}"][unit.id] = unit.values["all"]
            if "circular" in unit.values:
                by_measure[f"static_circular_accuracy_{source}"][unit.id] = unit.values["circular"]
        for measure, values in by_measure.items():
            found.append(_mean_headline(measure, values, "item", log))
    elif task == BELIEFS_TASK:
        for key in ("self_belief", "external_belief", "judge_unparsed_rate"):
            values = {unit.id: unit.values[key] for unit in units}
            found.append(_mean_headline(f"blackjack_{key}", values, "item", log))
    elif task == NUMBER_GUESSING_TASK:
        by_level: dict[int, dict[str, float]] = defaultdict(dict)
        for unit in units:
            by_level[int(unit.metadata["level"])][unit.id] = unit.values["accuracy"]
        for level in sorted(by_level):
            found.append(
                _mean_headline(f"number_guessing_hit_rate_L{level}", by_level[level], "game", log)
            )
        wins = {unit.id: unit.values["win_rate"] for unit in units}
        found.append(_mean_headline("number_guessing_win_rate", wins, "game", log))
    elif task == HOLDEM_TASK:
        styles = {unit.id: unit.values["style_correct"] for unit in units}
        found.append(_mean_headline("holdem_style_accuracy", styles, "match", log))
        beliefs = {
            unit.id: (unit.values["belief_correct"], unit.values["belief_asked"]) for unit in units
        }
        found.append(_ratio_headline("holdem_belief_accuracy", beliefs, "match", log))
    return found
