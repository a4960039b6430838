"""``cog-tasks cogeval``: rescoring, analysis of deviance, report figures, chance, items.

User errors (a bad file, an unknown name, a malformed row) print one line,
``cog-tasks cogeval <command>: error: ...``, and exit with code 2; warnings print
``cog-tasks cogeval: warning: ...`` on standard error.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cog_tasks.common.cli import (
    UsageError,
    add_chance_command,
    add_force_option,
    add_out_option,
    add_status_option,
    comma_list,
    task_arguments,
)

if TYPE_CHECKING:
    import pandas as pd
    from inspect_ai import Task

PROGRAM = "cog-tasks cogeval"


def _warn(message: str) -> None:
    print(f"{PROGRAM}: warning: {message}", file=sys.stderr)


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
    add_out_option(
        score, "output JSONL (input + score, failure_mode); never the input", required=True
    )
    add_force_option(score)
    score.set_defaults(func=_score)

    analyze = commands.add_parser("analyze", help="sequential analysis of deviance (binomial GLM)")
    _add_table_source(analyze)
    analyze.add_argument(
        "--json",
        action="store_true",
        help='print {"terms": [...]} as JSON, with "experiment2": [...] when it has rows',
    )
    analyze.set_defaults(func=_analyze)

    report = commands.add_parser(
        "report",
        help="success per run with 95%% intervals over tasks (text or --json), and figures",
    )
    _add_table_source(report)
    add_out_option(
        report, "folder for the PNG files (default: the --log folder or the SCORES file's)"
    )
    report.add_argument(
        "--json", action="store_true", help='print {"rows": [...]} as JSON instead of text'
    )
    report.add_argument(
        "--pool-seeds",
        action="store_true",
        help="pool runs whose identities differ only by seed into one row (the report says so)",
    )
    report.set_defaults(func=_report)

    exp2 = commands.add_parser(
        "exp2",
        help="Experiment 2 (the paper's Fig. 3): success per question x cot, intervals, figure",
    )
    _add_log_option(exp2, required=True)
    add_out_option(exp2, "folder for experiment2.txt, experiment2.json and experiment2.png")
    exp2.add_argument(
        "--by-temperature", action="store_true", help="one row per temperature as in Fig. 3"
    )
    exp2.add_argument("--json", action="store_true", help="print the JSON instead of the text")
    add_status_option(exp2)
    exp2.set_defaults(func=_exp2)

    add_chance_command(
        commands,
        "run the cogeval task with a seeded random walker (chance reference)",
        _chance_setup,
    )

    generate = commands.add_parser("generate", help="write generated items as JSONL")
    add_out_option(generate, "output JSONL", required=True)
    add_force_option(generate)
    generate.add_argument("--seed", type=int, default=0, help="relabelling seed (0: reference set)")
    generate.add_argument("--cot", default="none", choices=("none", "bfs", "dfs"))
    generate.add_argument(
        "--design",
        default="all",
        choices=("all", "paper"),
        help="paper: only the paper's 3 domains per graph and 5 condition families (Table 2)",
    )
    for name in ("graphs", "domains", "conditions"):
        generate.add_argument(
            f"--{name}", type=comma_list, help=f"comma-separated {name[:-1]} names (default: all)"
        )
    generate.set_defaults(func=_generate)


def _add_log_option(parser: argparse.ArgumentParser, required: bool = False) -> None:
    parser.add_argument(
        "--log",
        type=Path,
        action="append",
        required=required,
        help="an Inspect log folder or file, or an lm-eval --output_path folder run with "
        "--log_samples (repeatable: every run of every folder is its own row)",
    )


def _add_table_source(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("scores", nargs="?", type=Path, help="SCORES.csv or .jsonl")
    _add_log_option(parser)
    add_status_option(parser)


def _check_distinct(logs: list[Path]) -> None:
    """Refuse a log folder given twice, or inside another one given: its runs would count twice."""
    resolved = [log.resolve() for log in logs]
    for index, path in enumerate(resolved):
        for other, outer in enumerate(resolved):
            if index != other and path.is_relative_to(outer):
                raise UsageError(
                    f"{logs[index]}: already read through --log {logs[other]}; give each log "
                    "folder once"
                )


def _load_logs(logs: list[Path], statuses: Any, pool_seeds: bool = False) -> pd.DataFrame:
    """The validated score table of Inspect log folders or files and lm-eval output folders.

    The runs of every folder are read together, each its own run (pooled by
    seed only with ``pool_seeds``); where both frameworks are given, the run
    labels start with the framework.
    """
    import pandas as pd

    from cog_tasks.cogeval.metrics import validate_scores

    missing = [log for log in logs if not log.exists()]
    if missing:
        raise FileNotFoundError(f"{missing[0]}: no such log folder or file")
    _check_distinct(logs)
    lm_eval = [log for log in logs if log.is_dir() and any(log.rglob("samples_cogeval*.jsonl"))]
    inspect = [log for log in logs if log not in lm_eval]
    tables = {}
    if lm_eval:
        from cog_tasks.cogeval.lm_eval.samples import score_table_from_lm_eval

        tables["lm-eval"] = score_table_from_lm_eval(lm_eval, pool_seeds=pool_seeds)
    if inspect:
        from cog_tasks.cogeval.inspect.logs import score_table_from_logs

        tables["Inspect"], read = score_table_from_logs(
            inspect, statuses=statuses, pool_seeds=pool_seeds
        )
        skipped = read.skipped_note()
        if skipped:
            print(skipped, file=sys.stderr)
    if len(tables) > 1:
        for framework, table in tables.items():
            table["run"] = f"{framework}: " + table["run"].astype(str)
    table = pd.concat(list(tables.values()), ignore_index=True)
    return validate_scores(table, source=", ".join(map(str, logs)))


def _table_source(args: argparse.Namespace) -> str:
    """The SCORES file or the --log folders, for messages."""
    return str(args.scores) if args.log is None else ", ".join(map(str, args.log))


def _load_table(args: argparse.Namespace) -> pd.DataFrame:
    from cog_tasks.cogeval.metrics import validate_scores
    from cog_tasks.cogeval.results import read_score_table

    if (args.scores is None) == (args.log is None):
        raise UsageError("give either a SCORES file or --log DIR")
    if args.log is not None:
        return _load_logs(args.log, args.status, getattr(args, "pool_seeds", False))
    if not args.scores.is_file():
        raise FileNotFoundError(f"{args.scores}: no such file")
    return validate_scores(read_score_table(args.scores), source=str(args.scores))


def _default_out(args: argparse.Namespace) -> Path:
    """Where a command writes without --out: the first --log folder, or the SCORES file's."""
    first = args.log[0] if args.log is not None else args.scores
    return first if first.is_dir() else first.parent


