"""The ``cog-tasks`` command.

Shared commands live here (``model-path``, ``tasks-path``, ``lm-eval``). Each
benchmark adds its own command group (``cog-tasks coglm ...``) from a
``cog_tasks/<benchmark>/cli.py`` module that defines
``register(subparsers: argparse._SubParsersAction) -> None``; the subparsers it
adds must set ``func`` to a callable taking the parsed namespace and returning
an exit code.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import pkgutil
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

import cog_tasks

if TYPE_CHECKING:
    from inspect_ai import Task

LM_EVAL_SUBCOMMANDS = ("run", "ls", "validate")


def tasks_path() -> Path:
    """Return the directory to pass to lm-eval's ``--include_path``."""
    return Path(__file__).resolve().parent / "lm_eval_tasks"


def _model_path(args: argparse.Namespace) -> int:
    from cog_tasks.models import embedded_model_path

    print(embedded_model_path(args.name))
    return 0


def _tasks_path(_: argparse.Namespace) -> int:
    print(tasks_path())
    return 0


def run_lm_eval(arguments: Sequence[str]) -> None:
    """Run lm-eval's own CLI with this package's tasks and models available.

    The task directory goes in as ``--include_path``; for ``run``, importing
    :mod:`cog_tasks.lm_eval_models.shared_prefix` registers the
    ``hf-shared-prefix`` model (lm-eval has no entry points for either).

    Args:
        arguments: lm-eval arguments, with or without a leading subcommand.
    """
    from lm_eval.__main__ import cli_evaluate

    rest = list(arguments)
    subcommand = rest.pop(0) if rest and rest[0] in LM_EVAL_SUBCOMMANDS else "run"
    if subcommand == "run":  # only runs load a model; ls/validate need no torch import
        import cog_tasks.lm_eval_models.shared_prefix  # noqa: F401
    sys.argv = ["lm-eval", subcommand, "--include_path", str(tasks_path()), *rest]
    cli_evaluate()


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


def _run_chance(args: argparse.Namespace) -> int:
    from cog_tasks.inspect_evals.scripted import run_chance_model

    task, answerer = args.chance_setup(args)
    run_chance_model(task, answerer, args.log_dir, args.epochs, args.limit)
    print(f"wrote the chance baseline log to {args.log_dir}")
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


def _benchmark_cli_modules() -> list[str]:
    """Names of ``cog_tasks.<benchmark>.cli`` modules that exist, sorted."""
    names = []
    for info in pkgutil.iter_modules(cog_tasks.__path__):
        candidate = f"cog_tasks.{info.name}.cli"
        if info.ispkg and importlib.util.find_spec(candidate) is not None:
            names.append(candidate)
    return sorted(names)


def build_parser() -> argparse.ArgumentParser:
    """Build the full argument parser, benchmark command groups included."""
    parser = argparse.ArgumentParser(
        prog="cog-tasks",
        description="Cognitive-science LLM benchmarks for lm-eval and Inspect.",
    )
    parser.add_argument("--version", action="version", version=cog_tasks.__version__)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    model = commands.add_parser(
        "model-path", help="print (and create on first use) a local HF directory of a model"
    )
    model.add_argument("name", nargs="?", default="smollm2", help="embedded model (smollm2)")
    model.set_defaults(func=_model_path)

    tasks = commands.add_parser("tasks-path", help="print the directory for lm-eval --include_path")
    tasks.set_defaults(func=_tasks_path)

    commands.add_parser(
        "lm-eval",
        help="run lm-eval with --include_path set: cog-tasks lm-eval --model hf ... --tasks coglm",
        add_help=False,
    )

    for module_name in _benchmark_cli_modules():
        importlib.import_module(module_name).register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``cog-tasks`` console script.

    Args:
        argv: Arguments without the program name; defaults to ``sys.argv[1:]``.

    Returns:
        The process exit code.
    """
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments and arguments[0] == "lm-eval":
        run_lm_eval(arguments[1:])
        return 0
    args = build_parser().parse_args(arguments)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
