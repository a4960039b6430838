"""``cog-tasks cogeval``: rescoring, analysis of deviance, report figures, chance, items."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

from cog_tasks.cogeval.spec import SPEC
from cog_tasks.common import cli as kit
from cog_tasks.common.results import ResultsError

if TYPE_CHECKING:
    from cog_tasks.cogeval.headlines import CogEvalRun

PROGRAM = "cog-tasks cogeval"


def _warn(message: str) -> None:
    print(f"{PROGRAM}: warning: {message}", file=sys.stderr)


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``cogeval`` command group to the ``cog-tasks`` parser."""
    group = subparsers.add_parser(
        "cogeval", help="CogEval: rescore, analyse, plot, chance reference, generate items"
    )
    commands = group.add_subparsers(dest="cogeval_command", metavar="COMMAND", required=True)
    score = kit.add_command(
        commands, "score", _score, "rescore replies produced elsewhere (JSONL in, JSONL out)"
    )
    score.add_argument(
        "input", type=Path, help="JSONL with condition, expected, response[, graph_context, start]"
    )
    kit.add_out_option(
        score, "output JSONL (input + score, failure_mode); never the input", required=True
    )
    kit.add_force_option(score)
    kit.add_flag(
        score,
        "--strict",
        "refuse the file if an expected answer cannot be read (default: mark it "
        "gold_unreadable, score the rest)",
    )
    kit.add_flag(
        score,
        "--json",
        "print replies, correct, success with its interval over tasks, and the coverage",
    )
    analyze = kit.add_command(
        commands, "analyze", _analyze, "sequential analysis of deviance (binomial GLM)"
    )
    _add_table_source(analyze)
    kit.add_flag(
        analyze,
        "--json",
        'print {"terms": [...], "runs": [...]} as JSON, with "experiment2": [...] when it has rows',
    )
    report = kit.add_command(
        commands,
        "report",
        _report,
        "success per run with 95%% intervals over tasks (text or --json), and figures",
    )
    _add_table_source(report)
    kit.add_out_option(report, "folder for the PNG files (default: a new ./cogeval-report)")
    kit.add_flag(report, "--json", 'print {"rows": [...]} as JSON instead of text')
    kit.add_flag(
        report,
        "--pool-seeds",
        "pool runs whose identities differ only by seed into one row (the report says so)",
    )
    exp2 = kit.add_command(
        commands,
        "exp2",
        _exp2,
        "Experiment 2 (the paper's Fig. 3): success per question x cot, intervals, figure",
    )
    _add_log_option(exp2, required=True)
    kit.add_out_option(exp2, "folder for experiment2.txt, experiment2.json and experiment2.png")
    kit.add_flag(exp2, "--by-temperature", "one row per temperature as in Fig. 3")
    kit.add_flag(exp2, "--json", "print the JSON instead of the text")
    kit.add_status_option(exp2)
    kit.add_chance_command(
        commands,
        "run the cogeval task with a seeded random walker (chance reference)",
        kit.spec_chance(SPEC, "cogeval"),
    )
    generate = kit.add_command(commands, "generate", _generate, "write generated items as JSONL")
    kit.add_out_option(generate, "output JSONL", required=True)
    kit.add_force_option(generate)
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
            f"--{name}",
            type=kit.comma_list,
            help=f"comma-separated {name[:-1]} names (default: all)",
        )


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
    kit.add_status_option(parser)


