"""``cog-tasks cogbench ...``: score eval files, report Inspect logs, export, chance baseline."""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path
from typing import Any

from cog_tasks.cogbench.metrics import KAPPA_FORMS, WEIGHT_SCHEMES
from cog_tasks.cogbench.spec import SPEC
from cog_tasks.common import cli as kit
from cog_tasks.common.files import new_output, write_json_atomically


def _judge_generator(model_name: str, model_args: list[tuple[str, Any]]) -> object:
    """A ``TextGenerator`` over an Inspect model given on the command line."""
    from inspect_ai.model import get_model

    from cog_tasks.cogbench.inspect.solver import ModelGenerator

    return ModelGenerator(get_model(model_name, **dict(model_args)))


def _score(args: argparse.Namespace) -> int:
    import asyncio

    from cog_tasks.cogbench import evaluation
    from cog_tasks.cogbench.loader import load_records
    from cog_tasks.cogbench.rationality import JudgeVerdict, judge_answers

    path = Path(args.eval_file)
    records = load_records(path, require_profile=False)
    items = evaluation.answered_items(records, args.method, str(path))
    verdicts: list[JudgeVerdict | None] | None = evaluation.recorded_verdicts(items)
    judge = f"the verdicts in {path.name} (judge_rationality)"
    if args.judge_model:
        unused = " (the file's judge_rationality left unused)" if verdicts else ""
        judge = f"{args.judge_model}, asked now{unused}"
        generator = _judge_generator(args.judge_model, args.model_arg)
        judged = evaluation.judge_items(items)
        asked = judge_answers(generator, judged, context_chars=args.judge_chars)  # type: ignore[arg-type]
        verdicts = list(asyncio.run(asked))
    scores = evaluation.score_method(
        args.method, items, args.weights, verdicts, args.kappa, str(path), judge_source=judge
    )
    print(evaluation.format_scores(scores, path.name))
    return 0


def _rater_spec(spec: str) -> tuple[Path, str | None]:
    """``FILE`` (its human ratings: method ``None``) or ``FILE:METHOD`` (that method's)."""
    path, separator, method = spec.rpartition(":")
    if Path(spec).is_file() or not separator or not method:
        return Path(spec), None
    return Path(path), method


def _file_labels(paths: list[Path]) -> dict[Path, str]:
    """A label per distinct path: the fewest trailing path parts that no other path shares."""
    distinct = list(dict.fromkeys(paths))
    labels = {}
    for path in distinct:
        others = [other.parts for other in distinct if other != path]
        depth = next(
            k
            for k in range(1, len(path.parts) + 1)
            if all(other[-k:] != path.parts[-k:] for other in others)
        )
        labels[path] = str(Path(*path.parts[-depth:]))
    return labels


def _agreement(args: argparse.Namespace) -> int:
    from cog_tasks.cogbench.evaluation import HUMAN_RATER, format_agreement, rater_agreement
    from cog_tasks.cogbench.loader import load_records
    from cog_tasks.common.runs import file_sha256

    specs: dict[tuple[str, str], tuple[str, Path]] = {}
    for spec in args.raters:
        path, method = _rater_spec(spec)
        # A rater is its file's content and column: a copy of a file is the same rater.
        key = (file_sha256(path) if path.is_file() else str(path), method or HUMAN_RATER)
        if key in specs:
            raise kit.UsageError(
                f"{spec}: the same ratings as {specs[key][0]} (same file content and column); "
                "a rater against itself agrees by construction, so give each rater once"
            )
        specs[key] = (spec, path)
    names = _file_labels([path.resolve() for _, path in specs.values()])
    # A column never holds a colon (FILE:METHOD splits at the last one), so a label's
    # last colon always parts the file from the column.
    raters = [
        (f"{names[path.resolve()]}:{column}", load_records(path), column)
        for (_, column), (_, path) in specs.items()
    ]
    print(format_agreement(rater_agreement(raters, rationality=args.rationality)))
    return 0


def _report(args: argparse.Namespace) -> int:
    from cog_tasks.cogbench.inspect.logs import read_cogbench_logs, report_rows
    from cog_tasks.cogbench.report import curves_table, write_report
    from cog_tasks.common.files import report_folder

    log_dir = Path(args.log_dir)
    found = read_cogbench_logs(log_dir, statuses=args.status)
    if skipped := found.skipped_note():
        print(skipped)
    curves = report_rows(found.logs, pool_seeds=args.pool_seeds)
    if not curves:
        raise kit.UsageError(f"{log_dir}: no CogBench logs to report{skipped and f'; {skipped}'}")
    print(curves_table(curves))
    for path in write_report(curves, report_folder(args.out, "cogbench-report")):
        print(path)
    return 0


