"""``cog-tasks cogeval``: rescoring, analysis of deviance, report figures, chance, items.

User errors (a bad file, an unknown name, a malformed row) print one line,
``cog-tasks cogeval: error: ...``, and exit with code 2; warnings print
``cog-tasks cogeval: warning: ...`` on standard error.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from cog_tasks.common.cli import add_chance_command, reporting_user_errors

if TYPE_CHECKING:
    from inspect_ai import Task

PROGRAM = "cog-tasks cogeval"


class UsageError(ValueError):
    """A command line that cannot be carried out as given."""


def _warn(message: str) -> None:
    print(f"{PROGRAM}: warning: {message}", file=sys.stderr)


_reporting_errors = reporting_user_errors(PROGRAM, (ValueError, KeyError, FileNotFoundError))


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``cogeval`` command group to the ``cog-tasks`` parser."""
    group = subparsers.add_parser(
        "cogeval", help="CogEval: rescore, analyse, plot, chance reference, generate items"
    )
    commands = group.add_subparsers(dest="cogeval_command", metavar="COMMAND", required=True)

    score = commands.add_parser(
        "score", help="rescore replies produced elsewhere (JSONL in, JSONL out)"
    )
    score.add_argument(
        "input", type=Path, help="JSONL with condition, expected, response[, graph_context, start]"
    )
    score.add_argument(
        "--out", type=Path, required=True, help="output JSONL (input + score, failure_mode)"
    )
    score.set_defaults(func=_reporting_errors(_score))

    analyze = commands.add_parser("analyze", help="sequential analysis of deviance (binomial GLM)")
    _add_table_source(analyze)
    analyze.add_argument("--json", action="store_true", help='print {"terms": [...]} as JSON')
    analyze.set_defaults(func=_reporting_errors(_analyze))

    report = commands.add_parser(
        "report", help="write heatmaps, failure-mode bars and temperature plots"
    )
    _add_table_source(report)
    report.add_argument("--out", type=Path, required=True, help="directory for the PNG files")
    report.set_defaults(func=_reporting_errors(_report))

    chance = add_chance_command(
        commands,
        "run the cogeval task with a seeded random walker (chance reference)",
        _chance_setup,
    )
    chance.set_defaults(func=_reporting_errors(chance.get_default("func")))

    generate = commands.add_parser("generate", help="write generated items as JSONL")
    generate.add_argument("--out", type=Path, required=True, help="output JSONL")
    generate.add_argument("--seed", type=int, default=0, help="relabelling seed (0: reference set)")
    generate.add_argument("--cot", default="none", choices=("none", "bfs", "dfs"))
    generate.add_argument(
        "--design",
        default="all",
        choices=("all", "paper"),
        help="paper: only the paper's 3 domains per graph and 5 condition families (Table 2)",
    )
    generate.add_argument("--graphs", help="comma-separated graph names (default: all)")
    generate.add_argument("--domains", help="comma-separated domain names (default: all)")
    generate.add_argument("--conditions", help="comma-separated condition names (default: all)")
    generate.set_defaults(func=_reporting_errors(_generate))


def _add_table_source(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("scores", nargs="?", type=Path, help="SCORES.csv or .jsonl")
    parser.add_argument("--log", type=Path, help="read an Inspect log directory instead")
    parser.add_argument(
        "--status",
        default="success",
        help="with --log: comma-separated log statuses to read (default: success)",
    )


def _load_table(args: argparse.Namespace) -> pd.DataFrame:
    from cog_tasks.cogeval.metrics import validate_scores
    from cog_tasks.cogeval.results import read_score_table

    if (args.scores is None) == (args.log is None):
        raise UsageError("give either a SCORES file or --log DIR")
    if args.log is not None:
        from cog_tasks.cogeval.generator import split_names
        from cog_tasks.cogeval.inspect.logs import score_table_from_logs

        table, logs = score_table_from_logs(args.log, statuses=split_names(args.status) or ())
        if logs.skipped_note():
            print(logs.skipped_note(), file=sys.stderr)
        return validate_scores(table, source=str(args.log))
    if not args.scores.is_file():
        raise FileNotFoundError(f"{args.scores}: no such file")
    return validate_scores(read_score_table(args.scores), source=str(args.scores))


def _score(args: argparse.Namespace) -> int:
    from cog_tasks.cogeval.results import rescore_file

    total, correct, unknown = rescore_file(args.input, args.out)
    if unknown:
        _warn(
            f"unknown condition(s) {unknown} in {args.input}: scored from the expected "
            "answers alone; check the condition names"
        )
    print(f"scored {total} replies, {correct} correct; wrote {args.out}")
    return 0


def _analyze(args: argparse.Namespace) -> int:
    from cog_tasks.cogeval.metrics import analysis_of_deviance, format_deviance_table

    terms = analysis_of_deviance(_load_table(args), on_warning=_warn)
    if args.json:
        json.dump({"terms": [term.to_dict() for term in terms]}, sys.stdout, indent=2)
        print()
    else:
        print(format_deviance_table(terms))
    return 0


def _report(args: argparse.Namespace) -> int:
    from cog_tasks.cogeval.report import write_report

    for path in write_report(_load_table(args), args.out):
        print(path)
    return 0


def _chance_setup(args: argparse.Namespace) -> tuple[Task, Any]:
    from cog_tasks.cogeval.inspect.chance import chance_answerer
    from cog_tasks.cogeval.inspect.cogeval import cogeval

    task_args = dict(args.task_args)
    return cogeval(**task_args), chance_answerer(task_args, args.seed)


def _generate(args: argparse.Namespace) -> int:
    from cog_tasks.cogeval.generator import generate_items, split_names
    from cog_tasks.common.files import write_jsonl_atomically

    items = generate_items(
        graphs=split_names(args.graphs),
        domains=split_names(args.domains),
        conditions=split_names(args.conditions),
        seed=args.seed,
        cot=args.cot,
        design=args.design,
    )
    if not items:
        raise UsageError("no item matches these graphs, domains and conditions")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_jsonl_atomically(args.out, [item.to_record() for item in items])
    print(f"wrote {len(items)} items to {args.out}")
    return 0
