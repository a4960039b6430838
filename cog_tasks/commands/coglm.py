"""``cog-tasks coglm ...``: CogLM reports and scoring.

Subcommands:

- ``report RESULTS_DIR``: the CogLM report of lm-eval ``--output_path`` results
  (per-ability calibrated accuracy, stages, overall, cognitive age) and a chart;
- ``score PREDICTIONS.jsonl``: score predictions made elsewhere.

Each subcommand is added by its own ``_add_<name>`` function called from
:func:`register`; add new ones the same way.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

from cog_tasks.coglm.completion import CALIBRATED_PICK_METRIC
from cog_tasks.coglm.predictions import read_predictions
from cog_tasks.coglm.records import CogLMDataError
from cog_tasks.coglm.report import format_report, load_lm_eval_runs, write_chart
from cog_tasks.commands.coglm_studies import add_study_commands
from cog_tasks.metrics.coglm import summarize

CHART_NAME = "coglm_report.png"


def _reporting_errors(
    command: Callable[[argparse.Namespace], int],
) -> Callable[[argparse.Namespace], int]:
    """Turn bad-input errors into a one-line message and exit code 2."""

    def run(args: argparse.Namespace) -> int:
        try:
            return command(args)
        except (CogLMDataError, FileNotFoundError) as error:
            print(f"cog-tasks coglm: error: {error}", file=sys.stderr)
            return 2

    return run


def _report(args: argparse.Namespace) -> int:
    runs = load_lm_eval_runs(args.results)
    if args.json:
        print(json.dumps({run.label: run.summary for run in runs}, indent=2))
    else:
        for run in runs:
            title = f"CogLM report: {run.label}  ({run.source})"
            title += f"\nacc and calibrated scores use lm-eval's {CALIBRATED_PICK_METRIC} choices"
            if run.limit is not None:
                title += f"\nPARTIAL RUN (lm-eval --limit {run.limit:g}): not the full benchmark"
            print(format_report(run.summary, title), end="\n\n")
    folder = args.results if args.results.is_dir() else args.results.parent
    chart_path = args.chart or folder / CHART_NAME
    chart = write_chart([(run.label, run.summary) for run in runs], chart_path)
    print(f"chart written to {chart}", file=sys.stderr if args.json else sys.stdout)
    return 0


def _score(args: argparse.Namespace) -> int:
    summary = summarize(read_predictions(args.predictions))
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(format_report(summary, f"CogLM scores: {args.predictions}"))
    return 0


def _add_report(commands: argparse._SubParsersAction) -> None:
    report = commands.add_parser(
        "report",
        help="report lm-eval CogLM results: abilities, stages, overall, cognitive age, chart",
        description="Read lm-eval results (the --output_path folder or a results_*.json), "
        "print per-ability calibrated accuracy, stage scores, the overall score and the "
        "cognitive age, and draw a chart beside the paper's Table 9. With several models "
        "in the folder, the newest run of each is reported.",
    )
    report.add_argument("results", type=Path, metavar="RESULTS_DIR")
    report.add_argument("--chart", type=Path, help=f"PNG path (default RESULTS_DIR/{CHART_NAME})")
    report.add_argument("--json", action="store_true", help="print the reports as JSON")
    report.set_defaults(func=_reporting_errors(_report))


def _add_score(commands: argparse._SubParsersAction) -> None:
    score = commands.add_parser(
        "score",
        help="score predictions from any source (JSONL: ability, choices, answer, prediction)",
        description="Each line: {'ability': code, 'choices': [...], 'answer': 0-based int, "
        "'prediction': int | letter | free text}. Unparseable predictions count as wrong "
        "and are reported as invalid.",
    )
    score.add_argument("predictions", type=Path, metavar="PREDICTIONS.jsonl")
    score.add_argument("--json", action="store_true", help="print one JSON object")
    score.set_defaults(func=_reporting_errors(_score))


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``coglm`` command group to the ``cog-tasks`` parser."""
    coglm = subparsers.add_parser("coglm", help="CogLM: report lm-eval results, score predictions")
    commands = coglm.add_subparsers(dest="coglm_command", metavar="COMMAND", required=True)
    _add_report(commands)
    _add_score(commands)
    add_study_commands(commands, _reporting_errors)
