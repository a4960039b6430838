"""The commands of the root README and of each benchmark README mean what they say.

Three tiers:

- **Static** (fast, every command): each command, every loop value
  included, is expanded by bash with the README's assignments and read by its
  own program's parser; its tasks resolve and build with its ``-T`` values,
  its model arguments exist, and each file it reads is written by an earlier
  command of the same README or named as the user's
  (:mod:`readme_commands`). No model runs.
- **End to end** (``slow``): nine README commands run verbatim, chosen to
  cover lm-eval, Inspect and the cog-tasks commands, and each benchmark once;
  each test checks what they print or write.
- **Every command** (opt-in, ``COG_TASKS_README_COMMANDS=all``): every
  command runs, made small (``--limit 1``, few tokens, SmolLM2 for any Hub
  model), skipped with its reason when it needs an API key, vLLM, a GPU or a
  file of the user's. About 18 minutes on 2 cores.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NoReturn

import pytest
from inspect_ai.log import list_eval_logs, read_eval_log
from readme_commands import (
    ALL_COMMANDS,
    READMES,
    REPO_ROOT,
    STAND_IN,
    Command,
    CommandError,
    calls,
    input_problems,
    problems,
    split_parts,
)

from cog_tasks.benchmarks import REGISTRY
from cog_tasks.cli import only_our_tasks
from cog_tasks.coglm.abilities import ABILITIES

ABILITY_CODES = [ability.code for ability in ABILITIES]

# ----------------------------------------------------------------------------- static


def test_commands_are_found_in_every_readme() -> None:
    found = {command.readme for command in ALL_COMMANDS}
    assert found == {str(readme.relative_to(REPO_ROOT)) for readme in READMES}
    assert all(not command.text.endswith("\\") for command in ALL_COMMANDS)
    assert len(ALL_COMMANDS) > 100


@pytest.mark.parametrize("command", ALL_COMMANDS, ids=[c.id for c in ALL_COMMANDS])
def test_readme_command_is_well_formed(command: Command) -> None:
    try:
        found = calls(command)
    except CommandError as error:
        pytest.fail(f"{command.id}: {error}")
    wrong = [
        f"{' '.join(call.expanded.words)}\n    {problem}"
        for call in found
        for problem in problems(call.parsed) + input_problems(call)
    ]
    assert not wrong, f"{command.id}:\n" + "\n".join(wrong)


def _checked(text: str, readme: str = "README.md", line: int = 10**6) -> list[str]:
    """The problems the static checks find in a made-up command of ``readme``."""
    command = Command(readme, line, text, ())
    try:
        return [p for call in calls(command) for p in problems(call.parsed) + input_problems(call)]
    except CommandError as error:
        return [str(error)]


@pytest.mark.parametrize(
    ("text", "complaint"),
    [
        ("inspect eval cog_tasks/coglm_chat -T per_ablity=2", "unexpected keyword argument"),
        ("inspect eval cog_tasks/coglm_chat -T abilities=cnst", "unknown CogLM ability"),
        ("inspect eval cog_tasks/nonesuch --model hf/x", "not found in the registry"),
        ("inspect eval cog_tasks/cogeval --modle hf/smollm2", "No such option"),
        (
            "inspect eval cog_tasks/cogeval --model hf/s -M model_pth=$(cog-tasks model-path)",
            "-M model_pth is not an argument of the hf provider",
        ),
        ("inspect eval cog_tasks/cogeval --model hf/s -M model_path=/x", "neither cog-tasks"),
        ("cog-tasks model-path gpt2", "no embedded model 'gpt2'"),
        ("cog-tasks lm-eval --model hf --model_args pretraind=x --tasks coglm", "pretraind"),
        ("cog-tasks lm-eval --model hf --model_args pretrained=x --tasks coglm_nope", "coglm_nope"),
        ("lm_eval --model hf-shared-prefix --tasks coglm", "registered by cog-tasks lm-eval only"),
        ("cog-tasks cogeval chance -T graphs=n8line", "n8line"),
        ("cog-tasks coglm report nowhere/never-written", "no earlier command"),
        ("cog-tasks egosocial chance egosocial_blackjack", "invalid choice"),
        ('pip install -e ".[dev,everything]"', "no extra 'everything'"),
        ('python -c "from cog_tasks.cli import no_such_name"', "has no no_such_name"),
    ],
)
def test_static_checks_find_mistakes(text: str, complaint: str) -> None:
    found = _checked(text)
    assert any(complaint in problem for problem in found), found


def test_an_output_of_an_earlier_command_is_a_valid_input() -> None:
    readme = "cog_tasks/coglm/README.md"
    writer = next(c for c in ALL_COMMANDS if c.readme == readme and "--output_path ll " in c.text)
    assert _checked("cog-tasks coglm report ll", readme, writer.line + 1) == []
    assert _checked("cog-tasks coglm report ll", readme, writer.line) != []


# ----------------------------------------------------------------------------- end to end


def _readme_command(readme: str, pattern: str) -> Command:
    """The one command of ``readme`` that ``pattern`` (a regex) finds (fails unless one)."""
    found = [c for c in ALL_COMMANDS if c.readme == readme and re.search(pattern, c.text)]
    assert len(found) == 1, f"{readme}: {len(found)} commands match {pattern!r}"
    return found[0]


def _run_verbatim(command: Command, cwd: Path, timeout: int = 600) -> str:
    """Run a README command as written, after the README's assignments; return its output."""
    assignments = [a for a in command.variants()[0] if not a.startswith("export COG_TASKS_DATA=")]
    done = subprocess.run(
        ["bash", "-c", "\n".join(["set -euo pipefail", *assignments, command.text])],
        cwd=cwd,
        env={**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"},
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"{command.id}: exit {done.returncode}\n{output[-3000:]}"
    return output


def _only_log(folder: Path) -> dict:
    """The one Inspect log in ``folder``, as its header: task, samples, metrics."""
    (info,) = list_eval_logs(str(folder))
    log = read_eval_log(info)
    assert log.status == "success"
    metrics = {m: v.value for score in log.results.scores for m, v in score.metrics.items()}
    return {"task": log.eval.task, "samples": log.results.total_samples, "metrics": metrics}


FLOAT = r"-?\d+\.\d+"
INTERVAL = rf"{FLOAT} \[{FLOAT}, {FLOAT}\]"


def _readme_table(readme: str, header: str, with_header: bool = False) -> list[list[str]]:
    """The rows of the Markdown table whose header line starts with ``header``, cells stripped.

    With ``with_header``, the header's own cells come first.
    """
    lines = (REPO_ROOT / readme).read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows = itertools.takewhile(lambda line: line.startswith("|"), lines[start + 2 :])
    table = [lines[start], *rows] if with_header else list(rows)
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in table]


@pytest.mark.slow
def test_root_readme_chance_profile_reproduces_the_readme_column(tmp_path: Path) -> None:
    """The seeded chance profile prints, for every headline, the value the README shows."""
    _run_verbatim(_readme_command("README.md", r"^cog-tasks profile run --model chance "), tmp_path)
    written = _profile_table(tmp_path / "profiles/chance/profile.md")
    header = "| benchmark | measure | unit | SmolLM2-135M-Instruct | Gemma 3 270M (base) |"
    names, *quoted = _readme_table("README.md", header, with_header=True)
    chance_column = names.index("chance (seed 0)")
    assert {row[0] for row in quoted} == set(REGISTRY)
    for benchmark, measure, unit, *cells in quoted:
        chance = cells[chance_column - 3]
        assert written[benchmark, measure] == (chance, unit), (benchmark, measure)
    rows = json.loads((tmp_path / "profiles/chance/profile.json").read_text())["rows"]
    overall = next(r for r in rows if (r["benchmark"], r["measure"]) == ("coglm", "overall"))
    assert overall["n"] == 200 and overall["ci_low"] < overall["value"] < overall["ci_high"]
    assert (tmp_path / "profiles/chance/profile.png").read_bytes()[:4] == b"\x89PNG"


def _profile_table(profile_md: Path) -> dict[tuple[str, str], tuple[str, str]]:
    """``profile.md``'s headline table: (benchmark, measure) -> (value [interval], n with unit)."""
    lines = profile_md.read_text(encoding="utf-8").splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("| benchmark | measure"))
    names = [cell.strip() for cell in lines[header].strip("|").split("|")]
    value, n = names.index("value [95 % CI]"), names.index("n")
    rows = itertools.takewhile(lambda line: line.startswith("|"), lines[header + 2 :])
    cells = [[cell.strip() for cell in row.strip("|").split("|")] for row in rows]
    return {(row[0], row[1]): (row[value], row[n]) for row in cells}


