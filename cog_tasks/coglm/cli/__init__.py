"""``cog-tasks coglm ...``: CogLM reports, the paper's tables, scoring, leak counts, chance."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cog_tasks.coglm.cli.studies import add_study_commands
from cog_tasks.coglm.extract import DEFAULT_EXTRACTOR, EXTRACTORS
from cog_tasks.coglm.rules import CHANCE_RULES, DEFAULT_CHANCE, DEFAULT_RULE, RULES
from cog_tasks.coglm.spec import SPEC
from cog_tasks.common import cli as kit
from cog_tasks.common.files import new_output

if TYPE_CHECKING:
    from cog_tasks.coglm.report import CogLMRun
    from cog_tasks.common.stats import Interval


def _lm_eval_runs(paths: list[Path], rule: str, chance: str) -> list[CogLMRun]:
    from cog_tasks.coglm.lm_eval.results import load_lm_eval_runs
    from cog_tasks.coglm.report import checked_run
    from cog_tasks.common.lm_eval_samples import find_results_files

    found = []
    for path in paths:
        with contextlib.suppress(FileNotFoundError):
            find_results_files(path)
            found.append(path)
    if not found:
        return []
    return [
        checked_run(checked, label) for checked, _, label in load_lm_eval_runs(found, rule, chance)
    ]


def _report(args: argparse.Namespace) -> int:
    from cog_tasks.coglm.inspect.report import load_inspect_runs
    from cog_tasks.coglm.records import CogLMDataError
    from cog_tasks.coglm.report import format_report, write_chart

    if args.out is not None:
        new_output(args.out, args.force, *args.results)  # before any reading
    runs = _lm_eval_runs(args.results, args.rule, args.chance)
    inspect_runs, logs = load_inspect_runs(args.results, statuses=args.status, chance=args.chance)
    runs += inspect_runs
    if not runs:
        note = f"; {logs.skipped_note()}" if logs.skipped else ""
        raise CogLMDataError(
            f"{', '.join(map(str, args.results))}: no lm-eval results_*.json with coglm or "
            f"coglm_gen tasks and no coglm_chat Inspect log{note}"
        )
    output = sys.stderr if args.json else sys.stdout
    if args.json:
        labels = [run.label for run in runs]
        by_key = {  # a label shared by an lm-eval run and an Inspect run gets its source
            f"{run.label} ({run.source})" if labels.count(run.label) > 1 else run.label: _json(run)
            for run in runs
        }
        print(json.dumps(by_key, indent=2))
    else:
        for run in runs:
            head = f"CogLM report: {run.label}  ({run.source})"
            title = "\n".join(filter(None, (head, run.protocol, run.note)))
            print(format_report(run.summary, title), end="\n\n")
    if logs.skipped:
        print(logs.skipped_note(), file=output)
    if args.out is None:  # never beside the input unless named
        print("no chart written: pass --out coglm_report.png to draw one", file=output)
    else:
        print(f"chart written to {write_chart(runs, args.out)}", file=output)
    return 0


def _json(run: CogLMRun) -> dict[str, Any]:
    """A run's summary with its coverage, as ``--json`` prints it."""
    return {**run.summary, "coverage": run.coverage.as_dict()}


def _settings_table(args: argparse.Namespace, table: int) -> int:
    from cog_tasks.coglm.inspect.report import TABLE5_ORDER, TABLE7_ORDER, comparison_runs
    from cog_tasks.coglm.reference import TABLE5, TABLE5_MODEL, TABLE7, TABLE7_MODEL
    from cog_tasks.coglm.report import format_settings_table, write_settings_chart

    if table == 5:
        order, paper, model = TABLE5_ORDER, TABLE5, TABLE5_MODEL
        title = "CogLM Table 5: chain of thought (COT) and self-consistency (SC)"
    else:
        order, paper, model = TABLE7_ORDER, TABLE7, TABLE7_MODEL
        title = "CogLM Table 7: with and without chain of cognition (COC)"
    if args.out is not None:
        new_output(args.out, args.force, *args.logs)  # before any reading
    runs, logs = comparison_runs(args.logs, order, statuses=args.status)
    if table == 7:
        runs = [replace(run, label=run.label.replace("Base", "w/o COC", 1)) for run in runs]
    print(format_settings_table(runs, paper, f"{title}, calibrated accuracy (%)", model))
    for line in _setting_differences(runs, logs.logs):
        print(line)
    if logs.skipped:
        print(logs.skipped_note())
    if args.out is None:  # never a file the user did not name
        print(f"no chart written: pass --out coglm_table{table}.png to draw one")
        return 0
    write_settings_chart(runs, paper, args.out, f"{title}\nhollow markers: the paper ({model})")
    print(f"chart written to {args.out}")
    return 0


