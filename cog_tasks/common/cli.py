"""The CLI kit every ``cog-tasks`` command group shares; it imports no framework."""

from __future__ import annotations

import argparse
import functools
import importlib
import math
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from cog_tasks.common.errors import UserError
from cog_tasks.common.logs import LOG_STATUSES, SUCCESS_ONLY

if TYPE_CHECKING:
    from inspect_ai import Task
    from inspect_ai.log import EvalLog

    from cog_tasks.common.spec import BenchmarkSpec


Parser = argparse.ArgumentParser
Namespace = argparse.Namespace
Command = Callable[[Namespace], int]
INTERRUPTED = "interrupted; run the same command again to resume"
"""What a command prints when it is interrupted."""
INTERRUPT_EXIT = 130  # The exit code of an interrupted command (128 + SIGINT), as a shell gives it.
HTTP_CLIENTS = ("httpx", "httpx2")  # Modules whose ``TransportError`` is a user error.
DEFAULT_STATUSES: tuple[str, ...] = tuple(SUCCESS_ONLY)  # What ``--status`` reads by default.


def comma_list(text: str) -> list[str]:
    """Read ``a,b,c`` as ``["a", "b", "c"]``, refusing an empty or repeated item."""
    items = [item.strip() for item in text.split(",")]
    if not all(items):
        raise argparse.ArgumentTypeError(
            f"empty item in {text!r}: give names separated by single commas, such as a,b"
        )
    if repeated := sorted({item for item in items if items.count(item) > 1}):
        raise argparse.ArgumentTypeError(
            f"{', '.join(repeated)} given twice in {text!r}; give each once"
        )
    return items


def comma_list_of(choices: Sequence[str]) -> Callable[[str], list[str]]:
    """A :func:`comma_list` argparse ``type`` that accepts only ``choices``."""

    def parse(text: str) -> list[str]:
        items = comma_list(text)
        if unknown := [item for item in items if item not in choices]:
            raise argparse.ArgumentTypeError(
                f"unknown {', '.join(map(repr, unknown))}; choose from {', '.join(choices)}"
            )
        return items

    return parse


class _StatusAction(argparse.Action):
    """Collects ``--status`` lists; the first use replaces the default."""

    def __call__(self, parser: Parser, namespace: Namespace, values: Any, flag: Any = None) -> None:
        current = getattr(namespace, self.dest)
        chosen = set(values) | (set() if current is self.default else set(current))
        setattr(namespace, self.dest, tuple(s for s in LOG_STATUSES if s in chosen))


def add_status_option(parser: Parser) -> None:
    """Add ``--status STATUS[,STATUS...]`` (repeatable): a tuple of Inspect log statuses to read."""
    parser.add_argument(
        "--status",
        action=_StatusAction,
        type=comma_list_of(LOG_STATUSES),
        default=DEFAULT_STATUSES,
        metavar="STATUS[,STATUS...]",
        help=f"Inspect log statuses to read, from {', '.join(LOG_STATUSES)} "
        "(repeatable; default: success)",
    )


class _OutAction(argparse.Action):
    """Stores the output path in ``out``, whichever name gave it; twice is an error."""

    def __call__(self, parser: Parser, namespace: Namespace, values: Any, flag: Any = None) -> None:
        if values is None:  # the old positional form, not given
            return
        if getattr(namespace, "out", None) not in (None, self.default):
            parser.error("give the output once, with --out")
        namespace.out = values


def add_out_option(
    parser: Parser,
    help_text: str,
    *,
    old: Sequence[str] = (),
    old_positional: str | None = None,
    required: bool = False,
    default: Any = None,
) -> None:
    """Add ``--out PATH`` (``args.out``); old names stay as deprecated aliases."""
    plural = "s" if len(old) > 1 else ""
    note = f" ({', '.join(old)}: deprecated name{plural} of --out)" if old else ""
    parser.add_argument(
        "--out",
        *old,
        dest="out",
        action=_OutAction,
        type=Path,
        required=required and old_positional is None,
        default=default,
        metavar="PATH",
        help=f"{help_text}{note}",
    )
    if old_positional is not None:
        parser.add_argument(
            "old_out",
            nargs="?",
            action=_OutAction,
            type=Path,
            default=None,
            metavar=old_positional,
            help=argparse.SUPPRESS,
        )


class UsageError(UserError):
    """A command line that cannot be carried out as given."""


def required_out(args: Namespace) -> Any:
    """``args.out`` of a command whose output may still come positionally (:class:`UsageError`)."""
    if args.out is None:
        raise UsageError("the following argument is required: --out")
    return args.out