@pytest.mark.slow
def test_coglm_readme_lm_eval_run_and_report(tmp_path: Path) -> None:
    """lm-eval on CogLM (the dummy model, all 1,220 items), then the report of its folder."""
    readme = "cog_tasks/coglm/README.md"
    output = _run_verbatim(_readme_command(readme, r"^cog-tasks lm-eval --model dummy "), tmp_path)
    (results,) = (tmp_path / "benchmarks/results/coglm_lm_eval").rglob("results_*.json")
    scores = json.loads(results.read_text())["results"]
    assert set(scores) >= {"coglm", *(f"coglm_{code}" for code in ABILITY_CODES)}
    assert 0.15 < scores["coglm"]["acc_authors,none"] < 0.45  # a random pick among 2-5 options
    assert re.search(rf"^\|coglm\s+\|.*\|acc_authors\s+\|\s*\|\s*{FLOAT}\|", output, re.M)
    report = _run_verbatim(
        _readme_command(readme, r"^cog-tasks coglm report benchmarks/results/coglm_lm_eval --out "),
        tmp_path,
    )
    counts = re.findall(r"^\d\s+(\w+)\s+.*?\s(\d+)\s+-?\d+\.\d", report, re.M)
    assert {code for code, _ in counts} == set(ABILITY_CODES)
    assert sum(int(n) for _, n in counts) == 1220
    # An age outside the map's fitted range (6-20) reads "below the fitted range (3.8)".
    age = re.search(r"^cognitive age\s+(?:\w+ the fitted range \()?([\d.]+)", report, re.M)
    assert age and 0 < float(age[1]) < 25, report
    assert (results.parents[1] / "coglm_report.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.slow
def test_coglm_readme_chance_run(tmp_path: Path) -> None:
    command = _readme_command(
        "cog_tasks/coglm/README.md", r"^cog-tasks coglm chance -T per_ability=20 "
    )
    output = _run_verbatim(command, tmp_path)
    assert "chance baseline on cog_tasks/coglm_chat (seed 0, 200 samples)" in output
    log = _only_log(tmp_path / "logs/chance")
    assert log["samples"] == 200 and log["metrics"]["invalid"] == 0
    assert 0.15 < log["metrics"]["acc"] < 0.45
    low, high = log["metrics"]["overall_ci_low"], log["metrics"]["overall_ci_high"]
    assert low < log["metrics"]["overall"] < high


@pytest.mark.slow
def test_cogeval_readme_inspect_run(tmp_path: Path, smollm2_path: Path) -> None:
    command = _readme_command(
        "cog_tasks/cogeval/README.md", r"^inspect eval cog_tasks/cogeval .* --limit 1$"
    )
    _run_verbatim(command, tmp_path)
    log = _only_log(tmp_path / "logs")
    assert log["task"] == "cog_tasks/cogeval" and log["samples"] == 1
    # one sample: solved (success) or exactly one failure mode, each a fraction of one
    metrics = log["metrics"]
    assert metrics["success_n"] == 1 and "success_ci_low" not in metrics  # one unit: no interval
    shares = {name: v for name, v in metrics.items() if not re.search(r"_(n|stderr|ci_\w+)$", name)}
    assert set(shares) >= {"success", "no_answer", "unparseable", "invalid_edge", "wrong_goal"}
    assert sorted(shares.values())[-2:] == [0.0, 1.0] and sum(shares.values()) == 1.0


@pytest.mark.slow
def test_cogbench_readme_chance_run_and_report(tmp_path: Path) -> None:
    readme = "cog_tasks/cogbench/README.md"
    _run_verbatim(
        _readme_command(readme, r"^cog-tasks cogbench chance .* --log-dir logs/$"), tmp_path
    )
    report = _run_verbatim(_readme_command(readme, r"^cog-tasks cogbench report logs/ "), tmp_path)
    assert "ReAct*: mockllm/chance [subset a, english]" in report
    assert "n = 4 trajectories; invalid ratings 0/80" in report
    assert re.search(rf"Authenticity avg {FLOAT} \[", report), report
    (curve, *_) = json.loads((tmp_path / "report/cogbench_curves.json").read_text())
    assert (curve["agent"], curve["subset"], curve["counts"]["pairs"]) == ("react", "a", 80)
    assert curve["coverage"]["units"] == 4 and curve["coverage"]["missing"] == 0
    assert curve["invalid_rate"]["value"] == 0
    assert 1 <= curve["rationality_avg"]["value"] <= 5
    assert -1 <= curve["authenticity_avg"]["value"] <= 1
    assert sorted(curve["authenticity"]) == ["0", "1", "2", "3"]


@pytest.mark.slow
def test_egosocial_readme_inspect_run_and_report(tmp_path: Path, smollm2_path: Path) -> None:
    readme = "cog_tasks/egosocial/README.md"
    _run_verbatim(
        _readme_command(readme, r"^inspect eval cog_tasks/egosocial_static --model hf/smollm2 "),
        tmp_path,
    )
    log = _only_log(tmp_path / "logs")
    assert log["task"] == "cog_tasks/egosocial_static" and log["samples"] == 4
    _run_verbatim(_readme_command(readme, r"^cog-tasks egosocial report ./logs$"), tmp_path)
    assert not (tmp_path / "logs/summary.md").exists()  # never written into an input
    summary = (tmp_path / "egosocial-report/summary.md").read_text()
    # four items: a value, and no interval below 10 units
    row = rf"^\| hf/smollm2\[[^|]*\] \| {FLOAT} \[no interval: 4 items\] n=4 \|"
    assert re.search(row, summary, re.M), summary
    assert "· chance (expected) | 0.250 [no interval: 4 items] n=4 |" in summary


# ----------------------------------------------------------------------------- every command

EVERY_COMMAND = os.environ.get("COG_TASKS_README_COMMANDS", "")
"""``all``: run every README command too; ``root``: the root README's commands only."""

SMALL_TOKENS = 8
COMMAND_TIMEOUT = 240  # seconds; one small item takes well under a minute
OUTPUT_OPTION = re.compile(r"(?<!\S)(?:--output_path|--output-file|--log-dir|--out|-o)[ =](\S+)")
SKIPPED_OUTPUTS: dict[str, str] = {}  # "<README> <path>" -> the skipped command that writes it


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


def shell_words(command: Command, text: str, cwd: Path) -> list[str]:
    """The command's words after bash's expansion, with the README's assignments made."""
    assignments = [a for a in command.variants()[0] if not a.startswith("export COG_TASKS_DATA=")]
    script = "\n".join([*assignments, f"set -- {text}", 'printf "%s\\0" "$@"'])
    done = subprocess.run(["bash", "-c", script], cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        pytest.fail(f"{command.id}: bash cannot expand `{text}`: {done.stderr.strip()}")
    return done.stdout.split("\0")[:-1]


def skip(command: Command, reason: str) -> NoReturn:
    """Skip the command, remembering what it would have written for the commands that read it."""
    for path in OUTPUT_OPTION.findall(command.text):
        SKIPPED_OUTPUTS[f"{command.readme} {path.rstrip('/')}"] = command.id
    pytest.skip(reason)


def unreadable_input(command: Command, words: list[str], cwd: Path) -> str | None:
    """Why the command cannot run: a stand-in, or a file a skipped command would write; or None."""
    for word in words:
        if STAND_IN.search(word):
            return f"reads a file of the user's ({word})"
        writer = SKIPPED_OUTPUTS.get(f"{command.readme} {word.rstrip('/')}")
        if writer and not (cwd / word).exists():
            return f"reads {word}, which the skipped command {writer} writes"
    return None


@pytest.fixture(scope="module")
def workdirs(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """One working folder per README, kept across its commands."""
    folders: dict[str, Path] = {}

    def folder(readme: str) -> Path:
        if readme not in folders:
            folders[readme] = tmp_path_factory.mktemp(readme.replace("/", "_"))
        return folders[readme]

    return folder


def _every_command() -> Iterator[Command]:
    """The commands the opt-in runs, in README order."""
    for command in ALL_COMMANDS:
        if EVERY_COMMAND == "all" or (EVERY_COMMAND == "root" and command.readme == "README.md"):
            yield command


RUN_ALL = list(_every_command())


@pytest.mark.slow
@pytest.mark.skipif(not RUN_ALL, reason="set COG_TASKS_README_COMMANDS=all (or root) to run")
@pytest.mark.parametrize("command", RUN_ALL or [None], ids=[c.id for c in RUN_ALL] or ["none"])
def test_readme_command_runs(
    command: Command, smollm2_path: Path, workdirs: Callable[[str], Path]
) -> None:
    parts = split_parts(command.text)
    reasons = [skip_reason(part) for part in parts]
    installs = skip_reason("pip install")
    blocking = [reason for reason in reasons if reason and reason != installs]
    if blocking or all(reasons):
        skip(command, (blocking or reasons)[0])
    cwd = workdirs(command.readme)
    for part, reason in zip(parts, reasons, strict=True):
        if reason:
            continue
        text = small(part, smollm2_path)
        stand_in = STAND_IN.search(text)
        if stand_in:  # before bash sees it: "<model-folder>" is a redirection to bash
            skip(command, f"reads a file of the user's (stand-in {stand_in[0]})")
        words = shell_words(command, text, cwd)
        runs_lm_eval = words[:1] in (["lm_eval"], ["lm-eval"]) or words[:2] == [
            "cog-tasks",
            "lm-eval",
        ]
        if runs_lm_eval and not only_our_tasks(words):
            skip(command, "runs lm-eval's own tasks, whose datasets download from the Hub")
        missing = unreadable_input(command, words, cwd)
        if missing:
            skip(command, missing)
        program = [sys.executable] if words[0] == "python" else [words[0]]
        try:
            done = subprocess.run(
                [*program, *words[1:]],
                cwd=cwd,
                capture_output=True,
                text=True,
                timeout=COMMAND_TIMEOUT,
                check=False,
            )
        except subprocess.TimeoutExpired:
            pytest.fail(f"{command.id}: `{text}` ran past {COMMAND_TIMEOUT} s")
        tail = (done.stdout + done.stderr)[-3000:]
        assert done.returncode == 0, f"{command.id}: `{text}` exited {done.returncode}:\n{tail}"
