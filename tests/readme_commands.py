"""The commands of the five READMEs, read and checked for what they mean, without running a model.

:func:`readme_commands` reads a README's ``bash`` blocks (continued lines
joined, comments dropped, a synopsis' ``[--option]`` parts left out, the
body of a ``for`` loop kept with every value of its loop variables).
:func:`expand` lets bash expand a command with the README's assignments, the
``cog-tasks`` program replaced by a stub that records its calls and prints a
stand-in path (``$(cog-tasks model-path smollm2)`` converts no model).
:func:`parse` reads each program call with its own program's parser, taken
from the program's public entry point: lm-eval's ``HarnessCLI`` (the
``lm_eval`` console script's module), the ``inspect`` console script's
click group, ``cog_tasks.cli.build_parser``, Accelerate's
``launch_command_parser``. :func:`problems` then checks what the parsed call
names: tasks in their registry and built with the README's ``-T`` values,
model arguments against the provider's constructor or an explicit list,
embedded model names, extras, Python imports.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import functools
import importlib
import inspect
import io
import itertools
import re
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from importlib.metadata import entry_points, metadata
from pathlib import Path
from typing import Any
from unittest import mock

import click
import yaml

REPO_ROOT = Path(__file__).resolve().parents[1]
READMES = [REPO_ROOT / "README.md", *sorted((REPO_ROOT / "cog_tasks").glob("*/README.md"))]
PROGRAMS = ("cog-tasks", "inspect", "lm_eval", "lm-eval", "accelerate", "python", "pip")
ASSIGNMENT = re.compile(r"^(export\s+)?([A-Za-z_]\w*)=(.*)$")
LOOP = re.compile(r"for (\w+) in ([^;]+); do")
STAND_IN = re.compile(r"<[^<>\s]+>|\.\.\.(?=$|[,\s:])|^[A-Z][A-Z0-9_]*(\.[a-z]+)?/?$")
"""A file named as the user's: ``<dir>``, ``...``, or capitals (``SCORES.csv``, ``LOGDIR``)."""

MODEL_STUB = Path("/cog-tasks-model-path")
"""Where the ``cog-tasks`` stub puts ``model-path NAME`` (as ``MODEL_STUB/NAME``)."""

STUB_OUTPUT = "cog-tasks-stub-output"
"""What the ``cog-tasks`` stub prints for any other command (an erasure prompt, say)."""

INSPECT_LOG_DIR = "logs"
"""Inspect's log folder when ``--log-dir`` is not given."""

HF_MODEL_ARGS = frozenset(
    {
        "model_path",
        "tokenizer_path",
        "device",
        "batch_size",
        "chat_template",
        "use_chat_template",
        "tokenizer_call_args",
        "enable_thinking",
        "hidden_states",
        "do_sample",
        "trust_remote_code",
        "auto_model_class",
        "torch_dtype",
        "dtype",
    }
)
"""``-M`` keys of Inspect's ``hf`` provider, whose constructor takes ``**model_args``.

The first twelve are the ones it reads itself (inspect_ai's ``hf.py``,
``collect_model_arg``); the dtypes go on to ``from_pretrained``.
"""

INSPECT_PROVIDER_ARGS: dict[str, frozenset[str]] = {
    "hf": HF_MODEL_ARGS,
    "openai": frozenset(),
    "anthropic": frozenset(),
    "mockllm": frozenset(),
    "llamacpp": frozenset({"context", "threads"}),
}
"""The Inspect providers the READMEs use, each with the ``-M`` keys a README may give it."""

LM_EVAL_KWARGS: dict[str, frozenset[str]] = {
    "vllm": frozenset({"gpu_memory_utilization"}),
}
"""``--model_args`` keys an lm-eval model forwards through ``**kwargs`` (VLLM: to ``vllm.LLM``)."""

USER_FILES = {
    ("cog_tasks/coglm/README.md", "predictions.jsonl"): "the user's predictions to score",
    (
        "cog_tasks/coglm/README.md",
        "result.json",
    ): "the authors' raw outputs (result/<model>/result.json)",
    (
        "cog_tasks/coglm/README.md",
        "../shared/data/coglm/result",
    ): "the authors' released replies, in the offline copy beside the checkout",
}
"""Inputs a README reads without a stand-in's form, each the user's (the README could say so)."""