SETTING_ARGUMENTS = ("cot", "sc_samples", "sc_temperature", "sc_seed", "coc_log", "erase")
"""``coglm_chat`` arguments that make the settings Tables 5 and 7 compare."""


def _is_base(fields: dict[str, str]) -> bool:
    """Whether a run's identity fields are the Base setting (no CoT, SC, COC or erasure)."""
    return (
        fields.get("cot", "false") == "false"
        and fields.get("sc_samples", "1") == "1"
        and fields.get("coc_log", "null") in ("null", "")
        and fields.get("erase", "null") in ("null", "")
    )


def _setting_differences(runs: Sequence[Any], logs: Sequence[Any]) -> list[str]:
    """Each setting minus its one Base run of the same model and arguments, paired over items."""
    from cog_tasks.coglm.inspect.headlines import headlines
    from cog_tasks.coglm.report import difference_text
    from cog_tasks.common.results import compare_units, identity_differences

    by_location = {Path(log.location): log for log in logs}
    overall = {
        run.label: next(h for h in headlines(by_location[run.source]) if h.measure == "overall")
        for run in runs
    }
    ignored = (*SETTING_ARGUMENTS, "seed")
    bases = [run for run in runs if _is_base(overall[run.label].run.fields())]
    lines = [
        "difference from the Base run of the same model and arguments (overall, points; "
        "paired over shared items):"
    ]
    for run in runs:
        if run in bases:
            continue
        identity = overall[run.label].run
        matching = [
            base
            for base in bases
            if not identity_differences(identity, overall[base.label].run, ignore=ignored)
        ]
        if len(matching) != 1:
            found = "no Base run" if not matching else f"{len(matching)} Base runs"
            lines.append(f"  {run.label}: not paired ({found} of the same model and arguments)")
            continue
        units = overall[matching[0].label].units
        pairing = compare_units(overall[run.label].units, units, unit="item", scale="calibrated")
        if pairing.difference is None:
            lines.append(f"  {run.label}: not paired ({pairing.reason})")
            continue
        shown = difference_text(pairing.difference) + (
            f"  ({pairing.reason})" if pairing.reason else ""
        )
        lines.append(f"  {run.label} vs {matching[0].label}: {shown}")
    return lines if len(lines) > 1 else []


SCORE_EXTRACTORS = {"jsonl": DEFAULT_EXTRACTOR, "authors": "authors"}
"""``score``'s reader by ``--format``: the authors' released Llama-2-chat replies get their rule."""


def _score(args: argparse.Namespace) -> int:
    from cog_tasks.coglm.predictions import predictions_run, read_authors_outputs, read_predictions
    from cog_tasks.coglm.report import checked_run, format_report
    from cog_tasks.common.results import check_run

    extractor = args.extractor or SCORE_EXTRACTORS[args.format]
    read = read_authors_outputs if args.format == "authors" else read_predictions
    items = read(args.predictions, extractor, args.chance)
    run = predictions_run(items, args.predictions, extractor, args.chance)
    report = checked_run(check_run(run), str(args.predictions))
    if args.json:
        print(json.dumps(_json(report), indent=2))
    else:
        head = f"CogLM scores: {args.predictions} (extractor: {extractor}, chance: {args.chance})"
        title = "\n".join(filter(None, (head, report.note)))
        print(format_report(report.summary, title))
    return 0


LEAK_SOURCES = {"authors": "authors' result file", "inspect": "coglm_chat log"}
"""What ``coc-leak`` reads, by the name its JSON output gives them."""


