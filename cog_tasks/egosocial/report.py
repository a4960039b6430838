"""EgoSocialArena report: tables, JSON and figures with 95 % intervals over each task's unit."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from cog_tasks.common.files import pyplot, write_json_atomically, write_text_atomically
from cog_tasks.common.report import interval_bars, save_closed
from cog_tasks.common.results import Coverage
from cog_tasks.common.stats import Interval, UnitValue, mean_interval, ratio_interval

SHARE = (0.0, 1.0)
"""The range of every number the report shows (accuracies and rates)."""
FAILED_OVER = 0.5
"""A row whose failed-reply share is over this is flagged, and drawn hollow."""


@dataclass(frozen=True)
class Cell:
    """One reported number: a row's value (per unit, or its fraction) in one table column."""

    table: str
    row: str
    column: str
    values: Mapping[str, UnitValue]
    unit: str
    reference: bool = False
    coverage: Coverage | None = None
    measure: str = ""
    bounds: tuple[float, float] = SHARE

    def counted(self) -> dict[str, UnitValue]:
        """The units the number counts: a ratio's units without a denominator add nothing."""
        return {
            unit: value
            for unit, value in self.values.items()
            if not isinstance(value, tuple) or value[1] > 0
        }

    def interval(self) -> Interval:
        """The number with its 95 % interval over the units, within :attr:`bounds`."""
        values = list(self.counted().values())
        if all(not isinstance(value, tuple) for value in values):
            shares = [float(v) for v in values]  # type: ignore[arg-type]
            return mean_interval(shares, unit=self.unit, bounds=self.bounds)
        return ratio_interval(values, unit=self.unit, bounds=self.bounds)

    def failed(self) -> float | None:
        """The row's failed-reply share when it is over :data:`FAILED_OVER`, else ``None``."""
        share = self.coverage.flagged_share() if self.coverage is not None else None
        return share if share is not None and share > FAILED_OVER else None

    def flagged(self) -> str:
        """The row's coverage note (``"–"`` for none); over half failed is said first."""
        note = self.coverage.note(self.unit) if self.coverage is not None else ""
        failed = self.failed()
        if failed is not None:
            note = f"FAILED REPLIES {failed:.0%} (over half): read as format failure; {note}"
        return note.rstrip("; ") or "–"


@dataclass(frozen=True)
class GuessCurve:
    """One played Number Guessing game: the opponent's numbers and the model's predictions."""

    model: str
    level: int
    epoch: int
    opponent: tuple[float, ...]
    predictions: tuple[float | None, ...]


@dataclass
class Report:
    """Everything a report shows: cells in display order, games and notes."""

    cells: list[Cell] = field(default_factory=list)
    curves: list[GuessCurve] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _ordered(items: Sequence[str]) -> list[str]:
    return list(dict.fromkeys(items))


def plot_guess_curves(curves: list[GuessCurve], path: Path) -> Path:
    """One panel per level: the opponent's numbers (solid) and the predictions (dashed)."""
    levels = sorted({curve.level for curve in curves})
    figure, axes = pyplot().subplots(1, len(levels), figsize=(5 * len(levels), 4), squeeze=False)
    models = _ordered([curve.model for curve in curves])
    colours = {model: f"C{index}" for index, model in enumerate(models)}
    for axis, level in zip(axes[0], levels, strict=True):
        games = [curve for curve in curves if curve.level == level]
        shared_gold = len({game.opponent for game in games}) == 1
        if shared_gold:
            gold = games[0].opponent
            axis.plot(range(1, len(gold) + 1), gold, "k-o", linewidth=2, label="opponent")
        labelled: set[str] = set()
        for game in games:
            colour = colours[game.model]
            first = game.model not in labelled
            labelled.add(game.model)
            if not shared_gold:
                label = f"opponent vs {game.model}" if first else None
                rounds = range(1, len(game.opponent) + 1)
                axis.plot(rounds, game.opponent, "-o", color=colour, linewidth=2, label=label)
            turns = [r for r, p in enumerate(game.predictions, start=1) if p is not None]
            guesses = [p for p in game.predictions if p is not None]
            label = f"{game.model} prediction" if first else None
            axis.plot(turns, guesses, "--x", color=colour, alpha=0.8, label=label)
        axis.set(title=f"Number Guessing, level {level}", xlabel="round", ylabel="number")
        axis.set_ylim(0, 101)
        axis.legend(fontsize=7)
    return save_closed(figure, path, layout=False)