def _load_runs(args: argparse.Namespace, pool_seeds: bool = False) -> list[CogEvalRun]:
    """The checked runs of a SCORES file or of ``--log`` folders and files (each read once)."""
    from cog_tasks.cogeval.headlines import checked_runs

    scores = getattr(args, "scores", None)
    if (scores is None) == (args.log is None):
        raise kit.UsageError("give either a SCORES file or --log DIR")
    if args.log is None:
        from cog_tasks.cogeval.results import score_table_runs

        if not scores.is_file():
            raise FileNotFoundError(f"{scores}: no such file")
        return checked_runs(score_table_runs(scores), pool_seeds=pool_seeds)
    if missing := [log for log in args.log if not log.exists()]:
        raise FileNotFoundError(f"{missing[0]}: no such log folder or file")
    resolved = [log.resolve() for log in args.log]
    for index, path in enumerate(resolved):
        outer = next(
            (o for o, p in enumerate(resolved) if o != index and path.is_relative_to(p)), None
        )
        if outer is not None:
            raise kit.UsageError(
                f"{args.log[index]}: already read through --log {args.log[outer]}; give each "
                "log folder once"
            )
    lm_eval = [log for log in args.log if log.is_dir() and any(log.rglob("samples_cogeval*.jsonl"))]
    inspect = [log for log in args.log if log not in lm_eval]
    runs = []
    if lm_eval:
        from cog_tasks.cogeval.lm_eval.samples import read_lm_eval_runs

        runs += read_lm_eval_runs(lm_eval)
    if inspect:
        from cog_tasks.cogeval.inspect.logs import read_inspect_runs

        found, read = read_inspect_runs(inspect, statuses=args.status)
        skipped = read.skipped_note()
        if skipped:
            print(skipped, file=sys.stderr)
        if not found:
            raise kit.UsageError(
                f"{', '.join(map(str, inspect))}: no CogEval Inspect log"
                + (f"; {skipped}" if skipped else "")
            )
        runs += found
    return checked_runs(runs, pool_seeds=pool_seeds)


def _score(args: argparse.Namespace) -> int:
    from cog_tasks.cogeval.headlines import checked_runs
    from cog_tasks.cogeval.report import flag_counts
    from cog_tasks.cogeval.results import GOLD_UNREADABLE, rescore_file, score_file_run
    from cog_tasks.common.files import new_output, write_jsonl_atomically

    target = new_output(args.out, args.force, args.input)
    scored, unknown = rescore_file(args.input, strict=args.strict)
    marked = [number for number, row in enumerate(scored, start=1) if row.get(GOLD_UNREADABLE)]
    if len(marked) == len(scored):  # nothing to score: refuse, naming the first line
        rescore_file(args.input, strict=True)
    if marked:
        shown = ", ".join(map(str, marked[:10])) + (", ..." if len(marked) > 10 else "")
        _warn(
            f"{args.input}: {len(marked)} line(s) whose expected answer cannot be read are "
            f"marked {GOLD_UNREADABLE} and not scored (lines {shown}); --strict refuses them"
        )
    (run,) = checked_runs([score_file_run(args.input, scored)])
    if unknown:
        _warn(
            f"unknown condition(s) {unknown} in {args.input}: scored from the expected "
            "answers alone; check the condition names"
        )
    target.parent.mkdir(parents=True, exist_ok=True)
    write_jsonl_atomically(target, scored)
    success = run.rate()
    correct = sum(record["score"] or 0 for record in scored)
    if args.json:
        result = {
            "replies": len(scored),
            "correct": correct,
            "tasks": len(run.tasks),
            "success": success.value,
            "success_ci": success.as_list(),
            "coverage": run.coverage.as_dict(),
            "note": run.note(),
            "out": str(args.out),
        }
        print(json.dumps(result, indent=2))
        return 0
    print(
        f"scored {len(scored)} replies, {correct} correct; success "
        f"{success.format()} over {len(run.tasks)} tasks; "
        f"invalid/error/truncated {flag_counts(run.coverage.as_dict())}; wrote {args.out}"
    )
    if run.note():
        print(run.note())
    return 0


