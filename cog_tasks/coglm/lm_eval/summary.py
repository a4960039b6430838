"""The short CogLM summary ``cog-tasks lm-eval`` prints after lm-eval's own tables."""

from __future__ import annotations

import shlex
import time
from collections.abc import Sequence
from pathlib import Path

from cog_tasks.coglm.lm_eval.results import load_lm_eval_runs
from cog_tasks.coglm.records import CogLMDataError
from cog_tasks.coglm.report import CogLMRun, checked_run, stage_intervals, summary_age_text
from cog_tasks.common.lm_eval_samples import find_results_files

TASK_PREFIXES = ("coglm",)


def _option(arguments: Sequence[str], *names: str) -> str | None:
    """The value of the last ``--name value`` or ``--name=value`` among ``arguments``."""
    found = None
    for index, argument in enumerate(arguments):
        for name in names:
            if argument == name and index + 1 < len(arguments):
                found = arguments[index + 1]
            elif argument.startswith(f"{name}="):
                found = argument.split("=", 1)[1]
    return found


def names_coglm(arguments: Sequence[str]) -> bool:
    """Whether lm-eval's ``--tasks`` name a CogLM task or group."""
    tasks = _option(arguments, "--tasks", "-t") or ""
    return any(task.strip().startswith(TASK_PREFIXES) for task in tasks.split(","))


def format_summary(run: CogLMRun) -> list[str]:
    """The summary lines of one run (percent; the age in years)."""
    summary = run.summary
    lines = [f"CogLM {run.label}: {run.protocol}"]
    *stages, (_, overall, overall_ci) = stage_intervals(summary)

    def ci(text: str) -> str:
        return f" {text}" if text else ""

    shown = "  ".join(f"stage {stage} {100 * value:.1f}{ci(text)}" for stage, value, text in stages)
    lines.append(f"  {shown}")
    lines.append(
        f"  overall {100 * overall:.1f}{ci(overall_ci)}"
        "  (calibrated accuracy %, mean of abilities, 95 % interval over items)"
    )
    age = summary_age_text(summary)
    flagged = summary["cognitive_age_flag"] is not None
    lines.append(f"  {'FLAG: ' if flagged else ''}cognitive age {age}")
    if run.note:
        lines.append(f"  FLAG: {run.note}")
    if run.partial:
        lines.append("  FLAG: partial run; not comparable with Table 9")
    return lines


def summary_text(arguments: Sequence[str], started: float | None = None) -> str | None:
    """The summary of a run's results written since ``started`` (``None``: no CogLM task run)."""
    if not names_coglm(arguments):
        return None
    output = _option(arguments, "--output_path", "-o")
    if output is None:
        return (
            "CogLM: lm-eval wrote no files (no --output_path). Add --output_path DIR "
            "--log_samples for the stage scores, the cognitive age and their 95 % intervals, "
            "then: cog-tasks coglm report DIR"
        )
    try:
        files = [
            file
            for file in find_results_files(Path(output))
            if started is None or file.stat().st_mtime >= started
        ]
    except FileNotFoundError:
        return None
    if not files:
        return None
    try:
        runs = load_lm_eval_runs(max(files, key=lambda file: file.stat().st_mtime))
    except CogLMDataError as error:
        return f"CogLM: {error}"
    lines = [
        line for checked, _, label in runs for line in format_summary(checked_run(checked, label))
    ]
    lines.append(f"full report and chart: cog-tasks coglm report {shlex.quote(output)}")
    return "\n".join(lines)


def print_summary(arguments: Sequence[str], started: float) -> None:
    """Print :func:`summary_text` (if any) after lm-eval's own output."""
    text = summary_text(arguments, started)
    if text:
        print(f"\n{text}", flush=True)


def now() -> float:
    """The time a run starts, for :func:`print_summary` (a second of slack for file times)."""
    return time.time() - 1.0
