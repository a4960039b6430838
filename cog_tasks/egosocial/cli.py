"""``cog-tasks egosocial ...``: train opponents, plot reports, run the chance baseline."""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path

from cog_tasks.common import cli as kit
from cog_tasks.egosocial.spec import SPEC


def _train_opponents(args: argparse.Namespace) -> int:
    from cog_tasks.egosocial.opponents.holdem_dqn import STYLES, TrainingConfig, train_opponents

    directory = args.out
    config = TrainingConfig(seed=args.seed, episodes=args.episodes)
    options = ["--seed", str(args.seed), "--episodes", str(args.episodes)]
    options += [part for style in args.style or () for part in ("--style", style)]
    command = shlex.join(
        ["cog-tasks", "egosocial", "train-opponents", *options, "--out", str(directory)]
    )
    styles = tuple(args.style) if args.style else STYLES
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
    for line in [*paths, *([skipped_note] if skipped_note else [])]:
        print(line)
    return 0


def _judge_agreement(args: argparse.Namespace) -> int:
    from cog_tasks.egosocial.inspect.judge_check import judge_agreement

    for line in judge_agreement(args.grader, dict(args.model_args), args.max_tokens).lines():
        print(line)
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``egosocial`` command group to the ``cog-tasks`` parser."""
    group = subparsers.add_parser("egosocial", help="EgoSocialArena: opponents, reports, baseline")
    commands = group.add_subparsers(dest="egosocial_command", metavar="COMMAND", required=True)
    train = kit.add_command(
        commands,
        "train-opponents",
        _train_opponents,
        "train the DQN hold'em opponents (seeded) and write weights + SHA-256 files",
    )
    train.add_argument("--seed", type=int, default=0, help="seed for everything (default 0)")
    train.add_argument(
        "--episodes", type=kit.positive_int, default=6000, help="training hands per opponent"
    )
    train.add_argument(
        "--style",
        action="append",
        choices=("aggressive", "conservative"),
        help="train only this style (repeatable; default both)",
    )
    kit.add_out_option(
        train,
        "output folder; the package's shipped weights are replaced only when it names "
        "their folder (cog_tasks/egosocial/opponents/weights)",
        required=True,
    )
    report = kit.add_command(
        commands,
        "report",
        _report,
        "tables, JSON and PNGs with 95 %% intervals from Inspect logs, one row per run, "
        "reference rows on the same items",
    )
    report.add_argument("log_dir", help="folder with Inspect .eval/.json logs")
    kit.add_out_option(
        report, "folder for the PNGs and summary (default: a new ./egosocial-report)"
    )
    kit.add_status_option(report)
    kit.add_flag(
        report,
        "--pool-seeds",
        "pool runs that differ only by seed into one row (the report says so); "
        "by default every log is its own row",
    )
    judge = kit.add_command(
        commands,
        "judge-agreement",
        _judge_agreement,
        "grade the 35 hand-labelled blackjack beliefs with a judge model and print its "
        "agreement with the labels (95 %% interval)",
    )
    judge.add_argument("--grader", required=True, help="Inspect model name of the judge")
    kit.add_name_value_option(judge, "-M", "model_args", "a model argument, as inspect's -M")
    judge.add_argument(
        "--max-tokens", type=kit.positive_int, default=None, help="most tokens per judge reply"
    )
    chance = kit.add_chance_command(
        commands,
        "run a task with a seeded uniform-random valid answerer (chance reference)",
        lambda args: kit.spec_chance(SPEC, args.task)(args),
    )
    chance.add_argument("task", choices=[t for t in SPEC.tasks if t not in SPEC.judged_tasks])