def _network_errors() -> tuple[type[Exception], ...]:
    """The transport errors of the HTTP clients imported so far (start-up imports none)."""
    loaded = (sys.modules[name] for name in HTTP_CLIENTS if name in sys.modules)
    return tuple(module.TransportError for module in loaded if hasattr(module, "TransportError"))


def print_error(program: str, error: BaseException) -> int:
    """Print ``<program>: error: <message>`` on one line to standard error; return 2."""
    print(f"{program}: error: {_one_line(error)}", file=sys.stderr)
    return 2


def _one_line(error: BaseException) -> str:
    if isinstance(error, _network_errors()):
        request = getattr(error, "_request", None)  # ``error.request`` raises when unset
        where = f" {request.url}" if request is not None else ""
        message = f"cannot reach{where}: {error}"
    elif isinstance(error, OSError) and error.filename is not None and error.strerror:
        message = f"{error.filename}: {error.strerror}"
    else:
        message = str(error) or type(error).__name__
    from cog_tasks.common.secrets import redact_text

    return redact_text(" ".join(line.strip() for line in message.splitlines() if line.strip()))


def is_user_error(error: BaseException) -> bool:
    """Whether ``error`` means bad input (one line) rather than a bug (a traceback)."""
    return isinstance(error, (UserError, OSError, *_network_errors()))


def guarded(command: Command, program: str) -> Command:
    """Wrap a command: user errors print one line (exit 2), an interrupt :data:`INTERRUPTED`."""

    @functools.wraps(command)
    def run(args: Namespace) -> int:
        from cog_tasks.common.files import begin_command, terminate_as_interrupt

        begin_command(force=bool(getattr(args, "force", False)))
        try:
            with terminate_as_interrupt():
                return command(args)
        except KeyboardInterrupt:
            print(f"{program}: {INTERRUPTED}", file=sys.stderr)
            return INTERRUPT_EXIT
        except Exception as error:
            if not is_user_error(error):
                raise
            return print_error(program, error)

    run.guarded_program = program  # type: ignore[attr-defined]
    return run


def command_parsers(parser: Parser) -> Iterator[Parser]:
    """Every parser of the tree that has no subcommands, each once, in the order added."""
    groups = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not groups:
        yield parser
        return
    seen: set[int] = set()
    for group in groups:
        for child in group.choices.values():
            if id(child) not in seen:
                seen.add(id(child))
                yield from command_parsers(child)


def guard_commands(parser: Parser) -> None:
    """Wrap every command's ``func`` under ``parser`` with :func:`guarded`, adding ``--force``."""
    for command in command_parsers(parser):
        if "--force" not in command._option_string_actions:
            add_force_option(command)
        function = command.get_default("func")
        if function is not None and not hasattr(function, "guarded_program"):
            command.set_defaults(func=guarded(function, command.prog))


def name_value(entry: str) -> tuple[str, Any]:
    """Read one ``NAME=VALUE`` argument as Inspect reads ``-T``/``-M`` (the value as YAML)."""
    name, separator, value = entry.partition("=")
    if not separator or not name.strip():
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {entry!r}")
    if not value.strip():
        raise argparse.ArgumentTypeError(
            f"{entry!r}: no value; leave {name.strip()} out for its default"
        )
    try:
        return name.strip(), yaml.safe_load(value)
    except yaml.YAMLError as error:
        problem = getattr(error, "problem", None) or type(error).__name__
        raise argparse.ArgumentTypeError(f"{entry!r}: not a YAML value ({problem})") from error


class _NameValueAction(argparse.Action):
    """Appends ``(name, value)`` pairs; a name given twice is an error, not the last one kept."""

    def __call__(self, parser: Parser, namespace: Namespace, values: Any, flag: Any = None) -> None:
        pairs = list(getattr(namespace, self.dest) or [])
        name = values[0]
        if any(given == name for given, _ in pairs):
            parser.error(f"{flag} {name}= given twice; give each name once")
        setattr(namespace, self.dest, [*pairs, values])


def add_name_value_option(parser: Parser, flag: str, dest: str, help_text: str) -> None:
    """Add a repeatable ``FLAG NAME=VALUE`` option: a list of ``(name, value)`` pairs."""
    parser.add_argument(
        flag,
        dest=dest,
        type=name_value,
        action=_NameValueAction,
        default=[],
        metavar="NAME=VALUE",
        help=f"{help_text} (repeatable, each name once)",
    )


