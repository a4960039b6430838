"""CogLM chat-protocol studies: ability interdependence (Fig. 3) and protocol agreement."""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from statistics import fmean
from typing import Any

from cog_tasks.coglm.abilities import ABILITIES, ABILITY_BY_CODE
from cog_tasks.coglm.metrics import calibrated_interval, calibrated_unit
from cog_tasks.coglm.records import CogLMDataError
from cog_tasks.coglm.report import difference_text
from cog_tasks.common.files import (
    iter_jsonl,
    pyplot,
    read_json,
    write_json_atomically,
    write_text_atomically,
)
from cog_tasks.common.report import save_closed
from cog_tasks.common.results import compare_units
from cog_tasks.common.stats import Interval, UnitValue

BASELINE = "none"
OUTCOMES_FILE = "outcomes.jsonl"
SETTINGS_FILE = "study.json"
CSV_FILE = "interdependence.csv"
PNG_FILE = "interdependence.png"


@dataclass(frozen=True)
class ItemOutcome:
    """One item under one condition (``erased``: ability or ``"none"``), as shares of epochs."""

    erased: str
    sample_id: str
    ability: str
    num_choices: int
    correct: float
    invalid: float


@dataclass(frozen=True)
class Cell:
    """One matrix cell; ``ci_*``: its bootstrap interval (NaN: none, under 10 items)."""

    erased: str
    ability: str
    n: int
    acc: float
    calibrated_acc: float
    ci_low: float
    ci_high: float
    invalid: float
    # Calibrated accuracy minus the ability's baseline cell, paired on shared items.
    difference: float = math.nan
    difference_low: float = math.nan
    difference_high: float = math.nan
    difference_method: str = ""
    difference_n: int = 0

    def paired(self) -> Interval | None:
        """The paired difference from the baseline as an interval, or ``None`` if not paired."""
        if not self.difference_method:
            return None
        return Interval(
            self.difference,
            self.difference_low,
            self.difference_high,
            self.difference_n,
            "item",
            self.difference_method,
        )


def matrix_cells(
    outcomes: Sequence[ItemOutcome], *, resamples: int = 1000, seed: int = 0
) -> list[Cell]:
    """Matrix cells (rows: baseline, then erased), each erased one paired with its baseline."""
    grouped: dict[tuple[str, str], list[ItemOutcome]] = {}
    for outcome in outcomes:
        grouped.setdefault((outcome.erased, outcome.ability), []).append(outcome)
    cells = []
    for erased in [BASELINE, *ABILITY_BY_CODE]:
        for ability in ABILITY_BY_CODE:
            items = grouped.get((erased, ability))
            if not items:
                continue
            correct = [item.correct for item in items]
            counts = [item.num_choices for item in items]
            interval = calibrated_interval(correct, counts, resamples=resamples, seed=seed)
            value, low, high = interval.value, interval.low, interval.high
            invalid = fmean(item.invalid for item in items)
            cell = Cell(erased, ability, len(items), fmean(correct), value, low, high, invalid)
            baseline = grouped.get((BASELINE, ability))
            if erased != BASELINE and baseline:
                cell = _with_difference(cell, items, baseline, seed)
            cells.append(cell)
    return cells


def _units(items: Sequence[ItemOutcome]) -> dict[str, UnitValue]:
    return {item.sample_id: calibrated_unit(item.correct, item.num_choices) for item in items}


def _with_difference(
    cell: Cell, items: Sequence[ItemOutcome], baseline: Sequence[ItemOutcome], seed: int
) -> Cell:
    """The cell with its paired difference from the baseline's items (unchanged if none shared)."""
    difference = compare_units(
        _units(items), _units(baseline), unit="item", seed=seed, scale="calibrated"
    ).difference
    if difference is None:
        return cell
    return replace(
        cell,
        difference=difference.value,
        difference_low=difference.low,
        difference_high=difference.high,
        difference_method=difference.method,
        difference_n=difference.n,
    )


def difference_lines(cells: Sequence[Cell]) -> list[str]:
    """Each erased cell minus its ability's baseline, one line each, for the terminal."""
    erased = [cell for cell in cells if cell.erased != BASELINE]
    if not erased:
        return []
    lines = ["erased minus (none), calibrated accuracy (points; paired over shared items):"]
    for cell in erased:
        paired = cell.paired()
        where = f"  erase {cell.erased}, {cell.ability}: "
        if paired is None:
            lines.append(where + "not paired (no baseline cell with shared items)")
            continue
        lines.append(where + difference_text(paired))
    return lines


