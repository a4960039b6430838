"""The ``cog-tasks`` command: shared commands, then :data:`cog_tasks.commands.COMMAND_GROUPS`."""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import cog_tasks
from cog_tasks.commands import COMMAND_GROUPS
from cog_tasks.common.cli import comma_list, guard_commands, print_error
from cog_tasks.common.errors import UserError

LM_EVAL_SUBCOMMANDS = ("run", "ls", "validate")


def tasks_path() -> Path:
    """Return the directory to pass to lm-eval's ``--include_path``: the package root."""
    return Path(__file__).resolve().parent


def _model_path(args: argparse.Namespace) -> int:
    from cog_tasks.common.models import embedded_model_path

    print(embedded_model_path(args.name))
    return 0


def _tasks_path(_: argparse.Namespace) -> int:
    print(tasks_path())
    return 0


OUR_PREFIXES = ("coglm", "cogeval", "cogbench", "egosocial")
"""Our task names start so: another is a typo, refused up front."""


def check_lm_eval_arguments(arguments: Sequence[str]) -> None:
    """Refuse, before lm-eval loads a model, a ``--limit`` not above 0 and unknown tasks of ours."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--tasks", "-t", action="append", type=comma_list, default=[])
    parser.add_argument("--limit", "-L")
    known = parser.parse_known_args(arguments)[0]
    if known.limit is not None:
        try:
            limit = float(known.limit)
        except ValueError:
            limit = math.nan
        if not limit > 0 or math.isinf(limit):
            raise UserError(
                "--limit must be a positive number (a count, or a share below 1), "
                f"got {known.limit!r}"
            )
    names = [name for value in known.tasks for name in value if name.startswith(OUR_PREFIXES)]
    if names:
        from lm_eval.tasks import TaskManager

        ours = TaskManager(include_path=str(tasks_path()), include_defaults=False).all_tasks
        unknown = [name for name in names if name not in ours]
        if unknown:
            close = sorted(name for name in ours if name.startswith(unknown[0].split("_")[0]))
            raise UserError(
                f"--tasks: no task {unknown[0]!r}; tasks of this package: "
                f"{', '.join(close[:12])}..."
            )


def only_our_tasks(arguments: Sequence[str]) -> bool:
    """Whether every name given to ``--tasks``/``-t`` is a task or group of this package."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--tasks", "-t", action="append", type=comma_list, default=[])
    names = [name for value in parser.parse_known_args(arguments)[0].tasks for name in value]
    if not names:
        return False
    from lm_eval.tasks import TaskManager

    ours = TaskManager(include_path=str(tasks_path()), include_defaults=False).all_tasks
    return all(name in ours for name in names)


def run_lm_eval(arguments: Sequence[str]) -> None:
    """Run lm-eval's own CLI with this package's tasks and ``hf-shared-prefix`` model available."""
    from unittest import mock

    import lm_eval.tasks
    from lm_eval.__main__ import cli_evaluate

    rest = list(arguments)
    subcommand = rest.pop(0) if rest and rest[0] in LM_EVAL_SUBCOMMANDS else "run"
    if subcommand == "run":  # only runs load a model; ls/validate need no torch import
        import cog_tasks.common.shared_prefix  # noqa: F401
    sys.argv = ["lm-eval", subcommand, "--include_path", str(tasks_path()), *rest]
    if subcommand != "run" or not only_our_tasks(rest):
        cli_evaluate()
        return

    class OurTasksOnly(lm_eval.tasks.TaskManager):
        """lm-eval's task manager without lm-eval's built-in tasks in its index."""

        def __init__(self, *args: Any, include_defaults: bool = False, **kwargs: Any) -> None:
            super().__init__(*args, include_defaults=include_defaults, **kwargs)

    with mock.patch.object(lm_eval.tasks, "TaskManager", OurTasksOnly):
        cli_evaluate()


def build_parser() -> argparse.ArgumentParser:
    """Build the full argument parser, every command guarded (:func:`guard_commands`)."""
    parser = argparse.ArgumentParser(
        prog="cog-tasks", description="Cognitive-science LLM benchmarks for lm-eval and Inspect."
    )
    parser.add_argument("--version", action="version", version=cog_tasks.__version__)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    model = commands.add_parser(
        "model-path", help="print (and create on first use) a local HF directory of a model"
    )
    model.add_argument(
        "name",
        nargs="?",
        default="smollm2",
        help="embedded model: smollm2, gemma3-270m, qwen2.5-coder-1.5b",
    )
    model.set_defaults(func=_model_path)
    tasks = commands.add_parser("tasks-path", help="print the directory for lm-eval --include_path")
    tasks.set_defaults(func=_tasks_path)
    commands.add_parser(
        "lm-eval",
        help="run lm-eval with --include_path set: cog-tasks lm-eval --model hf ... --tasks coglm",
        add_help=False,
    )
    for module in COMMAND_GROUPS:
        module.register(commands)
    guard_commands(parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``cog-tasks`` console script; returns the exit code."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments and arguments[0] == "lm-eval":
        from cog_tasks.coglm.lm_eval.summary import now, print_summary
        from cog_tasks.common.cli import INTERRUPT_EXIT, INTERRUPTED
        from cog_tasks.common.files import terminate_as_interrupt

        try:
            with terminate_as_interrupt():  # SIGTERM says what SIGINT says
                rest = arguments[1:]
                if not rest or rest[0] not in LM_EVAL_SUBCOMMANDS[1:]:
                    check_lm_eval_arguments(rest)
                started = now()
                run_lm_eval(rest)
                print_summary(rest, started)
        except UserError as error:  # ours, raised inside lm-eval: the rest is lm-eval's own
            return print_error("cog-tasks lm-eval", error)
        except KeyboardInterrupt:
            print(f"cog-tasks lm-eval: {INTERRUPTED}", file=sys.stderr)
            return INTERRUPT_EXIT
        return 0
    args = build_parser().parse_args(arguments)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
