"""The CogEval report: one row per run with 95 % intervals over tasks, and its figures.

A row is a run (``run`` column of the score table: one Inspect log, or runs
pooled on request), never a model: runs that differ in ``cot``, temperatures
or any other setting stay apart. Every rate carries a 95 % interval
bootstrapped over tasks (a task's temperatures and repeats are resampled
together). A chance reference sits beside each row computed on that row's
tasks only. Figures: success per run with error bars, success heatmaps (with
intervals), failure-mode bars, success by temperature with error bars.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from cog_tasks.cogeval.graphs import CONDITIONS, GRAPHS
from cog_tasks.cogeval.metrics import failure_rates
from cog_tasks.cogeval.scoring import FAILURE_MODES
from cog_tasks.common.files import pyplot, save_figure
from cog_tasks.common.stats import Interval, cluster_mean_interval

UNIT = "task"


def with_runs(table: pd.DataFrame) -> pd.DataFrame:
    """The table with ``run`` and ``task`` columns (added from the model and cot where absent).

    A score file without ``run`` gets one run per model and ``cot``; without
    ``task``, a task is its graph, domain, condition and ``cot``.
    """
    table = table.copy()
    cot = table["cot"].astype(str) if "cot" in table else pd.Series("none", index=table.index)
    if "run" not in table:
        several = cot.nunique() > 1
        table["run"] = table["model"].astype(str) + (" cot=" + cot if several else "")
    if "task" not in table:
        table["task"] = (
            table["graph"] + "." + table["domain"] + "." + table["condition"] + "." + cot
        )
    return table


def _interval(rows: pd.DataFrame, values: pd.Series) -> Interval:
    return cluster_mean_interval(values.to_list(), rows["task"].to_list(), unit=UNIT)


def interval_bounds(interval: Interval) -> list[float | None]:
    """``[low, high]`` for JSON: ``None`` where one task gives no interval (NaN)."""
    return [None if math.isnan(bound) else bound for bound in (interval.low, interval.high)]


def error_bar(value: float, bounds: list[float | None]) -> list[float]:
    """Error-bar lengths below and above ``value``; none drawn where there is no interval."""
    low, high = bounds
    return [0.0, 0.0] if low is None or high is None else [value - low, high - value]


def number_text(value: float | None) -> str:
    """A rate to three decimals, or ``n/a``."""
    return "n/a" if value is None else f"{value:.3f}"


def _reference(
    rows: pd.DataFrame, table: pd.DataFrame, reference_model: str
) -> dict[str, Any] | None:
    """The chance run covering most of ``rows``' tasks, scored on those tasks alone."""
    tasks = set(rows["task"])
    candidates = table[(table["model"] == reference_model) & table["task"].isin(tasks)]
    if candidates.empty:
        return None
    coverage = candidates.groupby("run", sort=False)["task"].nunique()
    run = str(coverage.idxmax())
    chosen = candidates[candidates["run"] == run]
    interval = _interval(chosen, chosen["score"] / chosen["max_score"])
    return {
        "run": run,
        "tasks": int(coverage.max()),
        "of_tasks": len(tasks),
        "success": interval.value,
        "success_ci": interval_bounds(interval),
    }


def run_summary(table: pd.DataFrame, reference_model: str | None = None) -> list[dict[str, Any]]:
    """One row per run: success and failure-mode rates with 95 % intervals over tasks.

    Args:
        table: A validated score table (see :func:`with_runs`).
        reference_model: The chance model's name; each other row gets the
            chance run that covers most of its tasks, scored on its tasks only.

    Returns:
        Rows with ``run``, ``model``, ``cot``, ``tasks``, ``dialogs``,
        ``success`` and ``success_ci`` (``[low, high]``), ``<mode>`` and
        ``<mode>_ci`` per failure mode, ``pooling`` (what was pooled, or
        ``""``) and ``chance`` (``None`` where there is no reference).
    """
    table = with_runs(table)
    modes = table["failure_mode"] if "failure_mode" in table else pd.Series(None, index=table.index)
    summary = []
    for run, rows in table.groupby("run", sort=False):
        success = _interval(rows, rows["score"] / rows["max_score"])
        row: dict[str, Any] = {
            "run": str(run),
            "model": str(rows["model"].iloc[0]),
            "cot": ",".join(sorted(set(rows["cot"].astype(str)))) if "cot" in rows else "none",
            "tasks": int(rows["task"].nunique()),
            "dialogs": len(rows),
            "success": success.value,
            "success_ci": interval_bounds(success),
        }
        for mode in FAILURE_MODES:
            rate = _interval(rows, (modes.loc[rows.index] == mode).astype(float))
            row[mode] = rate.value
            row[f"{mode}_ci"] = interval_bounds(rate)
        row["pooling"] = str(rows["pooling"].iloc[0]) if "pooling" in rows else ""
        is_reference = reference_model is not None and row["model"] == reference_model
        row["chance"] = (
            None
            if reference_model is None or is_reference
            else _reference(rows, table, reference_model)
        )
        summary.append(row)
    return summary