OUTPUT_DESTS = frozenset({"out", "old_out", "log_dir", "output_path", "output_file"})
"""Parsed options that name what a command writes."""


class CommandError(Exception):
    """A README command that its program's parser, or a registry, refuses."""


@dataclass(frozen=True)
class Command:
    """One command of a README.

    Attributes:
        readme: The README, relative to the repository root.
        line: The line where the command starts.
        text: The command, continued lines joined, comments and ``[--option]`` parts dropped.
        assignments: The README's shell assignments before it.
        loops: The ``for`` loops around it: each loop variable with its values.
    """

    readme: str
    line: int
    text: str
    assignments: tuple[str, ...]
    loops: tuple[tuple[str, tuple[str, ...]], ...] = ()

    @property
    def id(self) -> str:
        """The test id: README and line."""
        return f"{self.readme}:{self.line}"

    def variants(self) -> list[tuple[str, ...]]:
        """The assignments for each combination of loop values (one tuple when there is no loop)."""
        names = [name for name, _ in self.loops]
        combinations = itertools.product(*(values for _, values in self.loops))
        return [
            self.assignments
            + tuple(
                f'{name}="{_in_double_quotes(value)}"'
                for name, value in zip(names, values, strict=True)
            )
            for values in combinations
        ]


def _in_double_quotes(value: str) -> str:
    """``value`` escaped for bash's double quotes, where ``$S`` still expands."""
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _logical_lines(text: str) -> Iterator[tuple[int, str]]:
    """The lines of the README's bash blocks: ``(line number, line)``, continuations joined."""
    inside, pending, start = False, "", 0
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith("```"):
            inside = line.strip() in ("```bash", "```sh")
            continue
        if not inside:
            continue
        if not pending:
            start = number
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        yield start, pending + line
        pending = ""


def _without_comment(line: str) -> str:
    """The line without its ``#`` comment (a ``#`` that starts a word, outside quotes)."""
    quote = ""
    for index, char in enumerate(line):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (index == 0 or line[index - 1].isspace()):
            return line[:index].strip()
    return line.strip()


def readme_commands(readme: Path) -> list[Command]:
    """The commands of one README, with the shell assignments and loops each one sees."""
    assignments: list[str] = []
    loops: list[tuple[str, tuple[str, ...]]] = []
    commands = []
    name = str(readme.relative_to(REPO_ROOT))
    for number, raw in _logical_lines(readme.read_text(encoding="utf-8")):
        line = _without_comment(raw)
        for variable, values in LOOP.findall(line):
            loops.append((variable, tuple(shlex.split(values))))
        line = LOOP.sub("", line).strip()
        if not line:
            continue
        if re.fullmatch(r"(done;?\s*)+", line):
            del loops[len(loops) - line.count("done") :]
            continue
        found = ASSIGNMENT.match(line)
        if found and not line.startswith(PROGRAMS):
            assignments.append(f"export {found[2]}={found[3]}")
            continue
        text = re.sub(r"\s*\[-[^\]]*\]", "", line)  # a synopsis' [--optional] parts
        commands.append(Command(name, number, text, tuple(assignments), tuple(loops)))
    return commands


ALL_COMMANDS = [command for readme in READMES for command in readme_commands(readme)]

STUBS = r"""
cog-tasks() {
  printf '%s\x1f' "$@" >> "$COG_TASKS_CALLS"; printf '\n' >> "$COG_TASKS_CALLS"
  case "$1" in
    model-path) printf '%s/%s\n' "$MODEL_STUB" "${2:-smollm2}" ;;
    tasks-path) printf '%s\n' "$TASKS_PATH" ;;
    *) printf '%s\n' "$STUB_OUTPUT" ;;
  esac
}
ls() { printf '%s\n' "$@"; }
"""
"""Bash stand-ins for ``cog-tasks`` (its calls recorded) and ``ls`` (which prints its glob)."""


@dataclass(frozen=True)
class Expanded:
    """A command's words after bash's expansion, and the ``cog-tasks`` calls inside ``$(...)``."""

    words: list[str]
    nested: list[list[str]]


