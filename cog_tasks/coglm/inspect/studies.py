"""Run the CogLM chat-protocol studies through Inspect and read their logs."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from statistics import fmean
from typing import Any

from inspect_ai import eval as inspect_eval

from cog_tasks.coglm.abilities import resolve_codes
from cog_tasks.coglm.extract import LETTERS
from cog_tasks.coglm.headlines import checked_items
from cog_tasks.coglm.inspect.coglm import coglm_chat
from cog_tasks.coglm.inspect.logs import read_chat_log
from cog_tasks.coglm.inspect.report import log_results
from cog_tasks.coglm.inspect.scorer import SCORER
from cog_tasks.coglm.studies import (
    BASELINE,
    CSV_FILE,
    OUTCOMES_FILE,
    PNG_FILE,
    SETTINGS_FILE,
    Cell,
    ItemOutcome,
    check_settings,
    matrix_cells,
    plot_heatmap,
    read_outcomes,
    write_cells_csv,
)
from cog_tasks.common.errors import RunFailedError
from cog_tasks.common.files import own_folder, write_jsonl_atomically
from cog_tasks.common.results import check_run
from cog_tasks.common.secrets import redact


def outcomes_from_log(log: Any, erased: str) -> list[ItemOutcome]:
    """Per-item outcomes of a ``coglm_chat`` log under the condition ``erased``."""
    return [
        ItemOutcome(erased, item.id, item.ability, item.num_choices, item.correct, 1.0 - item.valid)
        for item in checked_items(check_run(log_results(log)))
    ]


@dataclass(frozen=True)
class InterdependenceResult:
    """What an interdependence run produced (``conditions_run``: evaluated now, not resumed)."""

    cells: list[Cell]
    csv_path: Path
    png_path: Path
    conditions_run: list[str]


def run_interdependence(
    model: Any,
    output_dir: Path,
    *,
    abilities: str | Sequence[str] | None = None,
    erased: str | Sequence[str] | None = None,
    per_ability: int | None = None,
    model_args: Mapping[str, Any] | None = None,
    resamples: int = 1000,
    seed: int = 0,
    progress: Callable[[str], None] | None = None,
    **eval_options: Any,
) -> InterdependenceResult:
    """Run the erasure x ability study and write the CSV and the heatmap.

    ``output_dir`` holds logs, outcomes, CSV and PNG (a rerun resumes); ``erased`` defaults to the
    tested abilities; ``progress`` gets a line per condition start and end.
    """
    tested = [a.code for a in resolve_codes(abilities)]
    rows = [a.code for a in resolve_codes(erased)] if erased is not None else tested
    output_dir.mkdir(parents=True, exist_ok=True)
    settings = {
        "model": model if isinstance(model, str) else str(model),
        "abilities": tested,
        "per_ability": per_ability,
        "model_args": {key: str(value) for key, value in redact(model_args or {}).items()},
        "eval_options": {key: str(value) for key, value in eval_options.items()},
    }
    check_settings(output_dir / SETTINGS_FILE, settings)
    own_folder(output_dir)  # the study's folder, claimed by its settings: a rerun resumes it
    outcomes_path = output_dir / OUTCOMES_FILE
    outcomes = read_outcomes(outcomes_path)
    done = {outcome.erased for outcome in outcomes}
    conditions_run = []
    conditions = [BASELINE, *rows]
    report = progress or (lambda _line: None)
    for number, condition in enumerate(conditions, start=1):
        label = f"[{number}/{len(conditions)}] erase {condition}"
        if condition in done:
            report(f"{label}: resumed from {outcomes_path}")
            continue
        report(f"{label}: running")
        started = time.monotonic()
        task = coglm_chat(
            abilities=tested,
            per_ability=per_ability,
            erase=None if condition == BASELINE else condition,
        )
        (log,) = inspect_eval(
            task,
            model=model,
            model_args=dict(model_args or {}),
            log_dir=str(output_dir / "logs"),
            display="none",
            **eval_options,
        )
        if log.status != "success":
            raise RunFailedError.of(f"condition {condition!r}", log)
        condition_outcomes = outcomes_from_log(log, condition)
        outcomes.extend(condition_outcomes)
        write_jsonl_atomically(outcomes_path, [asdict(outcome) for outcome in outcomes])
        conditions_run.append(condition)
        mean_acc = fmean(outcome.correct for outcome in condition_outcomes)
        report(
            f"{label}: done in {time.monotonic() - started:.0f} s, "
            f"{len(condition_outcomes)} items, acc {mean_acc:.3f}"
        )
    cells = matrix_cells(outcomes, resamples=resamples, seed=seed)
    csv_path = write_cells_csv(cells, output_dir / CSV_FILE)
    title = f"CogLM ability interdependence\n{settings['model']}"
    if per_ability is not None:
        title += f", first {per_ability} items per ability"
    title += "; *: paired difference from (none) excludes 0"
    png_path = plot_heatmap(cells, output_dir / PNG_FILE, title)
    return InterdependenceResult(cells, csv_path, png_path, conditions_run)


def inspect_picks(log_path: str | os.PathLike[str]) -> dict[str, int | None]:
    """The option each sample of a successful ``coglm_chat`` log chose (epoch 1; None: invalid)."""
    picks: dict[str, int | None] = {}
    for sample in read_chat_log(log_path).samples or []:
        if sample.epoch == 1 and sample.scores and SCORER in sample.scores:
            answer = sample.scores[SCORER].answer
            picks[str(sample.id)] = LETTERS.index(answer) if answer else None
    return picks
