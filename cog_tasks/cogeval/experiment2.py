"""Experiment 2 (the paper's Fig. 3): success per question and reasoning instruction.

Experiment 2 asks three questions on graph D (``n15star``): how many clusters
(``exp2ClusterCount``), a shortest path within a cluster
(``exp2WithinCluster``) and one to the next cluster (``exp2OneClusterAway``),
each with no instruction (``cot=none``), the BFS or the DFS instruction. Each
question × instruction is one task, so within a cell the only independent unit
is the reply (a repeat or a temperature): a cell's 95 % interval is over
replies (Wilson below 30, else bootstrap). The rows that pool the three
questions of an instruction are bootstrapped over tasks, as elsewhere in
CogEval. Runs stay apart (the score table's ``run`` column); the paper's
statements sit beside each question (:data:`~cog_tasks.cogeval.paper.EXPERIMENT2_FINDINGS`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from cog_tasks.cogeval.graphs import COT_MODES
from cog_tasks.cogeval.metrics import (
    EXPERIMENT2_FAMILY,
    DevianceTerm,
    experiment2_deviance,
    format_deviance_table,
)
from cog_tasks.cogeval.paper import EXPERIMENT2_FINDINGS, EXPERIMENT2_SOURCE
from cog_tasks.cogeval.report import error_bar, in_order, interval_bounds, number_text, with_runs
from cog_tasks.common.files import pyplot, save_figure
from cog_tasks.common.stats import cluster_mean_interval, mean_interval

#: The three questions in the paper's order.
QUESTIONS: tuple[str, ...] = ("exp2ClusterCount", "exp2WithinCluster", "exp2OneClusterAway")
#: The label of rows that pool the three questions or every temperature.
ALL = "all"
FIGURE_NAME = "experiment2.png"


def experiment2_table(table: pd.DataFrame) -> pd.DataFrame:
    """The Experiment 2 rows of a validated score table, with ``run``, ``task`` and ``cot``.

    Raises:
        ValueError: If the table has no Experiment 2 row.
    """
    rows = with_runs(table[table["family"] == EXPERIMENT2_FAMILY])
    if rows.empty:
        raise ValueError(
            "no Experiment 2 rows: run the cogeval task with -T experiment=2 "
            "(conditions exp2ClusterCount, exp2WithinCluster, exp2OneClusterAway)"
        )
    if "cot" not in rows:
        rows["cot"] = "none"
    rows["cot"] = rows["cot"].astype(str)
    rows["success"] = rows["score"] / rows["max_score"]
    return rows


def _row(run: str, question: str, cot: str, temperature: str, cell: pd.DataFrame) -> dict[str, Any]:
    """One summary row: success with its interval over replies (one task) or tasks (pooled)."""
    if question == ALL:
        interval = cluster_mean_interval(
            cell["success"].to_list(), cell["task"].to_list(), unit="task"
        )
    else:
        interval = mean_interval(cell["success"].to_list(), unit="reply")
    return {
        "run": run,
        "model": str(cell["model"].iloc[0]),
        "question": question,
        "cot": cot,
        "temperature": temperature,
        "tasks": int(cell["task"].nunique()),
        "replies": len(cell),
        "success": interval.value,
        "success_ci": interval_bounds(interval),
        "unit": interval.unit,
        "method": interval.method,
    }


def experiment2_summary(rows: pd.DataFrame, by_temperature: bool = False) -> list[dict[str, Any]]:
    """Success per run, question and instruction (and temperature), with 95 % intervals.

    Args:
        rows: Rows from :func:`experiment2_table`.
        by_temperature: One row per temperature as well (Fig. 3 plots each);
            otherwise every temperature of a run is pooled (``temperature``
            is ``all``).

    Returns:
        Per run: one row per question × ``cot`` (× temperature), then one per
        ``cot`` pooling the three questions (``question`` is ``all``).
    """
    summary = []
    for run, run_rows in rows.groupby("run", sort=False):
        temperatures: list[tuple[str, pd.DataFrame]] = [(ALL, run_rows)]
        if by_temperature:
            temperatures = [
                (f"{value:g}", cell) for value, cell in run_rows.groupby("temperature", sort=True)
            ]
        for temperature, part in temperatures:
            for question in [*in_order(part["condition"], QUESTIONS), ALL]:
                chosen = part if question == ALL else part[part["condition"] == question]
                for cot in in_order(chosen["cot"], COT_MODES):
                    cell = chosen[chosen["cot"] == cot]
                    summary.append(_row(str(run), question, cot, temperature, cell))
    return summary


def run_deviance(rows: pd.DataFrame, on_warning: Any) -> list[DevianceTerm]:
    """:func:`~cog_tasks.cogeval.metrics.experiment2_deviance` with each run as its own LLM level.

    Two runs of one model with different settings are different levels, so
    the test never merges runs.
    """
    return experiment2_deviance(rows.assign(model=rows["run"]), on_warning=on_warning)


def format_experiment2(summary: list[dict[str, Any]], terms: list[DevianceTerm]) -> str:
    """The summary as text, the paper's statements beside each question, then the deviance."""
    statements = {finding.measure: finding.finding for finding in EXPERIMENT2_FINDINGS}
    lines = [
        "run | question | cot | temperature | replies | success [95% CI] | "
        f"paper, GPT-4 ({EXPERIMENT2_SOURCE}, stated in words)"
    ]
    previous = None
    for row in summary:
        key = (row["run"], row["temperature"], row["question"])
        paper = statements.get(f"success_{row['question'].lower()}", "") if key != previous else ""
        previous = key
        low, high = row["success_ci"]
        lines.append(
            f"{row['run']} | {row['question']} | {row['cot']} | {row['temperature']} | "
            f"{row['replies']} | {row['success']:.3f} "
            f"[{number_text(low)}, {number_text(high)}] | {paper}"
        )
    lines.append("Intervals: over replies within a question (one task each), over tasks for 'all'.")
    lines += ["", "Analysis of deviance (cot as a factor; each run its own LLM level):"]
    lines.append(format_deviance_table(terms))
    return "\n".join(lines)


def experiment2_figure(summary: list[dict[str, Any]], out_dir: Path) -> Path:
    """Grouped bars per run (and temperature): success per question and ``cot``, with intervals."""
    plt = pyplot()
    panels = list(dict.fromkeys((row["run"], row["temperature"]) for row in summary))
    figure, axes = plt.subplots(
        1, len(panels), figsize=(1.0 + 4.2 * len(panels), 4.2), squeeze=False
    )
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
            errors = np.array([error_bar(row["success"], row["success_ci"]) for row in chosen]).T
            axis.bar(
                positions + (offset - 1) * width,
                values,
                width,
                yerr=errors,
                capsize=3,
                label=f"cot={cot}",
            )
        axis.set_xticks(
            range(len(questions)),
            [q.removeprefix("exp2") for q in questions],
            rotation=20,
            ha="right",
            fontsize=8,
        )
        axis.set_ylim(0, 1)
        axis.set_ylabel("success (95 % interval)")
        suffix = "" if temperature == ALL else f", temperature {temperature}"
        axis.set_title(f"{run}{suffix}", fontsize=9)
        axis.legend(fontsize=7)
    figure.suptitle("CogEval Experiment 2 (cf. the paper's Fig. 3)", fontsize=10)
    figure.tight_layout()
    path = out_dir / FIGURE_NAME
    save_figure(figure, path)
    plt.close(figure)
    return path