def expand(text: str, assignments: Sequence[str]) -> Expanded:
    """Expand ``text`` as bash would after ``assignments``, with the stubs, in an empty folder.

    Args:
        text: One program call of a README command.
        assignments: The README's assignments (and loop values) before it.

    Returns:
        The words and the nested ``cog-tasks`` calls.

    Raises:
        CommandError: If bash cannot expand the text.
    """
    from cog_tasks.cli import tasks_path

    quoted = re.sub(r"<[^<>]+>", lambda m: shlex.quote(m[0]), text)  # not a redirection
    with tempfile.TemporaryDirectory() as folder:
        calls = Path(folder) / "calls"
        calls.touch()
        script = "\n".join([STUBS, *assignments, f"set -- {quoted}", 'printf "%s\\0" "$@"'])
        environment = {
            "PATH": "/usr/bin:/bin",
            "COG_TASKS_CALLS": str(calls),
            "MODEL_STUB": str(MODEL_STUB),
            "TASKS_PATH": str(tasks_path()),
            "STUB_OUTPUT": STUB_OUTPUT,
        }
        done = subprocess.run(
            ["bash", "-s"],
            input=script,
            cwd=folder,
            env=environment,
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0 or done.stderr:
            raise CommandError(f"bash cannot expand `{text}`: {done.stderr.strip()}")
        nested = [line.split("\x1f")[:-1] for line in calls.read_text().splitlines()]
    return Expanded(done.stdout.split("\0")[:-1], nested)


def split_parts(text: str) -> list[str]:
    """The program calls of a command joined by ``&&``."""
    return [part.strip() for part in text.split("&&")]


@dataclass
class Parsed:
    """One program call, read by its program's parser.

    Attributes:
        program: ``cog-tasks``, ``lm-eval``, ``inspect eval``, ``inspect score``, ``python``,
            ``pip`` or ``tool`` (ruff, pytest).
        words: The words after the program (and its subcommand).
        args: The parser's result: an argparse namespace or click's parameters.
        inputs: The files or folders it reads.
        outputs: The files or folders it writes.
        our_lm_eval: For lm-eval: whether it runs through ``cog-tasks lm-eval``.
    """

    program: str
    words: list[str]
    args: Any = None
    inputs: list[str] = field(default_factory=list)
    outputs: list[str] = field(default_factory=list)
    our_lm_eval: bool = False


def _quietly_parse(parse: Any, what: str) -> Any:
    """Run an argparse parse, turning its exit (and its message on stderr) into CommandError."""
    errors = io.StringIO()
    try:
        with contextlib.redirect_stderr(errors), contextlib.redirect_stdout(io.StringIO()):
            return parse()
    except SystemExit as exit_:
        raise CommandError(f"{what}: {errors.getvalue().strip() or exit_}") from None


@functools.cache
def cog_tasks_parser() -> argparse.ArgumentParser:
    """The ``cog-tasks`` parser (``cog_tasks.cli.build_parser``)."""
    from cog_tasks.cli import build_parser

    return build_parser()


@functools.cache
def inspect_group() -> click.Group:
    """The click group that the ``inspect`` console script runs, from its entry point."""
    script = entry_points(group="console_scripts")["inspect"]
    module = sys.modules[script.load().__module__]
    [group] = [
        value
        for value in vars(module).values()
        if isinstance(value, click.Group) and value.name == script.name
    ]
    return group


def parse_lm_eval(words: Sequence[str], ours: bool) -> Parsed:
    """Read lm-eval arguments with lm-eval's own ``HarnessCLI`` (``run`` inserted as it does).

    Args:
        words: lm-eval's arguments, with or without a subcommand.
        ours: Whether ``cog-tasks lm-eval`` runs it (which adds ``--include_path``).

    Returns:
        The parsed call.
    """
    from lm_eval.__main__ import HarnessCLI

    from cog_tasks.cli import LM_EVAL_SUBCOMMANDS, tasks_path

    rest = list(words)
    subcommand = rest.pop(0) if rest and rest[0] in LM_EVAL_SUBCOMMANDS else "run"
    if ours:
        rest = ["--include_path", str(tasks_path()), *rest]
    argv = ["lm-eval", subcommand, *rest]
    with mock.patch.object(sys, "argv", argv):
        args = _quietly_parse(lambda: HarnessCLI().parse_args(), "lm-eval")
    outputs = [args.output_path] if getattr(args, "output_path", None) else []
    return Parsed("lm-eval", rest, args, outputs=outputs, our_lm_eval=ours)


def parse_cog_tasks(words: Sequence[str]) -> Parsed:
    """Read ``cog-tasks`` arguments with its parser; its path arguments are inputs or outputs."""
    if words and words[0] == "lm-eval":
        return parse_lm_eval(words[1:], ours=True)
    parser = cog_tasks_parser()
    args = _quietly_parse(lambda: parser.parse_args(list(words)), "cog-tasks")
    parsed = Parsed("cog-tasks", list(words), args)
    for action in _chosen_parser(parser, args)._actions:
        value = getattr(args, action.dest, None)
        if value is None or action.choices is not None or action.dest in ("help", "name"):
            continue
        values = [str(v) for v in (value if isinstance(value, list) else [value])]
        if action.dest in OUTPUT_DESTS and action.option_strings:
            parsed.outputs += values
        elif not action.option_strings or action.type is Path:
            parsed.inputs += [v.split(":")[0] for v in values]  # agreement's FILE:METHOD
    return parsed


def _chosen_parser(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Any:
    """The (sub)parser whose command the namespace holds: the one that set its ``func``."""
    from cog_tasks.common.cli import command_parsers

    function = getattr(args, "func", None)
    for candidate in command_parsers(parser):
        if function is not None and candidate.get_default("func") is function:
            return candidate
    return parser


def parse_inspect(words: Sequence[str]) -> Parsed:
    """Read ``inspect eval`` or ``inspect score`` with the click command of the console script."""
    if not words or words[0] not in ("eval", "score"):
        raise CommandError(f"inspect: only eval and score are checked, not {words[:1]}")
    command = inspect_group().commands[words[0]]
    try:
        context = command.make_context(f"inspect {words[0]}", list(words[1:]))
    except click.ClickException as error:
        raise CommandError(f"inspect {words[0]}: {error.format_message()}") from None
    params = context.params
    parsed = Parsed(f"inspect {words[0]}", list(words[1:]), params)
    if words[0] == "eval":
        parsed.outputs.append(params.get("log_dir") or INSPECT_LOG_DIR)
        parsed.inputs += [
            value
            for value in inspect_arguments(params["t"]).values()
            if isinstance(value, str) and re.search(r"\.(eval|json|jsonl)$|/\*", value)
        ]
    else:
        parsed.inputs.append(params["log_file"])
        parsed.outputs += [params["output_file"]] if params.get("output_file") else []
    return parsed


def inspect_arguments(pairs: Sequence[str]) -> dict[str, Any]:
    """``-T``/``-M``/``-S`` ``NAME=VALUE`` pairs read as Inspect's CLI reads them.

    The value is YAML; a plain string with commas becomes a list, and ``-`` in
    a name becomes ``_`` (inspect_ai's ``parse_cli_args``).
    """
    arguments: dict[str, Any] = {}
    for pair in pairs:
        name, separator, raw = pair.partition("=")
        if not separator:
            raise CommandError(f"expected NAME=VALUE, got {pair!r}")
        value = yaml.safe_load(raw)
        if isinstance(value, str) and "," in value:
            value = value.split(",")
        arguments[name.replace("-", "_")] = value
    return arguments


def parse_accelerate(words: Sequence[str]) -> Parsed:
    """Read ``accelerate launch ... -m lm_eval ARGS`` with Accelerate's parser, then lm-eval's."""
    from accelerate.commands.launch import launch_command_parser

    if not words or words[0] != "launch":
        raise CommandError("accelerate: only `accelerate launch` is checked")
    parser = launch_command_parser()
    launch = _quietly_parse(lambda: parser.parse_args(list(words[1:])), "accelerate launch")
    if not (launch.module and launch.training_script == "lm_eval"):
        raise CommandError("accelerate launch: expected -m lm_eval")
    return parse_lm_eval(launch.training_script_args, ours=False)


def parse(words: Sequence[str]) -> Parsed:
    """Read one program call with its program's parser.

    Args:
        words: The expanded words, the program first.

    Returns:
        The parsed call.

    Raises:
        CommandError: If the parser refuses the call, or the program is not one the READMEs use.
    """
    program, rest = words[0], list(words[1:])
    if program == "cog-tasks":
        return parse_cog_tasks(rest)
    if program in ("lm_eval", "lm-eval"):
        return parse_lm_eval(rest, ours=False)
    if program == "inspect":
        return parse_inspect(rest)
    if program == "accelerate":
        return parse_accelerate(rest)
    if program == "python":
        if rest[:1] == ["-c"]:
            return Parsed("python", rest)
        return Parsed("python", rest, inputs=rest[:1] + [w for w in rest[1:] if "/" in w])
    if program == "pip":
        return Parsed("pip", rest)
    if program in ("ruff", "pytest"):
        return Parsed("tool", rest)
    raise CommandError(f"unknown program {program!r}")


@functools.cache
def lm_eval_task_names(with_lm_eval_tasks: bool) -> frozenset[str]:
    """Task and group names lm-eval finds under this package (and its own, when asked)."""
    from lm_eval.tasks import TaskManager

    from cog_tasks.cli import tasks_path

    manager = TaskManager(include_path=str(tasks_path()), include_defaults=with_lm_eval_tasks)
    return frozenset(manager.all_tasks)


def lm_eval_model_parameters(name: str) -> frozenset[str]:
    """Keyword arguments of an lm-eval model: its ``__init__``'s, and its bases' via ``**kwargs``.

    VLLM's module imports vllm, which is not installed here: its parameters are
    read from lm-eval's source instead.
    """
    import lm_eval.models
    from lm_eval.api.registry import get_model

    if name == "vllm":
        source = Path(lm_eval.models.__file__).with_name("vllm_causallms.py").read_text()
        [init] = [
            node
            for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.ClassDef) and node.name == "VLLM"
            for node in node.body
            if isinstance(node, ast.FunctionDef) and node.name == "__init__"
        ]
        return frozenset(a.arg for a in init.args.args[1:] + init.args.kwonlyargs)
    found: set[str] = set()
    for cls in get_model(name).__mro__:
        if "__init__" not in vars(cls):
            continue
        parameters = inspect.signature(cls.__init__).parameters.values()
        found |= {p.name for p in parameters if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL)}
        if not any(p.kind is p.VAR_KEYWORD for p in parameters):
            break
    return frozenset(found - {"self"})


