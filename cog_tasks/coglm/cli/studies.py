"""``cog-tasks coglm`` study subcommands: ``interdependence``, ``agreement``, ``erasure-prompt``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from cog_tasks.coglm.abilities import ABILITY_BY_CODE
from cog_tasks.common import cli as kit


def _interdependence(args: argparse.Namespace) -> int:
    from cog_tasks.coglm.inspect.studies import run_interdependence
    from cog_tasks.coglm.studies import difference_lines

    names = ("max_tokens", "temperature", "max_connections", "seed")
    eval_options = {name: getattr(args, name) for name in names if getattr(args, name) is not None}
    result = run_interdependence(
        args.model,
        args.out,
        abilities=args.abilities,
        erased=args.erase,
        per_ability=args.limit,
        model_args=dict(args.model_arg),
        resamples=args.resamples,
        progress=lambda line: print(line, file=sys.stderr, flush=True),
        **eval_options,
    )
    resumed = "" if result.conditions_run else " (all conditions resumed from earlier runs)"
    print(f"{len(result.cells)} cells{resumed}")
    for line in difference_lines(result.cells):
        print(line)
    print(f"matrix: {result.csv_path}")
    print(f"heatmap: {result.png_path}")
    return 0


def _agreement(args: argparse.Namespace) -> int:
    from cog_tasks.coglm.inspect.logs import read_chat_log
    from cog_tasks.coglm.inspect.studies import inspect_picks
    from cog_tasks.coglm.lm_eval.results import lm_eval_picks
    from cog_tasks.coglm.studies import agreement_by_ability
    from cog_tasks.common.errors import warn
    from cog_tasks.common.files import read_json
    from cog_tasks.common.lm_eval_samples import find_results_files
    from cog_tasks.common.secrets import redact_text

    table = agreement_by_ability(inspect_picks(args.inspect_log), lm_eval_picks(args.lm_eval))
    chat_model = read_chat_log(args.inspect_log).eval.model
    results = read_json(find_results_files(args.lm_eval)[-1])
    lm_model = str(results.get("model_name") or (results.get("config") or {}).get("model_args"))
    models = {"inspect": redact_text(chat_model), "lm_eval": redact_text(lm_model)}
    if chat_model.rsplit("/", 1)[-1] != lm_model.rsplit("/", 1)[-1]:
        warn(f"the runs are of different models: {models['inspect']} and {models['lm_eval']}")
    if args.json:
        print(json.dumps({"models": models, "abilities": table}, indent=2))
        return 0
    print(f"Inspect run: {models['inspect']}; lm-eval run: {models['lm_eval']}")
    print(f"{'ability':<8}{'n':>6}{'agreement':>11}")
    for code, row in table.items():
        print(f"{code:<8}{row['n']:>6}{100 * row['agreement']:>10.1f}%")
    return 0


def _erasure_prompt(args: argparse.Namespace) -> int:
    from cog_tasks.coglm.prompts import erasure_prompt

    print(erasure_prompt(args.ability))
    return 0


def add_study_commands(commands: argparse._SubParsersAction) -> None:
    """Add the study subcommands to the ``cog-tasks coglm`` group's subparsers."""
    study = kit.add_command(
        commands,
        "interdependence",
        _interdependence,
        "erase each ability by system prompt and test all abilities (Fig. 3): CSV + heatmap",
        description="Runs the coglm_chat Inspect task once without erasure and once per "
        "erased ability, printing a line to stderr as each condition starts and ends, then "
        "writes interdependence.csv (calibrated accuracy with a bootstrap interval per cell) "
        "and interdependence.png into --out. Rerunning with the same --out resumes after "
        "the last finished condition.",
    )
    study.add_argument("--model", required=True, help="Inspect model, e.g. openai/gpt-4o")
    kit.add_name_value_option(
        study, "-M", "model_arg", "model argument, e.g. -M model_path=DIR -M do_sample=false"
    )
    study.add_argument(
        "--abilities", type=kit.comma_list, help="tested abilities, comma-separated (default all)"
    )
    study.add_argument(
        "--erase", type=kit.comma_list, help="erased abilities, comma-separated (default: tested)"
    )
    study.add_argument("--limit", type=kit.positive_int, help="first N items of each ability")
    study.add_argument("--max-tokens", dest="max_tokens", type=kit.positive_int)
    study.add_argument("--temperature", type=kit.number_at_least(0))
    study.add_argument("--max-connections", dest="max_connections", type=kit.positive_int)
    study.add_argument("--seed", type=int, help="generation seed")
    study.add_argument(
        "--resamples", type=kit.positive_int, default=1000, help="bootstrap resamples per cell"
    )
    kit.add_out_option(
        study,
        "output folder (default coglm_interdependence)",
        default=Path("coglm_interdependence"),
    )
    agreement = kit.add_command(
        commands,
        "agreement",
        _agreement,
        "per-ability fraction of items where an Inspect chat run and lm-eval pick alike",
    )
    agreement.add_argument("--inspect-log", required=True, type=Path, help="coglm_chat Inspect log")
    agreement.add_argument(
        "--lm-eval", required=True, type=Path, help="lm-eval --output_path of a --log_samples run"
    )
    kit.add_flag(agreement, "--json", "print JSON")
    prompt = kit.add_command(
        commands,
        "erasure-prompt",
        _erasure_prompt,
        "print the system prompt that erases one ability",
    )
    prompt.add_argument("ability", choices=list(ABILITY_BY_CODE))
