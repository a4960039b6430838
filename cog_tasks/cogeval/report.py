"""The CogEval report: one row per run with 95 % intervals over tasks, and its figures."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from cog_tasks.cogeval.graphs import CONDITIONS, GRAPHS
from cog_tasks.cogeval.headlines import SUCCESS, CogEvalRun
from cog_tasks.cogeval.scoring import FAILURE_MODES
from cog_tasks.common.files import pyplot
from cog_tasks.common.report import (
    error_bars,
    interval_bars,
    logged_interval,
    row_notes,
    save_closed,
)
from cog_tasks.common.report import flag_counts as common_flag_counts

#: The flagged counts every row shows beside its numbers, in this order.
SHOWN_FLAGS: tuple[str, ...] = ("invalid", "error", "truncated")


def rate_text(value: float, bounds: list[float | None], n: int, unit: str = "task") -> str:
    """``0.123 [0.100, 0.150]``, or ``0.123 [no interval: 4 tasks]``."""
    return logged_interval(value, bounds, n, unit).format()


def flag_counts(counts: dict[str, int]) -> str:
    """``invalid/error/truncated`` counts as ``3/0/1``."""
    return "/".join(common_flag_counts(counts, SHOWN_FLAGS, "{n}"))


def _reference(run: CogEvalRun, chance: Sequence[CogEvalRun]) -> dict[str, Any] | None:
    """The chance run covering most of ``run``'s tasks, scored on those tasks alone."""
    tasks = set(run.tasks)
    covered = [(len(tasks & set(other.tasks)), index) for index, other in enumerate(chance)]
    if not covered or max(covered)[0] == 0:
        return None
    count, index = max(covered, key=lambda pair: (pair[0], -pair[1]))
    interval = chance[index].rate(SUCCESS, tasks)
    return {
        "run": chance[index].label,
        "tasks": count,
        "of_tasks": len(tasks),
        "success": interval.value,
        "success_ci": interval.as_list(),
    }


def run_summary(
    runs: Sequence[CogEvalRun], reference_model: str | None = None
) -> list[dict[str, Any]]:
    """One row per run: rates with 95 % intervals over tasks, and chance on the row's own tasks."""
    chance = [run for run in runs if run.identity.model == reference_model]
    summary = []
    for run in runs:
        success = run.rate(SUCCESS)
        row: dict[str, Any] = {
            "run": run.label,
            "model": run.identity.model,
            "cot": ",".join(sorted({run.declared.tasks[task].cot for task in run.tasks})),
            "tasks": len(run.tasks),
            "dialogs": len(run.checked.run.records),
            "success": success.value,
            "success_ci": success.as_list(),
        }
        for mode in FAILURE_MODES:
            rate = run.rate(mode)
            row[mode] = rate.value
            row[f"{mode}_ci"] = rate.as_list()
        row["coverage"] = run.coverage.as_dict()
        row["note"] = run.note()
        is_reference = reference_model is None or run.identity.model == reference_model
        row["chance"] = None if is_reference else _reference(run, chance)
        summary.append(row)
    return summary


def format_summary(summary: list[dict[str, Any]]) -> str:
    """The run summary as text: one line per run, intervals in brackets, notes below."""
    lines = [
        "run | tasks | dialogs | invalid/error/truncated | success [95% CI over tasks] | "
        "chance on the same tasks | " + " | ".join(FAILURE_MODES)
    ]
    for row in summary:
        chance = row["chance"]
        chance_text = (
            "-"
            if chance is None
            else f"{rate_text(chance['success'], chance['success_ci'], chance['tasks'])} "
            f"({chance['tasks']}/{chance['of_tasks']} tasks)"
        )
        rates = " | ".join(f"{row[mode]:.3f}" for mode in FAILURE_MODES)
        success = rate_text(row["success"], row["success_ci"], row["tasks"])
        lines.append(
            f"{row['run']} | {row['tasks']} | {row['dialogs']} | {flag_counts(row['coverage'])} | "
            f"{success} | {chance_text} | {rates}"
        )
    return "\n".join(lines + row_notes((row["run"], row["note"]) for row in summary))