def _lm_eval_problems(parsed: Parsed) -> list[str]:
    """lm-eval: the model is registered, its arguments exist, the tasks resolve."""
    from lm_eval.api.registry import get_model

    import cog_tasks.common.shared_prefix  # noqa: F401  (registers hf-shared-prefix, as cog-tasks lm-eval does)
    from cog_tasks.cli import tasks_path

    args, found = parsed.args, []
    if args.command != "run":
        return found
    if args.model == "hf-shared-prefix" and not parsed.our_lm_eval:
        found.append("hf-shared-prefix is registered by cog-tasks lm-eval only, not by lm_eval")
    if args.model != "vllm":
        get_model(args.model)  # raises for an unknown model
    model_args = args.model_args if isinstance(args.model_args, dict) else {}
    known = lm_eval_model_parameters(args.model) | LM_EVAL_KWARGS.get(args.model, frozenset())
    found += [
        f"--model_args {key}: not a parameter of {args.model}"
        for key in model_args
        if key not in known
    ]
    if args.include_path and Path(args.include_path) != tasks_path():
        found.append(f"--include_path {args.include_path} is not cog-tasks tasks-path")
    tasks = args.tasks.split(",") if isinstance(args.tasks, str) else list(args.tasks or [])
    if not tasks:
        found.append("no --tasks")
    ours = set(tasks) <= lm_eval_task_names(False)
    if not ours and not set(tasks) <= lm_eval_task_names(True):
        found.append(f"tasks not found by lm-eval: {sorted(set(tasks) - lm_eval_task_names(True))}")
    return found


