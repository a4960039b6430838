"""Options and commands that several ``cog-tasks`` command groups share.

- :func:`name_value` / :func:`add_name_value_option`: ``-T``/``-M`` ``NAME=VALUE``
  arguments read as Inspect reads them;
- :func:`add_chance_command`: a benchmark's seeded ``chance`` command;
- :func:`reporting_user_errors`: one-line error messages and exit code 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import yaml

if TYPE_CHECKING:
    from inspect_ai import Task
    from inspect_ai.log import EvalLog


Command = Callable[[argparse.Namespace], int]


def reporting_user_errors(
    program: str, errors: tuple[type[Exception], ...]
) -> Callable[[Command], Command]:
    """Make a command print ``<program>: error: <message>`` and return 2 on ``errors``.

    Args:
        program: How the command group is named in messages (``cog-tasks cogeval``).
        errors: The exception types that mean bad input rather than a bug.

    Returns:
        A decorator for command functions.
    """

    def decorate(command: Command) -> Command:
        def run(args: argparse.Namespace) -> int:
            try:
                return command(args)
            except errors as error:
                message = error.args[0] if isinstance(error, KeyError) and error.args else error
                print(f"{program}: error: {message}", file=sys.stderr)
                return 2

        return run

    return decorate


def name_value(entry: str) -> tuple[str, Any]:
    """Read one ``NAME=VALUE`` argument as Inspect reads ``-T``/``-M`` (the value as YAML).

    Use it as an argparse ``type``: ``false`` becomes False, ``3`` becomes 3,
    ``a,b`` stays a string.

    Args:
        entry: The text after ``-T`` or ``-M``.

    Returns:
        The name and the parsed value.

    Raises:
        argparse.ArgumentTypeError: If the entry has no ``=``.
    """
    name, separator, value = entry.partition("=")
    if not separator or not name.strip():
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {entry!r}")
    return name.strip(), yaml.safe_load(value)


def add_name_value_option(
    parser: argparse.ArgumentParser, flag: str, dest: str, help_text: str
) -> None:
    """Add a repeatable ``FLAG NAME=VALUE`` option read by :func:`name_value`.

    The parsed value is a list of ``(name, value)`` pairs; ``dict()`` it.

    Args:
        parser: The parser to extend.
        flag: The option, such as ``-T`` or ``-M``.
        dest: The attribute name on the parsed namespace.
        help_text: What one entry is.
    """
    parser.add_argument(
        flag,
        dest=dest,
        type=name_value,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help=f"{help_text} (repeatable)",
    )


ChanceSetup = Callable[[argparse.Namespace], tuple["Task", Any]]


def headline_scores(log: EvalLog) -> list[str]:
    """One line per scorer of a finished log: its metrics as ``name=value``.

    Args:
        log: An Inspect log with results.

    Returns:
        Lines such as ``choice: accuracy=0.512, stderr=0.014`` (empty without results).
    """
    if log.results is None:
        return []
    lines = []
    for score in log.results.scores:
        metrics = ", ".join(f"{name}={metric.value:.4g}" for name, metric in score.metrics.items())
        lines.append(f"{score.name}: {metrics}")
    return lines


def _run_chance(args: argparse.Namespace) -> int:
    from cog_tasks.common.scripted import run_chance_model

    task, answerer = args.chance_setup(args)
    log = run_chance_model(task, answerer, args.log_dir, args.epochs, args.limit)
    samples = log.results.total_samples if log.results else 0
    print(f"chance baseline on {log.eval.task} (seed {args.seed}, {samples} samples):")
    for line in headline_scores(log):
        print(f"  {line}")
    print(f"log: {log.location}")
    return 0


def add_chance_command(
    commands: argparse._SubParsersAction, help_text: str, setup: ChanceSetup
) -> argparse.ArgumentParser:
    """Add a benchmark's ``chance`` command with the options every benchmark shares.

    The options are ``-T NAME=VALUE`` (repeatable; parsed into ``task_args``
    as a list of pairs), ``--seed``, ``--epochs``, ``--limit`` and
    ``--log-dir``; the caller may add more. The command evaluates the task
    that ``setup`` builds with ``mockllm/chance`` answering through the
    ``custom_outputs`` it builds.

    Args:
        commands: The benchmark group's subparsers.
        help_text: One line on what the chance model answers.
        setup: Takes the parsed arguments, returns ``(Inspect task, seeded answerer)``.

    Returns:
        The new parser.
    """
    chance = commands.add_parser("chance", help=help_text)
    add_name_value_option(chance, "-T", "task_args", "task argument, as in inspect eval -T")
    chance.add_argument("--seed", type=int, default=0, help="seed of the random answers")
    chance.add_argument("--epochs", type=int, default=1, help="repeats of every sample")
    chance.add_argument("--limit", type=int, help="evaluate only the first N samples")
    chance.add_argument("--log-dir", default="logs", help="Inspect log directory (default: logs)")
    chance.set_defaults(func=_run_chance, chance_setup=setup)
    return chance
