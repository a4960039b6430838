"""``cog-tasks egosocial ...``: train opponents, plot reports, run the chance baseline."""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cog_tasks.common.cli import (
    add_chance_command,
    add_name_value_option,
    add_out_option,
    add_status_option,
    positive_int,
    task_arguments,
)

if TYPE_CHECKING:
    from inspect_ai import Task


def _train_opponents(args: argparse.Namespace) -> int:
    from cog_tasks.egosocial.opponents.holdem_dqn import STYLES, TrainingConfig, train_opponents

    directory = args.out
    config = TrainingConfig(seed=args.seed, episodes=args.episodes)
    styles = tuple(args.style) if args.style else STYLES
    options = ["--seed", str(args.seed), "--episodes", str(args.episodes)]
    options += [part for style in args.style or () for part in ("--style", style)]
    options += ["--out", str(args.out)]
    command = shlex.join(["cog-tasks", "egosocial", "train-opponents", *options])
    record = train_opponents(directory, config, command=command, styles=styles)
    for style, details in record["opponents"].items():
        rates = ", ".join(
            f"{k} {v:.2f}" for k, v in details["greedy_action_rates_vs_random"].items()
        )
        print(
            f"{style}: {directory / details['file']} ({details['bytes']} bytes) sha256 "
            f"{details['sha256']}; greedy action rates vs random: {rates}"
        )
    return 0


def _report(args: argparse.Namespace) -> int:
    from cog_tasks.egosocial.inspect.report import report_logs

    paths, skipped_note = report_logs(
        Path(args.log_dir), args.out, set(args.status), pool_seeds=args.pool_seeds
    )
    for path in paths:
        print(path)
    if skipped_note:
        print(skipped_note)
    return 0


def _judge_agreement(args: argparse.Namespace) -> int:
    from cog_tasks.egosocial.inspect.judge_check import judge_agreement

    result = judge_agreement(args.grader, dict(args.model_args), args.max_tokens)
    for line in result.lines():
        print(line)
    return 0


def _chance_setup(args: argparse.Namespace) -> tuple[Task, Any]:
    import cog_tasks.egosocial.inspect as tasks
    from cog_tasks.egosocial.inspect.chance import ChanceAnswerer

    task = getattr(tasks, args.task)
    return task(**task_arguments(task, args.task_args)), ChanceAnswerer(args.seed)


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``egosocial`` command group to the ``cog-tasks`` parser."""
    group = subparsers.add_parser("egosocial", help="EgoSocialArena: opponents, reports, baseline")
    commands = group.add_subparsers(dest="egosocial_command", metavar="COMMAND", required=True)
    train = commands.add_parser(
        "train-opponents",
        help="train the DQN hold'em opponents (seeded) and write weights + SHA-256 files",
    )
    train.add_argument("--seed", type=int, default=0, help="seed for everything (default 0)")
    train.add_argument(
        "--episodes", type=positive_int, default=6000, help="training hands per opponent"
    )
    train.add_argument(
        "--style",
        action="append",
        choices=("aggressive", "conservative"),
        help="train only this style (repeatable; default both)",
    )
    add_out_option(
        train,
        "output folder; the package's shipped weights are replaced only when it names "
        "their folder (cog_tasks/egosocial/opponents/weights)",
        required=True,
    )
    train.set_defaults(func=_train_opponents)
    report = commands.add_parser(
        "report",
        help="tables, JSON and PNGs with 95 %% intervals from Inspect logs, one row per run, "
        "reference rows on the same items",
    )
    report.add_argument("log_dir", help="folder with Inspect .eval/.json logs")
    add_out_option(report, "folder for the PNGs and summary (default: a new ./egosocial-report)")
    add_status_option(report)
    report.add_argument(
        "--pool-seeds",
        action="store_true",
        help="pool runs that differ only by seed into one row (the report says so); "
        "by default every log is its own row",
    )
    report.set_defaults(func=_report)
    judge = commands.add_parser(
        "judge-agreement",
        help="grade the 35 hand-labelled blackjack beliefs with a judge model and print its "
        "agreement with the labels (95 %% interval)",
    )
    judge.add_argument("--grader", required=True, help="Inspect model name of the judge")
    add_name_value_option(judge, "-M", "model_args", "a model argument, as inspect's -M")
    judge.add_argument(
        "--max-tokens", type=positive_int, default=None, help="most tokens per judge reply"
    )
    judge.set_defaults(func=_judge_agreement)
    chance = add_chance_command(
        commands,
        "run a task with a seeded uniform-random valid answerer (chance reference)",
        _chance_setup,
    )
    chance.add_argument(
        "task", choices=("egosocial_static", "egosocial_number_guessing", "egosocial_holdem")
    )