def _model_problems(model: str | None, model_args: dict[str, Any], where: str) -> list[str]:
    """An Inspect model name's provider is known, and its ``-M`` keys are the provider's."""
    if model is None:
        return [f"{where}: no model"] if model_args else []
    provider = model.split("/")[0]
    if provider == "chance":  # cog-tasks profile run's seeded chance answerers
        return []
    if provider not in INSPECT_PROVIDER_ARGS:
        return [f"{where}: provider {provider!r} has no entry in INSPECT_PROVIDER_ARGS"]
    unknown = sorted(set(model_args) - INSPECT_PROVIDER_ARGS[provider])
    found = [f"{where}: -M {key} is not an argument of the {provider} provider" for key in unknown]
    path = model_args.get("model_path")
    if isinstance(path, str):
        found += _model_path_problems(path, where)
    return found


def _model_path_problems(path: str, where: str) -> list[str]:
    """A model folder is one of ``cog-tasks model-path``'s embedded models."""
    from cog_tasks.common.models import EMBEDDED_MODELS

    folder = Path(path)
    if folder.parent == MODEL_STUB and folder.name not in EMBEDDED_MODELS:
        return [f"{where}: cog-tasks model-path has no model {folder.name!r}"]
    if folder.parent != MODEL_STUB and not STAND_IN.search(path):
        return [f"{where}: model_path {path} is neither cog-tasks model-path nor a stand-in"]
    return []