def _score(args: argparse.Namespace) -> int:
    from cog_tasks.cogeval.results import rescore_file
    from cog_tasks.common.files import new_output

    total, correct, unknown = rescore_file(args.input, new_output(args.out, args.force, args.input))
    if unknown:
        _warn(
            f"unknown condition(s) {unknown} in {args.input}: scored from the expected "
            "answers alone; check the condition names"
        )
    print(f"scored {total} replies, {correct} correct; wrote {args.out}")
    return 0


def _analyze(args: argparse.Namespace) -> int:
    from cog_tasks.cogeval.metrics import (
        ANALYSIS_FAMILIES,
        EXPERIMENT2_FAMILY,
        analysis_of_deviance,
        experiment2_deviance,
        format_deviance_table,
    )

    table = _load_table(args)
    has_exp2 = bool((table["family"] == EXPERIMENT2_FAMILY).any())
    has_exp1 = bool(table["family"].isin(ANALYSIS_FAMILIES).any())
    if not has_exp1 and not has_exp2:
        raise ValueError(
            f"{_table_source(args)}: no rows in the five condition families of Table 1 "
            "nor in Experiment 2"
        )
    terms = analysis_of_deviance(table, on_warning=_warn) if has_exp1 else []
    exp2_terms = experiment2_deviance(table, on_warning=_warn) if has_exp2 else []
    if args.json:
        result = {"terms": [term.to_dict() for term in terms]}
        if has_exp2:
            result["experiment2"] = [term.to_dict() for term in exp2_terms]
        json.dump(result, sys.stdout, indent=2)
        print()
        return 0
    if terms:
        print(format_deviance_table(terms))
    if has_exp2:
        if terms:
            print()
        print("Experiment 2 (cot: none, bfs, dfs):")
        print(format_deviance_table(exp2_terms))
    return 0


def _report(args: argparse.Namespace) -> int:
    from cog_tasks.cogeval.report import format_summary, write_report
    from cog_tasks.common.scripted import CHANCE_MODEL

    table = _load_table(args)
    folder = args.out or _default_out(args)
    summary, paths = write_report(table, folder, reference_model=CHANCE_MODEL)
    if args.json:
        json.dump({"rows": summary, "figures": [str(path) for path in paths]}, sys.stdout, indent=2)
        print()
    else:
        print(format_summary(summary))
        for path in paths:
            print(path)
    return 0


def _exp2(args: argparse.Namespace) -> int:
    from cog_tasks.cogeval.experiment2 import (
        experiment2_figure,
        experiment2_summary,
        experiment2_table,
        format_experiment2,
        run_deviance,
    )
    from cog_tasks.cogeval.paper import EXPERIMENT2_FINDINGS
    from cog_tasks.common.files import write_json_atomically, write_text_atomically

    rows = experiment2_table(_load_logs(args.log, args.status))
    summary = experiment2_summary(rows, by_temperature=args.by_temperature)
    terms = run_deviance(rows, on_warning=_warn)
    text = format_experiment2(summary, terms)
    result = {
        "rows": summary,
        "deviance": [term.to_dict() for term in terms],
        "paper": [asdict(finding) for finding in EXPERIMENT2_FINDINGS],
    }
    out = args.out or _default_out(args)
    out.mkdir(parents=True, exist_ok=True)
    write_text_atomically(out / "experiment2.txt", text + "\n")
    write_json_atomically(out / "experiment2.json", result)
    figure = experiment2_figure(summary, out)
    if args.json:
        json.dump(result, sys.stdout, indent=2)
        print()
    else:
        print(text)
        print(out / "experiment2.txt")
        print(out / "experiment2.json")
        print(figure)
    return 0


def _chance_setup(args: argparse.Namespace) -> tuple[Task, Any]:
    from cog_tasks.cogeval.inspect.chance import chance_answerer
    from cog_tasks.cogeval.inspect.cogeval import cogeval

    task_args = task_arguments(cogeval, args.task_args)
    answerer = chance_answerer(task_args, args.seed)  # refuses unreadable maps before the run
    return cogeval(**task_args), answerer


def _generate(args: argparse.Namespace) -> int:
    from cog_tasks.cogeval.generator import generate_items
    from cog_tasks.common.files import new_output, write_jsonl_atomically

    new_output(args.out, args.force)
    items = generate_items(
        graphs=args.graphs,
        domains=args.domains,
        conditions=args.conditions,
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
