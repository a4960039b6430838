"""Figures of a CogEval run: success heatmaps, failure-mode bars, success by temperature."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd

from cog_tasks.cogeval.graphs import CONDITIONS, GRAPHS
from cog_tasks.cogeval.metrics import failure_rates
from cog_tasks.cogeval.scoring import FAILURE_MODES
from cog_tasks.common.files import pyplot, save_figure


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_") or "model"


def _ordered(values: pd.Series, order: tuple[str, ...]) -> list[str]:
    present = set(values)
    return [v for v in order if v in present] + sorted(present - set(order))


def success_heatmaps(table: pd.DataFrame, out_dir: Path) -> list[Path]:
    """One heatmap of success rate by graph x condition per model.

    Args:
        table: A validated score table.
        out_dir: Where the PNG files go.

    Returns:
        The files written.
    """
    plt = pyplot()
    paths = []
    graphs = _ordered(table["graph"], tuple(GRAPHS))
    conditions = _ordered(table["condition"], CONDITIONS)
    for model, rows in table.groupby("model", sort=True):
        rates = failure_rates(rows, by=("graph", "condition"))
        grid = rates.pivot(index="graph", columns="condition", values="success")
        grid = grid.reindex(index=graphs, columns=conditions)
        figure, axis = plt.subplots(figsize=(1.0 + 0.6 * len(conditions), 1.6 + 0.5 * len(graphs)))
        image = axis.imshow(
            grid.to_numpy(dtype=float), vmin=0, vmax=1, cmap="viridis", aspect="auto"
        )
        axis.set_xticks(range(len(conditions)), conditions, rotation=60, ha="right")
        axis.set_yticks(range(len(graphs)), graphs)
        for (row, column), value in np.ndenumerate(grid.to_numpy(dtype=float)):
            if not np.isnan(value):
                color = "black" if value > 0.5 else "white"
                axis.text(
                    column, row, f"{value:.2f}", ha="center", va="center", fontsize=7, color=color
                )
        axis.set_title(f"CogEval success rate: {model}")
        figure.colorbar(image, ax=axis, label="success rate")
        figure.tight_layout()
        path = out_dir / f"heatmap_{_slug(str(model))}.png"
        save_figure(figure, path)
        plt.close(figure)
        paths.append(path)
    return paths


def failure_mode_bars(table: pd.DataFrame, out_dir: Path) -> Path:
    """Stacked bars of failure-mode rates per model and graph."""
    plt = pyplot()
    rates = failure_rates(table, by=("model", "graph"))
    rates["graph"] = pd.Categorical(rates["graph"], _ordered(rates["graph"], tuple(GRAPHS)))
    rates = rates.sort_values(["model", "graph"])
    labels = [f"{m}\n{g}" for m, g in zip(rates["model"], rates["graph"], strict=True)]
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
    """Mean success (with standard error) against temperature, one line per model."""
    plt = pyplot()
    figure, axis = plt.subplots(figsize=(5.5, 4))
    for model, rows in table.groupby("model", sort=True):
        success = rows["score"] / rows["max_score"]
        grouped = success.groupby(rows["temperature"])
        means, errors = grouped.mean(), grouped.sem().fillna(0.0)
        axis.errorbar(
            means.index,
            means.to_numpy(),
            yerr=errors.to_numpy(),
            marker="o",
            capsize=3,
            label=str(model),
        )
    axis.set_xlabel("temperature")
    axis.set_ylabel("success rate")
    axis.set_ylim(0, 1)
    axis.set_title("CogEval success by temperature")
    axis.legend(fontsize=8)
    figure.tight_layout()
    path = out_dir / "success_by_temperature.png"
    save_figure(figure, path)
    plt.close(figure)
    return path


def write_report(table: pd.DataFrame, out_dir: Path) -> list[Path]:
    """Write every figure for a validated score table into ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    return [
        *success_heatmaps(table, out_dir),
        failure_mode_bars(table, out_dir),
        success_by_temperature(table, out_dir),
    ]