def _leak_replies(path: Path) -> tuple[str, list[tuple[str, Sequence[str], str]]]:
    """The replies of one ``coc-leak`` input with its kind (a key of :data:`LEAK_SOURCES`)."""
    from cog_tasks.coglm.inspect.coc import replies_from_log
    from cog_tasks.coglm.predictions import is_authors_layout, iter_authors_outputs
    from cog_tasks.coglm.records import CogLMDataError
    from cog_tasks.common.files import DataFileError, read_json

    neither = (
        f"{path}: neither a raw-output file in the CogLM authors' layout nor a successful "
        "coglm_chat Inspect log"
    )
    data = None
    if path.suffix != ".eval":
        try:
            data = read_json(path)
        except DataFileError as error:
            raise CogLMDataError(f"{neither} ({error})") from error
        if is_authors_layout(data):
            return "authors", [
                (str(item["prediction"] or ""), item["choices"], item["question"])
                for _, item in iter_authors_outputs(path)
            ]
    if path.suffix == ".eval" or (isinstance(data, dict) and "eval" in data):
        try:
            return "inspect", list(replies_from_log(path))
        except ValueError as error:
            raise CogLMDataError(f"{neither} ({error})") from error
    raise CogLMDataError(neither)


def _percent(interval: Interval) -> str:
    """``51.0 %, 95 % CI [40.1, 61.2]``, or the statistics entry's ``[no interval: 4 replies]``."""
    return f"{100 * interval.value:.1f} %, 95 % CI {interval.bounds_text(1, scale=100.0)}"


def _coc_leak(args: argparse.Namespace) -> int:
    from cog_tasks.coglm.rationale import leak_counts

    rows = []
    for path in args.files:
        source, replies = _leak_replies(path)
        rows.append((path, source, leak_counts(replies, form=args.form)))
    if args.json:
        listed = [
            {
                "file": str(path),
                "source": source,
                "form": args.form,
                **{key: value for key, value in vars(counts).items() if key != "kept_chars"},
                "same_option_share": counts.share("same_option").as_dict(),
                "verbatim_share": counts.share("verbatim").as_dict(),
                "pointer_share": counts.share("pointers").as_dict(),
                "kept_share": counts.kept_interval().as_dict(),
            }
            for path, source, counts in rows
        ]
        print(json.dumps(listed, indent=2))
        return 0
    for path, source, counts in rows:
        if not counts.readable:
            print(f"{path} ({LEAK_SOURCES[source]}): none of {counts.replies} replies readable")
            continue
        print(
            f"{path} ({LEAK_SOURCES[source]}): {counts.readable} of {counts.replies} replies "
            f"readable; {args.form} rationale reads as the same option: {counts.same_option} "
            f"({_percent(counts.share('same_option'))}), holds its text: {counts.verbatim} "
            f"({_percent(counts.share('verbatim'))}), holds an ordinal or an option's "
            f"fragment: {counts.pointers} ({_percent(counts.share('pointers'))}); characters "
            f"of the replies kept: {_percent(counts.kept_interval())}"
        )
    return 0