def write_cells_csv(cells: Sequence[Cell], path: Path) -> Path:
    """Write the cells as CSV (one line per cell), replacing the file atomically."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=list(Cell.__dataclass_fields__))
    writer.writeheader()
    for cell in cells:
        writer.writerow(
            {
                key: ("" if math.isnan(value) else f"{value:.4f}")
                if isinstance(value, float)
                else value
                for key, value in asdict(cell).items()
            }
        )
    write_text_atomically(path, buffer.getvalue())
    return path


def plot_heatmap(cells: Sequence[Cell], path: Path, title: str) -> Path:
    """Draw the Fig. 3-style heatmap: erased ability (rows) by tested ability (columns)."""
    import numpy as np

    plt = pyplot()
    rows = [r for r in [BASELINE, *ABILITY_BY_CODE] if any(c.erased == r for c in cells)]
    columns = [a.code for a in ABILITIES if any(c.ability == a.code for c in cells)]
    grid = np.full((len(rows), len(columns)), np.nan)
    marked: set[tuple[int, int]] = set()
    for cell in cells:
        place = (rows.index(cell.erased), columns.index(cell.ability))
        grid[place] = 100 * cell.calibrated_acc
        paired = cell.paired()
        if paired is not None and paired.significant(0.0):
            marked.add(place)
    width = max(6.0, 1.0 + 0.75 * len(columns))
    figure, axis = plt.subplots(figsize=(width, 1.6 + 0.55 * len(rows)))
    image = axis.imshow(grid, cmap="RdBu", vmin=-100, vmax=100, aspect="auto")
    for (row, column), value in np.ndenumerate(grid):
        if not np.isnan(value):
            shade = "white" if abs(value) > 60 else "black"
            mark = "*" if (row, column) in marked else ""
            axis.text(column, row, f"{value:.0f}{mark}", ha="center", va="center", color=shade)
    axis.set_xticks(range(len(columns)), columns)
    axis.set_yticks(range(len(rows)), ["(none)" if r == BASELINE else r for r in rows])
    axis.set_xlabel("tested ability")
    axis.set_ylabel("erased ability")
    axis.set_title(title, fontsize=10)
    figure.colorbar(image, ax=axis, label="calibrated accuracy (%)")
    return save_closed(figure, path, dpi=110)


def read_outcomes(path: Path) -> list[ItemOutcome]:
    """The outcomes stored so far in a study folder's ``outcomes.jsonl`` (none if absent)."""
    if not path.is_file():
        return []
    outcomes = []
    for number, row in iter_jsonl(path):
        try:
            outcomes.append(ItemOutcome(**row))
        except TypeError as error:
            raise CogLMDataError(f"{path}:{number}: not an item outcome ({error})") from error
    return outcomes


def check_settings(path: Path, settings: dict[str, Any]) -> None:
    """Store a study's settings, or check them against those stored (a resumed run)."""
    if path.is_file():
        stored = read_json(path)
        if stored != settings:
            raise CogLMDataError(
                f"{path}: this folder holds a study with other settings ({stored}); "
                "use another output folder"
            )
    else:
        write_json_atomically(path, settings)


# --- agreement between protocols -------------------------------------------------------


def agreement_by_ability(
    first: Mapping[str, int | None], second: Mapping[str, int | None]
) -> dict[str, dict[str, float]]:
    """Per ability (and ``"all"``), the share of shared items picked alike (``None``: never)."""
    shared = sorted(set(first) & set(second))
    if not shared:
        raise CogLMDataError("the two runs have no item in common")
    same: dict[str, list[bool]] = {}
    for sample_id in shared:
        ability = sample_id.rsplit("-", 1)[0]
        agree = first[sample_id] is not None and first[sample_id] == second[sample_id]
        same.setdefault(ability, []).append(agree)
    table = {
        code: {"n": len(same[code]), "agreement": fmean(same[code])}
        for code in ABILITY_BY_CODE
        if code in same
    }
    every = [value for values in same.values() for value in values]
    table["all"] = {"n": len(every), "agreement": fmean(every)}
    return table