def plot_tables(cells: list[Cell], path: Path) -> Path:
    """One panel per table: horizontal bars per column, one per row, with 95 % error bars."""
    tables = _ordered([cell.table for cell in cells])
    heights = [
        len(_ordered([c.column for c in cells if c.table == t]))
        * len(_ordered([c.row for c in cells if c.table == t]))
        for t in tables
    ]
    ratios = [max(h, 2) for h in heights]
    figure, axes = pyplot().subplots(
        len(tables), 1, figsize=(9, 1.5 + 0.22 * sum(heights)), squeeze=False, height_ratios=ratios
    )
    for axis, table in zip(axes[:, 0], tables, strict=True):
        shown = [cell for cell in cells if cell.table == table]
        columns = _ordered([cell.column for cell in shown])
        rows = _ordered([cell.row for cell in shown])
        height = 0.8 / len(rows)
        for index, row in enumerate(rows):
            found = {cell.column: cell.interval() for cell in shown if cell.row == row}
            positions = [c + index * height for c in range(len(columns)) if columns[c] in found]
            intervals = [found[column] for column in columns if column in found]
            values = [interval.value for interval in intervals]
            errors = interval_bars(intervals)
            failed = next((c.failed() for c in shown if c.row == row), None)
            label = row if failed is None else f"{row} (failed replies {failed:.0%}, hollow)"
            bars = axis.barh(positions, values, height=height, xerr=errors, capsize=2, label=label)
            if failed is not None and bars.patches:  # over half the replies failed: hollow
                colour = bars.patches[0].get_facecolor()
                for bar in bars:
                    bar.set_fill(False)
                    bar.set_edgecolor(colour)
        axis.set_yticks([c + 0.4 - height / 2 for c in range(len(columns))])
        axis.set_yticklabels(columns, fontsize=7)
        axis.invert_yaxis()
        axis.set_title(f"{table} (95 % intervals)", fontsize=9)
        axis.legend(fontsize=6, loc="lower right")
    return save_closed(figure, path, layout=False)


def summary_markdown(report: Report) -> str:
    """One markdown table per table: rows are runs and references, cells carry intervals."""
    lines: list[str] = []
    for table in _ordered([cell.table for cell in report.cells]):
        shown = [cell for cell in report.cells if cell.table == table]
        columns = _ordered([cell.column for cell in shown])
        lookup = {(cell.row, cell.column): cell for cell in shown}
        units = _ordered([cell.unit for cell in shown])
        lines += [f"### {table} (95 % intervals; unit: {', '.join(units)})", ""]
        lines.append("| row | " + " | ".join(columns) + " | missing or flagged |")
        lines.append("|---" * (len(columns) + 2) + "|")
        for row in _ordered([cell.row for cell in shown]):
            texts = []
            for column in columns:
                cell = lookup.get((row, column))
                if cell is None:
                    texts.append("–")
                    continue
                interval = cell.interval()
                texts.append(f"{interval.format()} n={interval.n}")
            flagged = next(lookup[(row, c)].flagged() for c in columns if (row, c) in lookup)
            lines.append(f"| {row} | " + " | ".join(texts) + f" | {flagged} |")
        lines.append("")
    lines += report.notes
    return "\n".join(lines).rstrip() + "\n"


def write_report(report: Report, out_dir: Path) -> list[Path]:
    """Write ``summary.md``, ``summary.json`` and the figures to ``out_dir``; return the files."""
    out_dir.mkdir(parents=True, exist_ok=True)
    curves = out_dir / "number_guessing_curves.png"
    written = [plot_guess_curves(report.curves, curves)] if report.curves else []
    written.append(plot_tables(report.cells, out_dir / "accuracy_by_table.png"))
    summary = {
        "cells": [
            {
                "table": cell.table,
                "row": cell.row,
                "column": cell.column,
                "reference": cell.reference,
                "measure": cell.measure or None,
                **cell.interval().as_dict(),
                "ci": cell.interval().as_list(),
                "coverage": None if cell.coverage is None else cell.coverage.as_dict(),
                "flagged": cell.flagged(),
            }
            for cell in report.cells
        ],
        "number_guessing_games": [asdict(curve) for curve in report.curves],
        "notes": report.notes,
    }
    write_json_atomically(out_dir / "summary.json", summary)
    write_text_atomically(out_dir / "summary.md", summary_markdown(report))
    return [*written, out_dir / "summary.json", out_dir / "summary.md"]