def _add_chance_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--chance",
        choices=CHANCE_RULES,
        default=DEFAULT_CHANCE,
        help="chance level of the calibration: listed (default, the paper's Eq. 1: one over "
        "the listed options) or distinct (one over the distinct option texts; 39 items repeat "
        "an option)",
    )


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``coglm`` command group to the ``cog-tasks`` parser."""
    from cog_tasks.coglm.rationale import DEFAULT_RATIONALE_FORM, RATIONALE_FORMS

    coglm = subparsers.add_parser(
        "coglm", help="CogLM: reports, the paper's tables, scoring, chance baseline, studies"
    )
    commands = coglm.add_subparsers(dest="coglm_command", metavar="COMMAND", required=True)
    report = kit.add_command(
        commands,
        "report",
        _report,
        "report CogLM results (lm-eval folders, Inspect logs): abilities, stages, age, chart",
        description="Read lm-eval results (an --output_path folder or a results_*.json) and "
        "Inspect coglm_chat logs (.eval files or folders holding them), print per-ability "
        "calibrated accuracy, stage scores, the overall score and the cognitive age of each "
        "run, with 95 %% intervals bootstrapped over items, and draw a chart beside the "
        "paper's Table 9. Every results file and log is its own row (none is merged or "
        "dropped); rows are labelled by what differs between them. Intervals and --rule "
        "need lm-eval's --log_samples files. An age outside the ages the map was fitted on "
        "(6-20), or whose interval reaches past them, is flagged; a partial run is marked in "
        "the text and on the chart.",
    )
    report.add_argument("results", type=Path, nargs="+", metavar="PATH")
    _add_chance_option(report)
    report.add_argument(
        "--rule",
        choices=list(RULES),
        default=DEFAULT_RULE,
        help="choice rule of lm-eval's log-likelihood runs: authors (default, the paper's: "
        "lowest mean loss over question and option), per-token (the headline before tasks "
        "version 2.0), sum (lm-eval acc) or per-char (lm-eval acc_norm)",
    )
    kit.add_out_option(report, "chart PNG (default: no chart)", old=("--chart",))
    kit.add_flag(report, "--json", "print the reports as JSON")
    kit.add_status_option(report)
    for table, what in (
        (5, "chain of thought and self-consistency (runs with -T cot, -T sc_samples)"),
        (7, "with and without chain of cognition (runs with and without -T coc_log)"),
    ):
        parser = kit.add_command(
            commands,
            f"table{table}",
            partial(_settings_table, table=table),
            f"the paper's Table {table}: {what}, from Inspect logs",
            description=f"Print the paper's Table {table} ({what}) from the coglm_chat Inspect "
            "logs given (files or folders), one row per run labelled by its setting and "
            "model, with the paper's rows below, and draw it as a PNG.",
        )
        parser.add_argument("logs", type=Path, nargs="+", metavar="LOG")
        kit.add_out_option(parser, "chart PNG (default: no chart)", old=("--chart",))
        kit.add_status_option(parser)
    score = kit.add_command(
        commands,
        "score",
        _score,
        "score predictions from any source (JSONL: ability, choices, answer, prediction)",
        description="Each line: {'ability': code, 'choices': [...], 'answer': 0-based int, "
        "'prediction': int | letter | free text}. Unparseable predictions count as wrong "
        "and are reported as invalid.",
    )
    score.add_argument("predictions", type=Path, metavar="PREDICTIONS.jsonl")
    score.add_argument(
        "--extractor",
        choices=list(EXTRACTORS),
        default=None,
        help="how free text is read: ours (the default for --format jsonl), authors (the "
        "CogLM authors' Llama-2-chat rule, the default for --format authors, whose replies "
        "it was written for) or authors-gpt (their GPT rule, boxed answers only)",
    )
    score.add_argument(
        "--format",
        choices=("jsonl", "authors"),
        default="jsonl",
        help="jsonl (default; one prediction a line) or authors: the CogLM authors' released "
        "Llama-2-chat raw outputs, result/llama-2-*-chat/result.json (stage -> ability -> "
        "items with predict); their GPT-2 and OPT files hold an older version of the "
        "questions and are refused, naming the item",
    )
    _add_chance_option(score)
    kit.add_flag(score, "--json", "print one JSON object")
    leak = kit.add_command(
        commands,
        "coc-leak",
        _coc_leak,
        "count chain-of-cognition rationales that still read as the chosen option",
        description="For raw outputs in the CogLM authors' layout (their "
        "result/llama-2-*-chat/result.json) and Inspect coglm_chat logs (.eval or .json; "
        "the first epoch's reply to each sample, the rationale a chain-of-cognition run "
        "would show): of the replies the default extractor reads, how many still read as "
        "the same option, how many still hold its text, and how many an ordinal or an "
        "option's fragment, once shown as a rationale, with 95 %% Wilson intervals over the "
        "readable replies; and the share of the replies' characters kept (bootstrap over "
        "replies).",
    )
    leak.add_argument("files", type=Path, nargs="+", metavar="RESULT.json|LOG")
    leak.add_argument(
        "--form",
        choices=RATIONALE_FORMS,
        default=DEFAULT_RATIONALE_FORM,
        help="rationale form: hidden (default: no sentence that named an option), masked (option "
        "letters and texts hidden, sentences kept) or raw (as written)",
    )
    kit.add_flag(leak, "--json", "print one JSON list")
    kit.add_chance_command(
        commands,
        "run the coglm_chat task with a seeded random option letter (chance reference)",
        kit.spec_chance(SPEC, "coglm_chat"),
    )
    add_study_commands(commands)
