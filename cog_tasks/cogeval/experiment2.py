"""Experiment 2 (the paper's Fig. 3): success per question and reasoning instruction."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from cog_tasks.cogeval.graphs import COT_MODES
from cog_tasks.cogeval.headlines import SUCCESS, TEMPERATURE_ARGUMENTS, CogEvalRun, analysis_levels
from cog_tasks.cogeval.metrics import (
    EXPERIMENT2_FAMILY,
    DevianceTerm,
    experiment2_deviance,
    format_deviance_table,
)
from cog_tasks.cogeval.paper import EXPERIMENT2_FINDINGS, EXPERIMENT2_SOURCE
from cog_tasks.cogeval.report import SHOWN_FLAGS, flag_counts, in_order, rate_text
from cog_tasks.common.files import pyplot
from cog_tasks.common.report import error_bars, row_notes, save_closed
from cog_tasks.common.results import ResultsError
from cog_tasks.common.stats import Interval, mean_interval

#: The three questions in the paper's order.
QUESTIONS: tuple[str, ...] = ("exp2ClusterCount", "exp2WithinCluster", "exp2OneClusterAway")
#: The label of rows that pool the three questions or every temperature.
ALL = "all"
FIGURE_NAME = "experiment2.png"
#: What Experiment 2's analysis models as factors: runs differing only in them share a level.
EXPERIMENT2_FACTORS: frozenset[str] = TEMPERATURE_ARGUMENTS | {"cot"}


def experiment2_runs(runs: Sequence[CogEvalRun]) -> list[tuple[CogEvalRun, pd.DataFrame]]:
    """Each run with Experiment 2 dialogs, and those dialogs (one row per reply)."""
    chosen = []
    for run in runs:
        rows = pd.DataFrame(run.dialogs())
        rows = rows[rows["family"] == EXPERIMENT2_FAMILY]
        if not rows.empty:
            chosen.append((run, rows))
    if not chosen:
        raise ResultsError(
            "no Experiment 2 rows: run the cogeval task with -T experiment=2 "
            "(conditions exp2ClusterCount, exp2WithinCluster, exp2OneClusterAway)"
        )
    return chosen


def _row(
    run: CogEvalRun,
    question: str,
    cot: str,
    temperature: str,
    cell: pd.DataFrame,
    interval: Interval,
) -> dict[str, Any]:
    """One summary row with its interval and the cell's flagged replies."""
    statuses = cell["status"].value_counts().to_dict()
    return {
        "run": run.label,
        "model": run.identity.model,
        "question": question,
        "cot": cot,
        "temperature": temperature,
        "tasks": int(cell["task"].nunique()),
        "replies": len(cell),
        "success": interval.value,
        "success_ci": interval.as_list(),
        "unit": interval.unit,
        "method": interval.method,
        **{status: int(statuses.get(status, 0)) for status in SHOWN_FLAGS},
        "note": run.note(),
    }


def experiment2_summary(
    runs: Sequence[CogEvalRun], by_temperature: bool = False
) -> list[dict[str, Any]]:
    """Success per run, question (then ``all``) and ``cot`` (and temperature), with intervals."""
    summary = []
    for run, rows in experiment2_runs(runs):
        temperatures: list[tuple[str, float | None, pd.DataFrame]] = [(ALL, None, rows)]
        if by_temperature:
            temperatures = [
                (f"{value:g}", float(value), cell)
                for value, cell in rows.groupby("temperature", sort=True)
            ]
        for label, temperature, part in temperatures:
            for question in [*in_order(list(part["condition"]), QUESTIONS), ALL]:
                chosen = part if question == ALL else part[part["condition"] == question]
                for cot in in_order(list(chosen["cot"]), COT_MODES):
                    cell = chosen[chosen["cot"] == cot]
                    if question == ALL:
                        interval = run.rate(SUCCESS, set(cell["task"]), temperature)
                    else:
                        interval = mean_interval(cell["score"].to_list(), unit="reply")
                    summary.append(_row(run, question, cot, label, cell, interval))
    return summary