@functools.cache
def build_task(name: str, arguments: str) -> None:
    """Build the Inspect task ``name`` with the README's ``-T`` arguments (a YAML mapping).

    Inspect's own registry resolves the name (``registry_create``, which
    calls the ``@task`` function: unknown parameters and values its checks
    refuse raise). A task whose data is not on this machine (a download,
    offline) passes once its arguments are bound.
    """
    from inspect_ai.util import registry_create

    from cog_tasks.common.sources import DataSourceError

    entry_points(group="inspect_ai")["cog_tasks"].load()
    try:
        registry_create("task", name, **yaml.safe_load(arguments))
    except DataSourceError:
        pass


def _task_problems(name: str, arguments: dict[str, Any], where: str) -> list[str]:
    """An Inspect task resolves in the registry it names and accepts the README's arguments."""
    if not name.startswith("cog_tasks/"):
        return [f"{where}: task {name} is not in the cog_tasks registry"]
    try:
        build_task(name, yaml.safe_dump(arguments))
    except FileNotFoundError as error:
        if not any(isinstance(v, str) and v in str(error) for v in arguments.values()):
            return [f"{where}: {name} with {arguments}: {error}"]  # else an input, checked as one
    except (LookupError, TypeError, ValueError) as error:
        return [f"{where}: {name} with {arguments}: {type(error).__name__}: {error}"]
    return []


def _inspect_problems(parsed: Parsed) -> list[str]:
    """inspect eval/score: tasks (or the scorer) resolve; models and roles are well formed."""
    from inspect_ai.util import registry_create

    params = parsed.args
    if parsed.program == "inspect score":
        entry_points(group="inspect_ai")["cog_tasks"].load()
        try:
            registry_create("scorer", params["scorer"], **inspect_arguments(params["s"]))
        except (LookupError, TypeError, ValueError) as error:
            return [f"inspect score --scorer {params['scorer']}: {error}"]
        return []
    task_args = inspect_arguments(params["t"])
    found = [
        problem for task in params["tasks"] for problem in _task_problems(task, task_args, "-T")
    ]
    found += _model_problems(params["model"], inspect_arguments(params["m"]), "--model")
    for role in params["model_role"]:
        name, _, value = role.partition("=")
        spec = yaml.safe_load(value)
        if isinstance(spec, str):
            spec = {"model": spec}
        found += _model_problems(spec.get("model"), spec.get("model_args", {}), f"role {name}")
    return found