def count_at_least(minimum: int) -> Callable[[str], int]:
    """An argparse ``type`` reading an integer of at least ``minimum``."""
    return _at_least(int, minimum, f"an integer >= {minimum}")


def number_at_least(minimum: float) -> Callable[[str], float]:
    """An argparse ``type`` reading a finite number (no ``nan``, ``inf``) >= ``minimum``."""
    return _at_least(float, minimum, f"a number >= {minimum:g}")


def _at_least(read: Callable[[str], Any], minimum: float, expected: str) -> Callable[[str], Any]:
    def parse(text: str) -> Any:
        try:
            value = read(text)
        except ValueError:
            value = math.nan
        if not minimum <= value < math.inf:
            raise argparse.ArgumentTypeError(f"expected {expected}, got {text!r}")
        return value

    return parse


positive_int = count_at_least(1)  # An argparse ``type`` reading an integer >= 1.


def add_command(
    commands: argparse._SubParsersAction, name: str, func: Command, help_text: str, **options: Any
) -> Parser:
    """Add the subcommand ``name`` that runs ``func`` (``options``: of ``add_parser``)."""
    parser = commands.add_parser(name, help=help_text, **options)
    parser.set_defaults(func=func)
    return parser


def add_flag(parser: Parser, flag: str, help_text: str) -> None:
    """Add an on/off option (``store_true``)."""
    parser.add_argument(flag, action="store_true", help=help_text)


def add_force_option(parser: Parser) -> None:
    """Add ``--force``: write over an existing output (checked by ``files.new_output``)."""
    add_flag(parser, "--force", "write over the output file if it exists")


def task_arguments(task: Callable[..., Any], pairs: Sequence[tuple[str, Any]]) -> dict[str, Any]:
    """``-T`` pairs as keyword arguments of ``task``; an unknown name is a :class:`UsageError`."""
    import inspect

    known = list(inspect.signature(task).parameters)
    arguments = dict(pairs)
    if unknown := [name for name in arguments if name not in known]:
        raise UsageError(
            f"unknown task parameter(s) {', '.join(unknown)} of {task.__name__}; "
            f"parameters: {', '.join(known)}"
        )
    return arguments


ChanceSetup = Callable[[Namespace], tuple["Task", Any]]


def spec_chance(spec: BenchmarkSpec, task: str, **fixed: Any) -> ChanceSetup:
    """The chance setup of ``spec``'s ``task``: ``fixed`` and ``-T`` arguments, seeded answerer."""

    def setup(args: Namespace) -> tuple[Task, Any]:
        function = getattr(importlib.import_module(spec.task_module), task)
        task_args = {**fixed, **task_arguments(function, args.task_args)}
        answerer = spec.chance_answerer(task_args, args.seed)  # refuses bad input before the run
        return function(**task_args), answerer

    return setup


def headline_scores(log: EvalLog) -> list[str]:
    """One line per scorer of a finished log: each metric with its 95 % interval."""
    from cog_tasks.common.stats import interval_from_metrics

    if log.results is None:
        return []
    lines = []
    for score in log.results.scores:
        values = {name: metric.value for name, metric in score.metrics.items()}
        shown = []
        for name, value in values.items():
            if name.rsplit("_", 1)[0] in values and name.endswith(("_n", "_stderr")):
                continue
            if name.endswith(("_ci_low", "_ci_high")) and name.rsplit("_ci_", 1)[0] in values:
                continue
            bounds = (
                interval_from_metrics(name, values).bounds_text() if f"{name}_n" in values else ""
            )
            shown.append(f"{name}={value:.4g} {bounds}".rstrip())
        lines.append(f"{score.name}: {', '.join(shown)}")
    return lines


def _run_chance(args: Namespace) -> int:
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
) -> Parser:
    """Add a benchmark's seeded ``chance`` command (``-T``, ``--seed``, ``--epochs``, ...)."""
    chance = add_command(commands, "chance", _run_chance, help_text)
    add_name_value_option(chance, "-T", "task_args", "task argument, as in inspect eval -T")
    chance.add_argument("--seed", type=int, default=0, help="seed of the random answers")
    chance.add_argument("--epochs", type=positive_int, default=1, help="repeats of every sample")
    chance.add_argument(
        "--limit", type=positive_int, help="evaluate only the first N samples (N >= 1)"
    )
    chance.add_argument("--log-dir", default="logs", help="Inspect log directory (default: logs)")
    chance.set_defaults(chance_setup=setup)
    return chance