def _analyze(args: argparse.Namespace) -> int:
    import pandas as pd

    from cog_tasks.cogeval import metrics
    from cog_tasks.cogeval.experiment2 import EXPERIMENT2_FACTORS, run_deviance
    from cog_tasks.cogeval.headlines import TEMPERATURE_ARGUMENTS, analysis_levels
    from cog_tasks.cogeval.report import flag_counts

    runs = _load_runs(args)
    families = {run.declared.tasks[task].family for run in runs for task in run.tasks}
    has_exp1 = bool(families & set(metrics.ANALYSIS_FAMILIES))
    has_exp2 = metrics.EXPERIMENT2_FAMILY in families
    if not has_exp1 and not has_exp2:
        source = str(args.scores) if args.log is None else ", ".join(map(str, args.log))
        raise ResultsError(
            f"{source}: no rows in the five condition families of Table 1 nor in Experiment 2"
        )
    levels = {"experiment1": analysis_levels(runs, TEMPERATURE_ARGUMENTS)}
    terms = []
    if has_exp1:
        table = pd.concat(
            [
                pd.DataFrame(run.dialogs()).assign(model=level)
                for run, level in zip(runs, levels["experiment1"], strict=True)
            ]
        )
        terms = metrics.analysis_of_deviance(table, on_warning=_warn)
    exp2_terms = []
    if has_exp2:
        levels["experiment2"] = analysis_levels(runs, EXPERIMENT2_FACTORS)
        exp2_terms = run_deviance(runs, on_warning=_warn)
    notes = [  # per run: its LLM level in each analysis, its coverage and note
        {
            "run": run.label,
            "levels": {name: shown[index] for name, shown in levels.items()},
            "coverage": run.coverage.as_dict(),
            "note": run.note(),
        }
        for index, run in enumerate(runs)
    ]
    if args.json:
        exp2 = {"experiment2": [term.to_dict() for term in exp2_terms]} if has_exp2 else {}
        result = {"terms": [term.to_dict() for term in terms], **exp2, "runs": notes}
        print(json.dumps(result, indent=2))
        return 0
    if terms:
        print(metrics.format_deviance_table(terms))
    if has_exp2:
        if terms:
            print()
        print("Experiment 2 (cot: none, bfs, dfs):")
        print(metrics.format_deviance_table(exp2_terms))
    print("\nruns (LLM level; invalid/error/truncated replies; note):")
    for row in notes:
        shown = " / ".join(dict.fromkeys(row["levels"].values()))
        print(f"{row['run']}: {shown}; {flag_counts(row['coverage'])}; {row['note'] or '-'}")
    return 0


def _report(args: argparse.Namespace) -> int:
    from cog_tasks.cogeval.report import format_summary, write_report
    from cog_tasks.common.files import report_folder
    from cog_tasks.common.scripted import CHANCE_MODEL

    runs = _load_runs(args, pool_seeds=args.pool_seeds)
    folder = report_folder(args.out, "cogeval-report")  # never the logs' folder
    summary, paths = write_report(runs, folder, reference_model=CHANCE_MODEL)
    if args.json:
        print(json.dumps({"rows": summary, "figures": [str(path) for path in paths]}, indent=2))
    else:
        print(format_summary(summary), *paths, sep="\n")
    return 0


def _exp2(args: argparse.Namespace) -> int:
    from cog_tasks.cogeval import experiment2
    from cog_tasks.cogeval.paper import EXPERIMENT2_FINDINGS
    from cog_tasks.common.files import report_folder, write_json_atomically, write_text_atomically

    runs = _load_runs(args)
    summary = experiment2.experiment2_summary(runs, by_temperature=args.by_temperature)
    terms = experiment2.run_deviance(runs, on_warning=_warn)
    text = experiment2.format_experiment2(summary, terms)
    result = {
        "rows": summary,
        "deviance": [term.to_dict() for term in terms],
        "paper": [asdict(finding) for finding in EXPERIMENT2_FINDINGS],
    }
    out = report_folder(args.out, "cogeval-report")
    out.mkdir(parents=True, exist_ok=True)
    write_text_atomically(out / "experiment2.txt", text + "\n")
    write_json_atomically(out / "experiment2.json", result)
    figure = experiment2.experiment2_figure(summary, out)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(text, out / "experiment2.txt", out / "experiment2.json", figure, sep="\n")
    return 0


def _generate(args: argparse.Namespace) -> int:
    from cog_tasks.cogeval.generator import generate_items
    from cog_tasks.common.files import new_output, write_jsonl_atomically

    new_output(args.out, args.force)
    items = generate_items(
        args.graphs, args.domains, args.conditions, args.seed, args.cot, design=args.design
    )
    if not items:
        raise kit.UsageError("no item matches these graphs, domains and conditions")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_jsonl_atomically(args.out, [item.to_record() for item in items])
    print(f"wrote {len(items)} items to {args.out}")
    return 0