def _judge_counts(records: list[dict[str, Any]]) -> str:
    """The judge verdicts an export wrote (``judge_rationality``), counted over every answer."""
    from cog_tasks.cogbench.rationality import JUDGED, NO_REASONING, UNREADABLE, JudgeVerdict

    statuses = Counter(
        JudgeVerdict.from_recorded(answer["judge_rationality"]).status
        for record in records
        for item in record["questionnaire"]
        for answer in item["answer"].values()
        if isinstance(answer, dict) and answer["judge_rationality"] != -1
    )
    if not statuses:
        return "judge: none (judge_rationality -1 throughout)"
    return (
        f"judge (judge_rationality): {statuses[UNREADABLE]} of "
        f"{statuses[JUDGED] + statuses[UNREADABLE]} replies unreadable, "
        f"{statuses[NO_REASONING]} answers without reasoning"
    )


def _export(args: argparse.Namespace) -> int:
    from cog_tasks.cogbench.inspect.logs import export_eval_records, read_cogbench_log

    target = new_output(args.out, args.force, args.log_file)  # before any reading
    records, checked = export_eval_records(read_cogbench_log(args.log_file))
    target.parent.mkdir(parents=True, exist_ok=True)
    write_json_atomically(target, records)
    print(f"{target}: {len(records)} records")
    if checked.coverage.epochs > 1:
        print(
            f"note: epoch 1 of {checked.coverage.epochs} written "
            "(the eval schema holds one answer per item)"
        )
    print(_judge_counts(records))
    if errored := checked.coverage.counts.get("error", 0):
        print(f"note: {errored} errored trajectory-epoch(s) have no answers to write")
    if checked.note():
        print(f"coverage: {checked.note()}")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``cogbench`` command group to the ``cog-tasks`` parser."""
    group = subparsers.add_parser("cogbench", help="CogBench: evaluate files, plot logs, baseline")
    commands = group.add_subparsers(dest="cogbench_command", metavar="COMMAND", required=True)
    evaluate = kit.add_command(
        commands,
        "score",
        _score,
        "Authenticity and Rationality of one method in an eval_cogbench_*.json file "
        "(evaluate: deprecated alias, removed in the next release)",
        aliases=["evaluate"],
    )
    evaluate.add_argument("eval_file", help="file in the authors' eval schema")
    evaluate.add_argument("--method", required=True, help="method name in the answers (CoT...)")
    evaluate.add_argument("--weights", choices=WEIGHT_SCHEMES, help="weighted kappa (default none)")
    evaluate.add_argument(
        "--kappa",
        choices=KAPPA_FORMS,
        default="pooled",
        help="pooled over an iteration (authors' code, default) or per_question (paper's Eq. 2)",
    )
    evaluate.add_argument(
        "--judge-model",
        help="judge the reasoning with this Inspect model (e.g. hf/...); without it, the "
        "verdicts the file keeps in judge_rationality (as export writes them) are read",
    )
    evaluate.add_argument(
        "--judge-chars",
        type=kit.positive_int,
        help="show the judge at most this many characters of flows (default: all, whole)",
    )
    kit.add_name_value_option(evaluate, "-M", "model_arg", "judge model argument")
    agreement = kit.add_command(
        commands,
        "agreement",
        _agreement,
        "Fleiss kappa, Spearman and polarity tallies across rating files (paper's Table 4)",
    )
    agreement.add_argument(
        "raters",
        nargs="+",
        metavar="FILE[:METHOD]",
        help="an eval-schema file: its human ratings, or METHOD's ratings with FILE:METHOD",
    )
    kit.add_flag(
        agreement,
        "--rationality",
        "compare the human Rationality scores of METHOD's reasoning (FILE:METHOD raters)",
    )
    report = kit.add_command(
        commands,
        "report",
        _report,
        "plot Authenticity and Rationality by iteration from Inspect logs",
    )
    report.add_argument("log_dir", help="folder with Inspect logs of cog_tasks/cogbench")
    kit.add_out_option(
        report, "folder for the PNGs and cogbench_curves.json (default: a new ./cogbench-report)"
    )
    kit.add_status_option(report)
    kit.add_flag(
        report, "--pool-seeds", "pool runs that differ only by seed into one row (the row says so)"
    )
    export = kit.add_command(
        commands, "export", _export, "write an Inspect log's answers as an eval file"
    )
    export.add_argument("log_file", help="an Inspect log of cog_tasks/cogbench")
    kit.add_out_option(export, "JSON file to write", old=("-o", "--output"), required=True)
    # The chance rater answers the judge's prompts too: it is its own (random) judge.
    kit.add_chance_command(
        commands,
        "run the cogbench task with a seeded uniform-random rater (chance reference)",
        kit.spec_chance(SPEC, "cogbench", self_judge=True),
    )