def _cog_tasks_problems(parsed: Parsed) -> list[str]:
    """cog-tasks: a chance command builds its task; models and model names are known."""
    from cog_tasks.common.models import EMBEDDED_MODELS
    from cog_tasks.common.sources import DataSourceError

    args, found = parsed.args, []
    if args.command == "model-path" and args.name not in EMBEDDED_MODELS:
        found.append(f"cog-tasks model-path: no embedded model {args.name!r}")
    if getattr(args, "chance_setup", None):
        try:
            args.chance_setup(args)  # builds the task with its -T values, and the answerer
        except DataSourceError:
            pass  # its data is not on this machine: the arguments were bound before the read
        except (TypeError, ValueError) as error:
            found.append(f"chance -T {dict(args.task_args)}: {type(error).__name__}: {error}")
    for model_dest, args_dest in (
        ("model", "model_args"),
        ("model", "model_arg"),
        ("grader", "model_args"),
        ("judge_model", "model_arg"),
    ):
        if hasattr(args, model_dest) and hasattr(args, args_dest):
            found += _model_problems(
                getattr(args, model_dest), dict(getattr(args, args_dest)), f"--{model_dest}"
            )
    for _, value in getattr(args, "model_roles", []):
        spec = {"model": value} if isinstance(value, str) else value
        found += _model_problems(spec.get("model"), spec.get("model_args", {}), "--model-role")
    return found


def _python_problems(parsed: Parsed) -> list[str]:
    """python -c: the code compiles and what it imports exists; python FILE: the file is ours."""
    if parsed.words[:1] != ["-c"]:
        script = REPO_ROOT / parsed.words[0]
        return [] if script.is_file() else [f"python {parsed.words[0]}: no such file in the repo"]
    tree = ast.parse(parsed.words[1])
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            module = importlib.import_module(node.module)
            found += [
                f"python -c: {node.module} has no {alias.name}"
                for alias in node.names
                if not hasattr(module, alias.name)
            ]
    return found


def _pip_problems(parsed: Parsed) -> list[str]:
    """pip install: every extra of this package it names is one the package declares."""
    extras = set(metadata("cog-tasks").get_all("Provides-Extra") or [])
    found = []
    for word in parsed.words:
        named = re.fullmatch(r"(?:\.|cog-tasks)\[([\w,-]+)\]", word)
        if named:
            found += [f"pip: no extra {e!r}" for e in named[1].split(",") if e not in extras]
    return found


def problems(parsed: Parsed) -> list[str]:
    """What the parsed call names that does not exist or is refused (empty when all is well)."""
    if parsed.program == "lm-eval":
        return _lm_eval_problems(parsed)
    if parsed.program.startswith("inspect "):
        return _inspect_problems(parsed)
    if parsed.program == "cog-tasks":
        return _cog_tasks_problems(parsed)
    if parsed.program == "python":
        return _python_problems(parsed)
    if parsed.program == "pip":
        return _pip_problems(parsed)
    return []


@dataclass(frozen=True)
class Call:
    """One program call of one variant of a README command, expanded and parsed."""

    command: Command
    expanded: Expanded
    parsed: Parsed


def calls(command: Command) -> list[Call]:
    """Every program call of every loop variant of ``command``, nested ``cog-tasks`` calls included.

    Raises:
        CommandError: If bash cannot expand it or a parser refuses it.
    """
    found = []
    for assignments in command.variants():
        for part in split_parts(command.text):
            expanded = expand(part, assignments)
            found.append(Call(command, expanded, parse(expanded.words)))
            found += [
                Call(command, Expanded(["cog-tasks", *words], []), parse_cog_tasks(words))
                for words in expanded.nested
            ]
    return found


@functools.cache
def written_before(readme: str, line: int) -> tuple[Path, ...]:
    """What the commands of ``readme`` before ``line`` write (their output paths)."""
    written = []
    for command in ALL_COMMANDS:
        if command.readme == readme and command.line < line:
            with contextlib.suppress(CommandError):
                written += [Path(out) for call in calls(command) for out in call.parsed.outputs]
    return tuple(written)


def input_problems(call: Call) -> list[str]:
    """Inputs that no earlier command of the README writes and that are not named as the user's.

    An input is the user's when it is a stand-in (``<dir>``, ``...``,
    ``SCORES.csv``, ``LOGDIR``) or a file of this repository.
    """
    written = written_before(call.command.readme, call.command.line)
    found = []
    for word in call.parsed.inputs:
        path = Path(word)
        if STAND_IN.search(word) or (REPO_ROOT / path).exists():
            continue
        if (call.command.readme, word) in USER_FILES:
            continue
        if not any(path == out or out in path.parents for out in written):
            found.append(f"reads {word}, which no earlier command of {call.command.readme} writes")
    return found
