"""Read EgoSocialArena Inspect logs into the core report's measurements.

Logs come through :func:`cog_tasks.common.logs.read_logs` (successful
logs only unless other statuses are asked for); figures and tables are drawn
by :mod:`cog_tasks.egosocial.report`.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterator
from pathlib import Path

from inspect_ai.log import EvalLog

from cog_tasks.common.logs import SUCCESS_ONLY, LogSet, read_logs, task_name
from cog_tasks.egosocial.report import GuessCurve, Measurement, sum_measurements, write_report

STATIC_TASK = "egosocial_static"
BELIEFS_TASK = "egosocial_blackjack_beliefs"
NUMBER_GUESSING_TASK = "egosocial_number_guessing"
HOLDEM_TASK = "egosocial_holdem"
TASKS = (STATIC_TASK, BELIEFS_TASK, NUMBER_GUESSING_TASK, HOLDEM_TASK)
BELIEF_LABELS = {"self_belief": "Self-Belief", "external_belief": "External-Belief"}

Count = tuple[str, str, str, float, float]


def _counts(log: EvalLog, curves: list[GuessCurve]) -> Iterator[Count]:
    """``(model, ability, scenario, correct, total)`` rows of one log; games go to ``curves``."""
    task, model = task_name(log), log.eval.model
    for sample in log.samples or []:
        if not sample.scores:
            continue
        score = next(iter(sample.scores.values()))
        values, metadata = score.value, sample.metadata
        if task == STATIC_TASK:
            yield model, metadata["label"], metadata["scenario"], float(values["all"]), 1.0
        elif task == BELIEFS_TASK:
            for key, label in BELIEF_LABELS.items():
                yield model, label, "blackjack (judged)", float(values[key]), 1.0
        elif task == NUMBER_GUESSING_TASK:
            rounds = score.metadata["completed"]
            scenario = f"number_guessing L{metadata['level']}"
            yield model, "ToM", scenario, values["accuracy"] * len(rounds), float(len(rounds))
            curves.append(
                GuessCurve(
                    model=model,
                    level=metadata["level"],
                    epoch=sample.epoch,
                    opponent=tuple(r["opponent_number"] for r in rounds),
                    predictions=tuple(r["prediction"] for r in rounds),
                )
            )
        else:
            opponent = metadata["opponent"]
            yield model, "ToM", f"holdem style ({opponent})", values["style_correct"], 1.0
            yield (
                model,
                "ToM",
                f"holdem beliefs ({opponent})",
                values["belief_correct"],
                values["belief_asked"],
            )


def collect(
    source: str | os.PathLike[str], statuses: Collection[str] = SUCCESS_ONLY
) -> tuple[list[Measurement], list[GuessCurve], LogSet]:
    """Read the EgoSocialArena logs under ``source``.

    Args:
        source: A log folder (searched recursively) or a log file.
        statuses: Log statuses to keep; successful logs only by default.

    Returns:
        Measurements (summed per model, ability and scenario), every Number
        Guessing game, and the logs read with those skipped.

    Raises:
        FileNotFoundError: If no EgoSocialArena log with samples is found.
    """
    logs = read_logs(source, tasks=TASKS, statuses=statuses)
    curves: list[GuessCurve] = []
    counts = [count for log in logs.logs for count in _counts(log, curves)]
    if not counts:
        note = f" ({logs.skipped_note()})" if logs.skipped else ""
        raise FileNotFoundError(f"no EgoSocialArena logs with samples in {source}{note}")
    return sum_measurements(counts), curves, logs


def report_logs(
    log_dir: Path, out_dir: Path | None = None, statuses: Collection[str] = SUCCESS_ONLY
) -> tuple[list[Path], str]:
    """Write the report for the logs in ``log_dir``.

    Returns:
        The files written and the note on skipped logs (``""`` when none were).
    """
    measurements, curves, logs = collect(log_dir, statuses)
    return write_report(measurements, curves, out_dir or log_dir), logs.skipped_note()