def success_by_run(summary: list[dict[str, Any]], out_dir: Path) -> Path:
    """Bars of success per run with 95 % intervals, chance on the same tasks as a tick."""
    figure, axis = pyplot().subplots(figsize=(2.5 + 1.0 * len(summary), 4.0))
    positions = np.arange(len(summary))
    values = np.array([row["success"] for row in summary])
    errors = error_bars((row["success"], row["success_ci"]) for row in summary)
    axis.bar(positions, values, yerr=errors, capsize=4, color="tab:blue", label="success")
    for position, row in zip(positions, summary, strict=True):
        if (chance := row["chance"]) is not None:
            axis.errorbar(
                position + 0.3,
                chance["success"],
                yerr=error_bars([(chance["success"], chance["success_ci"])]),
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
    return save_closed(figure, path)


def in_order(values: Sequence[str], order: tuple[str, ...]) -> list[str]:
    """The values present, those of ``order`` first in its order, then the rest sorted."""
    present = set(values)
    return [v for v in order if v in present] + sorted(present - set(order))


def _tasks_by(run: CogEvalRun, *fields: str) -> dict[tuple[str, ...], list[str]]:
    """The run's tasks grouped by the named facts (``graph``, ``condition``...)."""
    groups: dict[tuple[str, ...], list[str]] = {}
    for task in run.tasks:
        facts = run.declared.tasks[task]
        groups.setdefault(tuple(getattr(facts, name) for name in fields), []).append(task)
    return groups


def success_heatmaps(runs: Sequence[CogEvalRun], out_dir: Path) -> list[Path]:
    """One heatmap of success rate by graph x condition per run, each cell with its interval."""
    paths = []
    for run in runs:
        cells = {
            key: run.rate(SUCCESS, tasks)
            for key, tasks in _tasks_by(run, "graph", "condition").items()
        }
        graphs = in_order([graph for graph, _ in cells], tuple(GRAPHS))
        conditions = in_order([condition for _, condition in cells], CONDITIONS)
        grid = np.full((len(graphs), len(conditions)), np.nan)
        for (graph, condition), interval in cells.items():
            grid[graphs.index(graph), conditions.index(condition)] = interval.value
        size = (1.0 + 0.6 * len(conditions), 1.6 + 0.5 * len(graphs))
        figure, axis = pyplot().subplots(figsize=size)
        image = axis.imshow(grid, vmin=0, vmax=1, cmap="viridis", aspect="auto")
        axis.set_xticks(range(len(conditions)), conditions, rotation=60, ha="right")
        axis.set_yticks(range(len(graphs)), graphs)
        for (row, column), value in np.ndenumerate(grid):
            if not np.isnan(value):
                color = "black" if value > 0.5 else "white"
                bound = cells[(graphs[row], conditions[column])]
                low, high = ("n/a" if end is None else f"{end:.3f}" for end in bound.as_list())
                text = f"{value:.2f}\n[{low},{high}]"
                axis.text(column, row, text, ha="center", va="center", fontsize=5, color=color)
        axis.set_title(f"CogEval success rate: {run.label}")
        figure.colorbar(image, ax=axis, label="success rate")
        slug = re.sub(r"[^A-Za-z0-9._-]+", "_", run.label).strip("_") or "model"
        paths.append(save_closed(figure, out_dir / f"heatmap_{slug}.png"))
    return paths


def failure_mode_bars(runs: Sequence[CogEvalRun], out_dir: Path) -> Path:
    """Stacked bars of failure-mode rates per run and graph."""
    labels, rates = [], []
    for run in runs:
        groups = _tasks_by(run, "graph")
        for graph in in_order([graph for (graph,) in groups], tuple(GRAPHS)):
            labels.append(f"{run.label}\n{graph}")
            rates.append([run.rate(mode, groups[(graph,)]).value for mode in FAILURE_MODES])
    figure, axis = pyplot().subplots(figsize=(2.0 + 0.7 * len(labels), 4.5))
    bottom = np.zeros(len(labels))
    for index, mode in enumerate(FAILURE_MODES):
        values = np.array([row[index] for row in rates], dtype=float)
        axis.bar(range(len(labels)), values, bottom=bottom, label=mode)
        bottom += values
    axis.set_xticks(range(len(labels)), labels, rotation=60, ha="right", fontsize=7)
    axis.set_ylabel("share of replies")
    axis.set_ylim(0, 1)
    axis.set_title("CogEval failure modes")
    axis.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return save_closed(figure, out_dir / "failure_modes.png")


def success_by_temperature(runs: Sequence[CogEvalRun], out_dir: Path) -> Path:
    """Success against temperature, one line per run, with 95 % intervals over tasks."""
    figure, axis = pyplot().subplots(figsize=(5.5, 4))
    for run in runs:
        temperatures = sorted(set(run.declared.temperatures.values()))
        intervals = [run.rate(SUCCESS, temperature=t) for t in temperatures]
        shown = [(t, i) for t, i in zip(temperatures, intervals, strict=True) if i.n]
        axis.errorbar(
            [t for t, _ in shown],
            [i.value for _, i in shown],
            yerr=interval_bars(i for _, i in shown),
            marker="o",
            capsize=3,
            label=run.label,
        )
    axis.set_xlabel("temperature")
    return _finish_success_chart(
        figure, axis, "CogEval success by temperature", 8, out_dir / "success_by_temperature.png"
    )


def write_report(
    runs: Sequence[CogEvalRun], out_dir: Path, reference_model: str | None = None
) -> tuple[list[dict[str, Any]], list[Path]]:
    """Summarise checked runs and write every figure into ``out_dir``; the summary and the files."""
    out_dir.mkdir(parents=True, exist_ok=True)
    summary = run_summary(runs, reference_model)
    return summary, [
        success_by_run(summary, out_dir),
        *success_heatmaps(runs, out_dir),
        failure_mode_bars(runs, out_dir),
        success_by_temperature(runs, out_dir),
    ]