def format_summary(summary: list[dict[str, Any]]) -> str:
    """The run summary as text: one line per run, intervals in brackets, notes below."""
    lines = [
        "run | tasks | dialogs | success [95% CI over tasks] | chance on the same tasks | "
        + " | ".join(FAILURE_MODES)
    ]
    notes = []
    for row in summary:
        low, high = row["success_ci"]
        chance = row["chance"]
        chance_text = (
            "-"
            if chance is None
            else f"{chance['success']:.3f} [{number_text(chance['success_ci'][0])}, "
            f"{number_text(chance['success_ci'][1])}] "
            f"({chance['tasks']}/{chance['of_tasks']} tasks)"
        )
        rates = " | ".join(f"{row[mode]:.3f}" for mode in FAILURE_MODES)
        lines.append(
            f"{row['run']} | {row['tasks']} | {row['dialogs']} | "
            f"{row['success']:.3f} [{number_text(low)}, {number_text(high)}] | "
            f"{chance_text} | {rates}"
        )
        if row["pooling"]:
            notes.append(f"{row['run']}: {row['pooling']}")
    return "\n".join(lines + notes)


def success_by_run(summary: list[dict[str, Any]], out_dir: Path) -> Path:
    """Bars of success per run with 95 % intervals, chance on the same tasks as a tick."""
    plt = pyplot()
    figure, axis = plt.subplots(figsize=(2.5 + 1.0 * len(summary), 4.0))
    positions = np.arange(len(summary))
    values = np.array([row["success"] for row in summary])
    errors = np.array([error_bar(row["success"], row["success_ci"]) for row in summary]).T
    axis.bar(positions, values, yerr=errors, capsize=4, color="tab:blue", label="success")
    for position, row in zip(positions, summary, strict=True):
        if row["chance"] is not None:
            chance = row["chance"]
            axis.errorbar(
                position + 0.3,
                chance["success"],
                yerr=np.array([error_bar(chance["success"], chance["success_ci"])]).T,
                fmt="k_",
                capsize=3,
                label="chance on the same tasks" if position == 0 else None,
            )
    axis.set_xticks(positions, [row["run"] for row in summary], rotation=30, ha="right", fontsize=7)
    return _finish_success_chart(
        figure, axis, "CogEval success per run", 7, out_dir / "success_by_run.png"
    )


def _finish_success_chart(figure: Any, axis: Any, title: str, legend_size: int, path: Path) -> Path:
    """Label a success-rate chart (0 to 1, intervals over tasks), save it and close it."""
    axis.set_ylabel("success rate (95 % interval over tasks)")
    axis.set_ylim(0, 1)
    axis.set_title(title)
    axis.legend(fontsize=legend_size)
    figure.tight_layout()
    save_figure(figure, path)
    pyplot().close(figure)
    return path


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_") or "model"


def in_order(values: pd.Series, order: tuple[str, ...]) -> list[str]:
    """The values present, those of ``order`` first in its order, then the rest sorted."""
    present = set(values)
    return [v for v in order if v in present] + sorted(present - set(order))