def run_deviance(
    runs: Sequence[CogEvalRun], on_warning: Callable[[str], None]
) -> list[DevianceTerm]:
    """:func:`~cog_tasks.cogeval.metrics.experiment2_deviance` over the runs' dialogs."""
    chosen = experiment2_runs(runs)
    levels = analysis_levels([run for run, _ in chosen], EXPERIMENT2_FACTORS)
    table = pd.concat(
        [rows.assign(model=level) for (_, rows), level in zip(chosen, levels, strict=True)]
    )
    return experiment2_deviance(table, on_warning=on_warning)


def format_experiment2(summary: list[dict[str, Any]], terms: list[DevianceTerm]) -> str:
    """The summary as text, the paper's statements beside each question, then the deviance."""
    statements = {finding.measure: finding.finding for finding in EXPERIMENT2_FINDINGS}
    lines = [
        "run | question | cot | temperature | replies | invalid/error/truncated | "
        f"success [95% CI] | paper, GPT-4 ({EXPERIMENT2_SOURCE}, stated in words)"
    ]
    previous = None
    notes = {}
    for row in summary:
        key = (row["run"], row["temperature"], row["question"])
        paper = statements.get(f"success_{row['question'].lower()}", "") if key != previous else ""
        previous = key
        if row["note"]:
            notes[row["run"]] = row["note"]
        count = row["replies"] if row["unit"] == "reply" else row["tasks"]
        rate = rate_text(row["success"], row["success_ci"], count, row["unit"])
        lines.append(
            f"{row['run']} | {row['question']} | {row['cot']} | {row['temperature']} | "
            f"{row['replies']} | {flag_counts(row)} | {rate} | {paper}"
        )
    lines += row_notes(notes.items())
    lines.append("Intervals: over replies within a question (one task each), over tasks for 'all'.")
    lines += ["", "Analysis of deviance (cot as a factor; LLM: each setting its own level):"]
    lines.append(format_deviance_table(terms))
    return "\n".join(lines)


def experiment2_figure(summary: list[dict[str, Any]], out_dir: Path) -> Path:
    """Grouped bars per run (and temperature): success per question and ``cot``, with intervals."""
    panels = list(dict.fromkeys((row["run"], row["temperature"]) for row in summary))
    size = (1.0 + 4.2 * len(panels), 4.2)
    figure, axes = pyplot().subplots(1, len(panels), figsize=size, squeeze=False)
    width = 0.26
    for axis, (run, temperature) in zip(axes[0], panels, strict=True):
        rows = [row for row in summary if (row["run"], row["temperature"]) == (run, temperature)]
        questions = list(dict.fromkeys(row["question"] for row in rows))
        for offset, cot in enumerate(COT_MODES):
            chosen = [row for row in rows if row["cot"] == cot]
            if not chosen:
                continue
            positions = np.array([questions.index(row["question"]) for row in chosen])
            values = np.array([row["success"] for row in chosen])
            errors = error_bars((row["success"], row["success_ci"]) for row in chosen)
            shifted = positions + (offset - 1) * width
            axis.bar(shifted, values, width, yerr=errors, capsize=3, label=f"cot={cot}")
        labels = [q.removeprefix("exp2") for q in questions]
        axis.set_xticks(range(len(questions)), labels, rotation=20, ha="right", fontsize=8)
        axis.set_ylim(0, 1)
        axis.set_ylabel("success (95 % interval)")
        suffix = "" if temperature == ALL else f", temperature {temperature}"
        axis.set_title(f"{run}{suffix}", fontsize=9)
        axis.legend(fontsize=7)
    figure.suptitle("CogEval Experiment 2 (cf. the paper's Fig. 3)", fontsize=10)
    return save_closed(figure, out_dir / FIGURE_NAME)
