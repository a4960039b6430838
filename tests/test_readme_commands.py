"""Every command of the root README and of each benchmark README runs, offline, on SmolLM2.

The commands are read from the READMEs' ``bash`` blocks (continued lines
joined, comments dropped, ``[optional]`` parts of a synopsis left out, the body
of a ``for`` loop run once with each loop variable at its first value) and run
in README order, each README in a working folder of its own, so that a
command reading the logs or results of an earlier one finds them. Shell
variables assigned in a README (``M=$(cog-tasks model-path smollm2)``) are
expanded by bash; each command runs in a child process, within a timeout.

Each run is made small: ``--limit 1`` (``--limit`` kept when smaller),
``--epochs 1``, few tokens (``--max-tokens 8`` on Inspect, ``max_gen_toks=8``
on lm-eval), one hold'em hand or match, 10 training episodes. A Hub model or a
model stand-in (``pretrained=<dir>``, ``hf/<org>/<model>``) is replaced by
the embedded SmolLM2, since tests never download. A command is skipped, with
the reason shown, when it needs an API key (OpenAI, Anthropic), vLLM or a GPU,
installs packages or runs the test suite, runs lm-eval's own tasks (their
datasets download), or reads a file of the user's that the README names
without making it (a stand-in such as ``<log>``, or a missing input file).
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

import pytest

from cog_tasks.cli import only_our_tasks

REPO_ROOT = Path(__file__).resolve().parents[1]
READMES = [REPO_ROOT / "README.md", *sorted((REPO_ROOT / "cog_tasks").glob("*/README.md"))]
PROGRAMS = ("cog-tasks", "inspect", "lm_eval", "lm-eval", "accelerate", "python", "pip")
ASSIGNMENT = re.compile(r"^(export\s+)?([A-Za-z_]\w*)=(.*)$")
LOOP = re.compile(r"for (\w+) in ([^;]+); do")
STAND_IN = re.compile(r"<[^<>\s]+>|\.\.\.(?=$|[,\s])")
INPUT_SUFFIXES = (".json", ".jsonl", ".csv", ".eval")  # and whatever follows --log
SMALL_TOKENS = 8
COMMAND_TIMEOUT = 240  # seconds; one small item takes well under a minute


@dataclass(frozen=True)
class Command:
    """One command of a README.

    Attributes:
        readme: The README, relative to the repository root.
        line: The line where the command starts.
        text: The command, continued lines joined, comments and ``[optional]`` parts dropped.
        assignments: The README's shell assignments before it (loop variables included).
    """

    readme: str
    line: int
    text: str
    assignments: tuple[str, ...]

    @property
    def id(self) -> str:
        """The test id: README and line."""
        return f"{self.readme}:{self.line}"


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
    """The commands of one README, with the shell assignments each one sees."""
    assignments: list[str] = []
    commands = []
    loops: list[int] = []  # how many loop variables each open loop line set
    name = str(readme.relative_to(REPO_ROOT))
    for number, raw in _logical_lines(readme.read_text(encoding="utf-8")):
        line = _without_comment(raw)
        if not line:
            continue
        for variable, values in LOOP.findall(line):
            first = shlex.split(values)[0].replace("\\", "\\\\").replace('"', '\\"')
            assignments.append(f'{variable}="{first}"')  # quoted: a value may hold spaces
            loops.append(1)
        line = LOOP.sub("", line).strip()
        if not line:
            continue
        if re.fullmatch(r"(done;?\s*)+", line):
            for _ in range(line.count("done")):
                del assignments[-loops.pop() :]
            continue
        found = ASSIGNMENT.match(line)
        if found and not line.startswith(PROGRAMS):
            assignments.append(f"export {found[2]}={found[3]}")
            continue
        text = re.sub(r"\s*\[[^\]]*\]", "", line)  # a synopsis' [optional] parts
        commands.append(Command(name, number, text, tuple(assignments)))
    return commands


ALL_COMMANDS = [command for readme in READMES for command in readme_commands(readme)]


def skip_reason(text: str) -> str | None:
    """Why a command cannot run here, or None."""
    if re.search(r"\b(openai|anthropic)/|local-chat-completions|api\.openai\.com", text):
        return "needs an API key (OpenAI or Anthropic)"
    if "--model vllm" in text:
        return "needs vLLM and a GPU (pip install vllm)"
    if re.search(r"--device cuda|--multi_gpu|^accelerate ", text):
        return "needs a GPU"
    if re.match(r"(pip|ruff|pytest)\b", text):
        return "installs packages or runs the test suite"
    if re.match(r"cog-tasks profile run\b", text) and "--model chance" not in text:
        return "runs all four benchmarks on a model for minutes (the chance profile runs here)"
    return None


def small(text: str, model: Path) -> str:
    """The command with the embedded model and small limits."""
    text = re.sub(r"\$\(cog-tasks model-path smollm2\)", str(model), text)
    hf_model = f"hf/smollm2 -M model_path={model}"
    text = re.sub(r"--model hf/(?!smollm2\b)\S+", f"--model {hf_model}", text)
    text = re.sub(r"pretrained=(<[^<>]*>|(?!\$|/)[^,\s]+)", f"pretrained={model}", text)
    is_lm_eval = bool(re.match(r"(cog-tasks lm-eval|lm_eval|lm-eval)\b", text))
    is_inspect = text.startswith("inspect eval ")
    is_chance = bool(re.match(r"cog-tasks \w+ (chance|interdependence)\b", text))
    if is_lm_eval or is_inspect or is_chance:
        text = re.sub(r"--limit (\d+)", lambda m: f"--limit {min(int(m[1]), 1)}", text)
        if "--limit" not in text:
            text += " --limit 1"
        text = re.sub(r"--epochs \d+", "--epochs 1", text)
        text = re.sub(r"-T (hands|matches)=\d+", r"-T \1=1", text)
    if is_inspect and "--max-tokens" not in text:
        text += f" --max-tokens {SMALL_TOKENS}"
    if is_lm_eval and "--gen_kwargs" not in text and "--model dummy" not in text:
        text += f" --gen_kwargs max_gen_toks={SMALL_TOKENS}"
    return re.sub(r"--episodes \d+", "--episodes 10", text)


def expand(command: Command, text: str, cwd: Path) -> list[str]:
    """The command's words after bash's expansion, with the README's assignments made."""
    script = "\n".join(
        [
            *(a for a in command.assignments if not re.match(r"export COG_TASKS_DATA=", a)),
            f"set -- {text}",
            'printf "%s\\0" "$@"',
        ]
    )
    done = subprocess.run(["bash", "-c", script], cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        pytest.fail(f"{command.id}: bash cannot expand `{text}`: {done.stderr.strip()}")
    return done.stdout.split("\0")[:-1]


def missing_input(command: Command, words: list[str], cwd: Path) -> str | None:
    """An input file the command reads that the README never makes, or None.

    A missing file inside what an earlier command of the README writes is not
    the user's: the command then runs, and fails if that command did not make it.
    """
    outputs = {"--out", "-o", "--output", "--output_path", "--output-file", "--log-dir"}
    written = [
        Path(path.rstrip("/"))
        for other in ALL_COMMANDS
        if other.readme == command.readme and other.line < command.line
        for path in earlier_outputs(other.text)
    ]
    for previous, word in zip(["", *words], words, strict=False):
        if STAND_IN.search(word):
            return f"reads a file of the user's (stand-in {word})"
        if (word.endswith(INPUT_SUFFIXES) and previous not in outputs) or previous == "--log":
            path = Path(word.split(":")[0])
            made_before = any(path == out or out in path.parents for out in written)
            if not (cwd / path).exists() and not made_before:
                return f"reads a file of the user's, {path}, that the README does not make"
    return None


def earlier_outputs(text: str) -> list[str]:
    """What a command writes: its output options, or ``logs`` for an Inspect run without one."""
    found = OUTPUT_OPTION.findall(text)
    if not found and text.startswith("inspect eval "):
        found = ["logs"]
    return found


def runs_lm_eval(words: list[str]) -> bool:
    """Whether the command is an lm-eval run (``lm_eval``, ``lm-eval``, ``cog-tasks lm-eval``)."""
    return words[:1] in (["lm_eval"], ["lm-eval"]) or words[:2] == ["cog-tasks", "lm-eval"]


def run(words: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run the command in a child process (``python`` as this interpreter), within the timeout."""
    program = [sys.executable] if words[0] == "python" else [words[0]]
    return subprocess.run(
        [*program, *words[1:]],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=COMMAND_TIMEOUT,
        check=False,
    )


@pytest.fixture(scope="module")
def workdirs(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """One working folder per README, kept across its commands."""
    folders: dict[str, Path] = {}

    def folder(readme: str) -> Path:
        if readme not in folders:
            folders[readme] = tmp_path_factory.mktemp(readme.replace("/", "_"))
        return folders[readme]

    return folder


def test_commands_are_found_in_every_readme() -> None:
    found = {command.readme for command in ALL_COMMANDS}
    assert found == {str(readme.relative_to(REPO_ROOT)) for readme in READMES}
    assert all(not command.text.endswith("\\") for command in ALL_COMMANDS)


OUTPUT_OPTION = re.compile(r"(?<!\S)(?:--output_path|--output-file|--log-dir|--out|-o)[ =](\S+)")
SKIPPED_OUTPUTS: dict[str, str] = {}  # "<README> <path>" -> the skipped command that writes it


def skip(command: Command, reason: str) -> NoReturn:
    """Skip the command, remembering what it would have written for the commands that read it."""
    for path in OUTPUT_OPTION.findall(command.text):
        SKIPPED_OUTPUTS[f"{command.readme} {path.rstrip('/')}"] = command.id
    pytest.skip(reason)


def reads_skipped_output(command: Command, words: list[str], cwd: Path) -> str | None:
    """Why the command cannot run: it reads what a skipped command would write; or None."""
    for word in words:
        writer = SKIPPED_OUTPUTS.get(f"{command.readme} {word.rstrip('/')}")
        if writer and not (cwd / word).exists():
            return f"reads {word}, which the skipped command {writer} writes"
    return None


EVERY_README = os.environ.get("COG_TASKS_README_COMMANDS", "all") != "root"
"""Run the benchmark READMEs' commands too (the default; about 16 minutes on 2 cores).

``COG_TASKS_README_COMMANDS=root`` runs the root README's commands only (2.5
minutes), for a quicker local run.
"""


@pytest.mark.slow
@pytest.mark.parametrize("command", ALL_COMMANDS, ids=[c.id for c in ALL_COMMANDS])
def test_readme_command_runs(
    command: Command,
    smollm2_path: Path,
    workdirs: Callable[[str], Path],
) -> None:
    if command.readme != "README.md" and not EVERY_README:
        pytest.skip("a benchmark README's command (COG_TASKS_README_COMMANDS=root)")
    parts = [part.strip() for part in command.text.split("&&")]
    reasons = [skip_reason(part) for part in parts]
    installs = skip_reason("pip install")
    blocking = [reason for reason in reasons if reason and reason != installs]
    if blocking or all(reasons):
        skip(command, (blocking or reasons)[0])
    cwd = workdirs(command.readme)
    texts = [
        small(part, smollm2_path) for part, reason in zip(parts, reasons, strict=True) if not reason
    ]
    for text in texts:
        stand_in = STAND_IN.search(text)
        if stand_in:  # before bash sees it: "<model-folder>" is a redirection to bash
            skip(command, f"reads a file of the user's (stand-in {stand_in[0]})")
        words = expand(command, text, cwd)
        if runs_lm_eval(words) and not only_our_tasks(words):
            skip(command, "runs lm-eval's own tasks, whose datasets download from the Hub")
        missing = missing_input(command, words, cwd) or reads_skipped_output(command, words, cwd)
        if missing:
            skip(command, missing)
        try:
            done = run(words, cwd)
        except subprocess.TimeoutExpired:
            pytest.fail(f"{command.id}: `{text}` ran past {COMMAND_TIMEOUT} s")
        tail = (done.stdout + done.stderr)[-3000:]
        assert done.returncode == 0, f"{command.id}: `{text}` exited {done.returncode}:\n{tail}"