def success_heatmaps(table: pd.DataFrame, out_dir: Path) -> list[Path]:
    """One heatmap of success rate by graph x condition per run, each cell with its interval.

    Args:
        table: A validated score table.
        out_dir: Where the PNG files go.

    Returns:
        The files written.
    """
    plt = pyplot()
    paths = []
    graphs = in_order(table["graph"], tuple(GRAPHS))
    conditions = in_order(table["condition"], CONDITIONS)
    for model, rows in table.groupby("run", sort=False):
        rates = failure_rates(rows, by=("graph", "condition"))
        grid = rates.pivot(index="graph", columns="condition", values="success")
        grid = grid.reindex(index=graphs, columns=conditions)
        bounds = {
            key: _interval(cell, cell["score"] / cell["max_score"])
            for key, cell in rows.groupby(["graph", "condition"], sort=False)
        }
        figure, axis = plt.subplots(figsize=(1.0 + 0.6 * len(conditions), 1.6 + 0.5 * len(graphs)))
        image = axis.imshow(
            grid.to_numpy(dtype=float), vmin=0, vmax=1, cmap="viridis", aspect="auto"
        )
        axis.set_xticks(range(len(conditions)), conditions, rotation=60, ha="right")
        axis.set_yticks(range(len(graphs)), graphs)
        for (row, column), value in np.ndenumerate(grid.to_numpy(dtype=float)):
            if not np.isnan(value):
                color = "black" if value > 0.5 else "white"
                bound = bounds[(graphs[row], conditions[column])]
                low, high = (number_text(end) for end in interval_bounds(bound))
                text = f"{value:.2f}\n[{low},{high}]"
                axis.text(column, row, text, ha="center", va="center", fontsize=5, color=color)
        axis.set_title(f"CogEval success rate: {model}")
        figure.colorbar(image, ax=axis, label="success rate")
        figure.tight_layout()
        path = out_dir / f"heatmap_{_slug(str(model))}.png"
        save_figure(figure, path)
        plt.close(figure)
        paths.append(path)
    return paths


def failure_mode_bars(table: pd.DataFrame, out_dir: Path) -> Path:
    """Stacked bars of failure-mode rates per run and graph."""
    plt = pyplot()
    rates = failure_rates(table, by=("run", "graph"))
    rates["graph"] = pd.Categorical(rates["graph"], in_order(rates["graph"], tuple(GRAPHS)))
    rates = rates.sort_values(["run", "graph"])
    labels = [f"{m}\n{g}" for m, g in zip(rates["run"], rates["graph"], strict=True)]
    figure, axis = plt.subplots(figsize=(2.0 + 0.7 * len(labels), 4.5))
    bottom = np.zeros(len(rates))
    for mode in FAILURE_MODES:
        values = rates[mode].to_numpy(dtype=float)
        axis.bar(range(len(rates)), values, bottom=bottom, label=mode)
        bottom += values
    axis.set_xticks(range(len(rates)), labels, rotation=60, ha="right", fontsize=7)
    axis.set_ylabel("share of replies")
    axis.set_ylim(0, 1)
    axis.set_title("CogEval failure modes")
    axis.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    figure.tight_layout()
    path = out_dir / "failure_modes.png"
    save_figure(figure, path)
    plt.close(figure)
    return path


def success_by_temperature(table: pd.DataFrame, out_dir: Path) -> Path:
    """Success against temperature, one line per run, with 95 % intervals over tasks."""
    plt = pyplot()
    figure, axis = plt.subplots(figsize=(5.5, 4))
    for model, rows in table.groupby("run", sort=False):
        temperatures, means, errors = [], [], []
        for temperature, cell in rows.groupby("temperature", sort=True):
            interval = _interval(cell, cell["score"] / cell["max_score"])
            temperatures.append(temperature)
            means.append(interval.value)
            errors.append(error_bar(interval.value, interval_bounds(interval)))
        axis.errorbar(
            temperatures,
            means,
            yerr=np.array(errors).T,
            marker="o",
            capsize=3,
            label=str(model),
        )
    axis.set_xlabel("temperature")
    return _finish_success_chart(
        figure, axis, "CogEval success by temperature", 8, out_dir / "success_by_temperature.png"
    )


def write_report(
    table: pd.DataFrame, out_dir: Path, reference_model: str | None = None
) -> tuple[list[dict[str, Any]], list[Path]]:
    """Summarise a validated score table and write every figure into ``out_dir``.

    Args:
        table: A validated score table.
        out_dir: Where the PNG files go.
        reference_model: The chance model's name (see :func:`run_summary`).

    Returns:
        The run summary and the files written.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    table = with_runs(table)
    summary = run_summary(table, reference_model)
    return summary, [
        success_by_run(summary, out_dir),
        *success_heatmaps(table, out_dir),
        failure_mode_bars(table, out_dir),
        success_by_temperature(table, out_dir),
    ]
