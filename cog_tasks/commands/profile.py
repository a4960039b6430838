"""``cog-tasks profile``: one model's cognitive profile across the four benchmarks.

``profile run`` evaluates a model on every benchmark with one preset and
writes ``profile.json`` (one row per headline number, with its 95 % interval,
its unit and its run identity), ``profile.md`` and ``profile.png``. CogLM runs
through lm-eval's log-likelihood path for ``hf/`` and ``vllm/`` models (the
paper's protocol for open models, with the same weights) and through the chat
protocol for API models; the other benchmarks run through Inspect's
``eval_set``, so the same command resumes an interrupted profile.
``--model chance`` runs each benchmark's seeded chance answerer instead.

``profile compare`` prints, for each headline both profiles have, the
difference with a paired bootstrap interval over the units they share.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cog_tasks.common.cli import add_name_value_option, add_out_option
from cog_tasks.common.files import read_json, write_json_atomically, write_text_atomically

if TYPE_CHECKING:
    from inspect_ai import Task
    from inspect_ai.log import EvalLog

    from cog_tasks.common.headlines import Headline, PaperRow
    from cog_tasks.common.stats import Interval

BENCHMARKS = ("coglm", "cogeval", "cogbench", "egosocial")
CHANCE = "chance"
LOCAL_PROVIDERS = ("hf/", "vllm/")
PACKAGES = ("cog-tasks", "inspect_ai", "lm_eval", "transformers", "torch")


@dataclass(frozen=True)
class Step:
    """One task of a preset.

    Attributes:
        benchmark: The benchmark it measures.
        task: Inspect task name (CogLM on local models runs lm-eval instead).
        task_args: Task arguments.
        limit: Samples to evaluate (``None``: all).
        epochs: Repeats of every sample.
    """

    benchmark: str
    task: str
    task_args: Mapping[str, Any] = field(default_factory=dict)
    limit: int | None = None
    epochs: int = 1


@dataclass(frozen=True)
class Preset:
    """A named set of steps, and what it costs.

    Attributes:
        name: ``smoke``, ``standard`` or ``full``.
        steps: The tasks, in order.
        coglm_per_ability: CogLM items per ability (``None``: all 1,220).
        cost: What a run costs, in words (time on a small CPU, requests, tokens).
    """

    name: str
    steps: tuple[Step, ...]
    coglm_per_ability: int | None
    cost: str


PRESETS: dict[str, Preset] = {
    "smoke": Preset(
        "smoke",
        (
            Step(
                "cogeval",
                "cogeval",
                {"graphs": "n7line", "domains": "ordRooms", "temperatures": "0", "max_tokens": 64},
            ),
            Step(
                "cogbench",
                "cogbench",
                {
                    "agent": "cot",
                    "subset": "a",
                    "source": "sample",
                    "iterations": 1,
                    "max_tokens": 32,
                    "retries": 0,
                    "judge": False,
                },
                limit=2,
            ),
            Step("egosocial", "egosocial_static", {}, limit=30),
            Step("egosocial", "egosocial_number_guessing", {"rounds": 3}),
        ),
        coglm_per_ability=20,
        cost="about 5 minutes of SmolLM2-135M on 2 idle CPU cores; no API requests",
    ),
    "standard": Preset(
        "standard",
        (
            Step("cogeval", "cogeval", {"design": "paper", "temperatures": "0"}),
            Step("cogbench", "cogbench", {"agent": "coggpt", "judge_chars": 12000}, limit=2),
            Step("egosocial", "egosocial_static", {"circular": True}),
            Step("egosocial", "egosocial_number_guessing", {}, epochs=5),
            Step("egosocial", "egosocial_holdem", {"matches": 5}),
        ),
        coglm_per_ability=30,
        cost=(
            "for an API model, about 1,700 requests and 1.6M input tokens, estimated per "
            "benchmark: CogLM chat 300 requests / 29k tokens, CogEval 450 / 260k, "
            "CogBench 480 / 1M (two CogGPT trajectories with their judge), "
            "EgoSocialArena 500 / 270k"
        ),
    ),
    "full": Preset(
        "full",
        (
            Step("cogeval", "cogeval", {"design": "paper"}, epochs=3),
            Step("cogbench", "cogbench", {"agent": "coggpt"}),
            Step("cogbench", "cogbench", {"agent": "cot"}),
            Step("cogbench", "cogbench", {"agent": "react"}),
            Step("cogbench", "cogbench", {"agent": "reflexion"}),
            Step("egosocial", "egosocial_static", {"source": "both"}),
            Step("egosocial", "egosocial_blackjack_beliefs", {}),
            Step("egosocial", "egosocial_number_guessing", {}),
            Step("egosocial", "egosocial_holdem", {"hands": 10, "matches": 3}),
        ),
        coglm_per_ability=None,
        cost="each paper's whole protocol: hours of GPU or a large API budget",
    ),
}


@dataclass(frozen=True)
class ModelSpec:
    """The model a profile evaluates.

    Attributes:
        name: Inspect model name, or ``chance``.
        args: Model arguments (``-M``).
        roles: Model roles (``--model-role judge=...``).
        seed: Seed of the chance answerers and of sampling.
        max_tokens: Cap on generated tokens for the Inspect tasks (a base
            model without a stop token otherwise writes to the provider's
            limit); part of each run's identity.
    """

    name: str
    args: Mapping[str, str] = field(default_factory=dict)
    roles: Mapping[str, str] = field(default_factory=dict)
    seed: int = 0
    max_tokens: int | None = None

    @property
    def is_chance(self) -> bool:
        """Whether this is the seeded chance answerer."""
        return self.name == CHANCE

    @property
    def is_local(self) -> bool:
        """Whether the model's weights are local (CogLM then runs through lm-eval)."""
        return self.name.startswith(LOCAL_PROVIDERS)


class ProfileStepError(ValueError):
    """A benchmark run of a profile did not finish (one line: the task and the reason)."""


def _progress(message: str) -> None:
    print(f"profile: {message}", file=sys.stderr, flush=True)


def _task(step: Step) -> Task:
    """Build a step's Inspect task from its ``@task`` function.

    The functions are imported, not looked up by registry name, so the
    profile does not depend on how the package's entry point is installed.
    """
    import cog_tasks.egosocial.inspect as egosocial_tasks
    from cog_tasks import _registry

    factory = getattr(_registry, step.task, None) or getattr(egosocial_tasks, step.task)
    return factory(**dict(step.task_args))


def _chance_answerer(benchmark: str, step: Step, seed: int) -> Any:
    """The seeded chance answerer of a benchmark, for ``mockllm/chance``."""
    if benchmark == "coglm":
        from cog_tasks.coglm.inspect.chance import ChanceAnswerer as CogLMChance

        return CogLMChance(seed)
    if benchmark == "cogeval":
        from cog_tasks.cogeval.inspect.chance import chance_answerer

        return chance_answerer(dict(step.task_args), seed)
    if benchmark == "cogbench":
        from cog_tasks.cogbench.inspect.chance import ChanceRater

        return ChanceRater(seed)
    from cog_tasks.egosocial.inspect.chance import ChanceAnswerer as EgoChance

    return EgoChance(seed)


def _inspect_headlines(benchmark: str, log: EvalLog) -> list[Headline]:
    """A benchmark's headlines of one log (``cog_tasks.<benchmark>.inspect.headlines``)."""
    return import_module(f"cog_tasks.{benchmark}.inspect.headlines").headlines(log)


def paper_rows() -> list[PaperRow]:
    """Every benchmark's published reference rows (``cog_tasks.<benchmark>.paper``)."""
    return [
        row
        for benchmark in BENCHMARKS
        for row in import_module(f"cog_tasks.{benchmark}.paper").PAPER_ROWS
    ]


def _with_judge(step: Step, model: ModelSpec, progress: Callable[[str], None]) -> Step:
    """CogBench's Rationality needs a judge: without a judge role the model judges itself.

    The run identity then carries ``self_judge=true``, and the line says so. A
    step that skips Rationality (``judge=False``) is left as it is.
    """
    skips_rationality = step.task_args.get("judge") is False
    if step.benchmark != "cogbench" or "judge" in model.roles or skips_rationality:
        return step
    progress("cogbench: no --model-role judge, so the model judges itself (self_judge=true)")
    return replace(step, task_args={**step.task_args, "self_judge": True})


def _step_log_dir(out: Path, step: Step, model: ModelSpec) -> Path:
    """A log folder of its own for each step and model setting.

    ``eval_set`` resumes from a folder holding only its own tasks' logs, so a
    step whose arguments change (another preset, another model) gets a new
    folder, and the same command finds its old one.
    """
    setting = json.dumps(
        [
            step.task,
            dict(step.task_args),
            step.limit,
            step.epochs,
            model.name,
            dict(model.args),
            dict(model.roles),
            model.seed,
            model.max_tokens,
        ],
        sort_keys=True,
        default=str,
    )
    from hashlib import sha256

    digest = sha256(setting.encode("utf-8")).hexdigest()[:10]
    return out / "logs" / f"{step.task}-{digest}"


def _run_inspect(step: Step, model: ModelSpec, log_dir: Path) -> EvalLog:
    """Run one step through Inspect (``eval_set`` for models, so reruns resume).

    Raises:
        ProfileStepError: If the run did not finish, with Inspect's reason.
    """
    from cog_tasks.common.scripted import run_chance_model

    task = _task(step)
    if model.is_chance:
        answerer = _chance_answerer(step.benchmark, step, model.seed)
        try:
            return run_chance_model(task, answerer, str(log_dir), step.epochs, step.limit)
        except RuntimeError as error:
            raise ProfileStepError(f"{step.task}: {error}".splitlines()[0]) from error
    from inspect_ai import eval_set

    from cog_tasks.common.logs import SUCCESS_ONLY, read_log

    finished, logs = eval_set(
        [task],
        log_dir=str(log_dir),
        model=model.name,
        model_args=dict(model.args),
        model_roles=dict(model.roles) or None,
        limit=step.limit,
        epochs=step.epochs,
        max_tokens=model.max_tokens,
        display="none",
    )
    if not finished or logs[0].status != "success":
        reason = logs[0].error.message.splitlines()[-1] if logs and logs[0].error else "stopped"
        raise ProfileStepError(
            f"{step.task} did not finish ({reason}); rerun the same command to resume"
        )
    # eval_set hands back logs without their samples: read the finished log whole.
    return read_log(logs[0].location, tasks={step.task}, statuses=SUCCESS_ONLY)


def _lm_eval_model_args(model: ModelSpec) -> str:
    """lm-eval ``--model_args`` for the same weights as the Inspect model."""
    pretrained = model.args.get("model_path") or model.name.split("/", 1)[1]
    extra = {key: value for key, value in model.args.items() if key != "model_path"}
    return ",".join([f"pretrained={pretrained}", *(f"{k}={v}" for k, v in extra.items())])


def _run_coglm(model: ModelSpec, preset: Preset, out: Path) -> list[Headline]:
    """CogLM: lm-eval log-likelihood for local weights, the chat protocol for API models.

    The chance answerer guesses uniformly on the items lm-eval runs, so its
    rows pair with a local model's on the same item ids.
    """
    limit = preset.coglm_per_ability
    if model.is_chance:
        from cog_tasks.coglm.lm_eval.results import chance_headlines

        return chance_headlines(seed=model.seed, limit=limit)
    if model.is_local:
        from cog_tasks.coglm.lm_eval.results import headlines_from_lm_eval

        folder = out / "coglm_lm_eval"
        if not list(folder.glob("**/results_*.json")):
            provider = "vllm" if model.name.startswith("vllm/") else "hf-shared-prefix"
            command = [
                sys.executable,
                "-m",
                "cog_tasks.cli",
                "lm-eval",
                "--model",
                provider,
                "--model_args",
                _lm_eval_model_args(model),
                "--tasks",
                "coglm",
                "--output_path",
                str(folder),
                "--log_samples",
                "--seed",
                str(model.seed),
            ]
            if limit is not None:
                command += ["--limit", str(limit)]
            import subprocess

            log_path = out / "coglm_lm_eval.log"
            with log_path.open("w", encoding="utf-8") as log:
                finished = subprocess.run(command, stdout=log, stderr=subprocess.STDOUT)
            if finished.returncode != 0:
                lines = log_path.read_text(encoding="utf-8").strip().splitlines() or ["no output"]
                raise ProfileStepError(
                    f"CogLM's lm-eval run failed (exit {finished.returncode}): {lines[-1]} "
                    f"(whole output: {log_path})"
                )
        return headlines_from_lm_eval(folder)
    step = Step("coglm", "coglm_chat", {"per_ability": limit} if limit else {})
    return _inspect_headlines("coglm", _run_inspect(step, model, _step_log_dir(out, step, model)))


def run_profile(
    model: ModelSpec,
    preset: Preset,
    out: Path,
    progress: Callable[[str], None] = _progress,
) -> dict[str, Any]:
    """Evaluate ``model`` on every benchmark of ``preset`` and write the profile.

    Args:
        model: The model (or ``chance``).
        preset: What to run.
        out: Output folder (logs, lm-eval output, ``profile.*``).
        progress: Receives one line as each benchmark starts and ends.

    Returns:
        The profile as written to ``profile.json``.
    """
    out.mkdir(parents=True, exist_ok=True)
    if "model_path" in model.args and "HF_HUB_OFFLINE" not in os.environ:
        # Local weights: Inspect's hf provider would still look the model's
        # name up on the Hub, with back-off retries on every reply when offline.
        os.environ["HF_HUB_OFFLINE"] = "1"
        progress("local weights (model_path): HF_HUB_OFFLINE=1 for this run")
    headlines: list[Headline] = []
    total = 1 + len(preset.steps)
    started = time.monotonic()
    progress(f"[1/{total}] coglm ({'lm-eval' if model.is_local else 'chat'}) ...")
    headlines += _run_coglm(model, preset, out)
    progress(f"[1/{total}] coglm done ({time.monotonic() - started:.0f} s)")
    for number, planned in enumerate(preset.steps, start=2):
        step = _with_judge(planned, model, progress)
        progress(f"[{number}/{total}] {step.task} ...")
        log = _run_inspect(step, model, _step_log_dir(out, step, model))
        headlines += _inspect_headlines(step.benchmark, log)
        progress(f"[{number}/{total}] {step.task} done ({time.monotonic() - started:.0f} s)")
    profile = {
        "model": model.name,
        "preset": preset.name,
        "rows": [headline.as_row() for headline in headlines],
        "paper": [row.as_row() for row in paper_rows()],
        "versions": _versions(),
    }
    write_json_atomically(out / "profile.json", profile)
    write_text_atomically(out / "profile.md", render_markdown(profile))
    draw_profile(profile, out / "profile.png")
    return profile


def _versions() -> dict[str, str]:
    from importlib import metadata

    found = {}
    for package in PACKAGES:
        try:
            found[package] = metadata.version(package)
        except metadata.PackageNotFoundError:
            continue
    return found


def _row_label(row: Mapping[str, Any]) -> str:
    return f"{row['benchmark']} {row['measure']}"


def _format(row: Mapping[str, Any]) -> str:
    from cog_tasks.common.stats import Interval

    return Interval.from_dict(row).format()


def _plural(unit: str, n: int) -> str:
    if n == 1:
        return unit
    return unit[:-1] + "ies" if unit.endswith("y") and unit[-2:] != "ay" else unit + "s"


def _paper_tables(profile: Mapping[str, Any]) -> list[str]:
    """Per benchmark: published values (models × the measures this profile has), then protocols."""
    lines: list[str] = []
    for benchmark in BENCHMARKS:
        measured = [r["measure"] for r in profile["rows"] if r["benchmark"] == benchmark]
        rows = [
            r for r in profile["paper"] if r["benchmark"] == benchmark and r["measure"] in measured
        ]
        if not rows:
            continue
        measures = [m for m in dict.fromkeys(measured) if any(r["measure"] == m for r in rows)]
        protocols = list(dict.fromkeys((r["protocol"], r["differs"]) for r in rows))
        marker = {protocol: chr(ord("a") + i) for i, protocol in enumerate(protocols)}
        models = list(
            dict.fromkeys((r["model"], marker[(r["protocol"], r["differs"])]) for r in rows)
        )
        value = {(r["model"], r["measure"]): r["value"] for r in rows}
        lines += [f"### {benchmark}", "", "| model [protocol] | " + " | ".join(measures) + " |"]
        lines.append("|---" * (len(measures) + 1) + "|")
        for model, letter in models:
            cells = [f"{value[(model, m)]:.3f}" if (model, m) in value else "" for m in measures]
            lines.append(f"| {model} [{letter}] | " + " | ".join(cells) + " |")
        lines.append("")
        for protocol, differs in protocols:
            sources = "; ".join(
                dict.fromkeys(
                    r["source"]
                    for r in rows
                    if (r["protocol"], r["differs"]) == (protocol, differs)
                )
            )
            lines.append(f"- [{marker[(protocol, differs)]}] {protocol} ({sources}).")
            lines.append(
                f"  Our default differs: {differs}" if differs else "  Our default: the same."
            )
        lines.append("")
    return lines


def render_markdown(profile: Mapping[str, Any]) -> str:
    """``profile.md``: the headline table, then the papers' values for the same measures."""
    lines = [
        f"# Cognitive profile: {profile['model']} (preset {profile['preset']})",
        "",
        "| benchmark | measure | value [95 % CI] | n | task | note |",
        "|---|---|---|---|---|---|",
    ]
    for row in profile["rows"]:
        lines.append(
            f"| {row['benchmark']} | {row['measure']} | {_format(row)} | "
            f"{row['n']} {_plural(row['unit'], row['n'])} | {row['run']['task']} | {row['note']} |"
        )
    lines += ["", "## Published values for the same measures", "", *_paper_tables(profile)]
    versions = ", ".join(f"{name} {version}" for name, version in profile["versions"].items())
    return "\n".join([*lines, f"Versions: {versions}.", ""])


def _bound(row: Mapping[str, Any], name: str) -> float:
    return row["value"] if row[name] is None else row[name]


def draw_profile(profile: Mapping[str, Any], path: Path) -> Path:
    """One PNG: every benchmark's headline numbers with their 95 % intervals."""
    from cog_tasks.common.files import pyplot

    plt = pyplot()
    benchmarks = [
        name for name in BENCHMARKS if any(r["benchmark"] == name for r in profile["rows"])
    ]
    figure, axes = plt.subplots(
        len(benchmarks), 1, figsize=(7, 1.2 + 0.45 * len(profile["rows"])), squeeze=False
    )
    for axis, benchmark in zip(axes[:, 0], benchmarks, strict=True):
        rows = [row for row in profile["rows"] if row["benchmark"] == benchmark]
        positions = range(len(rows))
        values = [row["value"] for row in rows]
        # A row without an interval (one unit) is drawn as a bare point; a
        # percentile interval may sit beside its point (a κ): no bar below 0.
        errors = [
            [max(0.0, row["value"] - _bound(row, "ci_low")) for row in rows],
            [max(0.0, _bound(row, "ci_high") - row["value"]) for row in rows],
        ]
        axis.errorbar(values, positions, xerr=errors, fmt="o", capsize=3)
        axis.set_yticks(list(positions), [row["measure"] for row in rows])
        axis.invert_yaxis()
        axis.set_title(benchmark, loc="left", fontsize=10)
        axis.grid(axis="x", alpha=0.3)
    figure.suptitle(f"{profile['model']} ({profile['preset']}), 95 % intervals")
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return path


def _row_keys(rows: list[Mapping[str, Any]]) -> list[tuple[str, str, str, int]]:
    """What pairs two profiles' rows: benchmark, measure, task, and which occurrence.

    A preset runs its steps in a fixed order, so the k-th row of a measure of
    a task in one profile pairs with the k-th in the other.
    """
    seen: dict[tuple[str, str, str], int] = {}
    keys = []
    for row in rows:
        base = (row["benchmark"], row["measure"], row["run"]["task"])
        seen[base] = seen.get(base, 0) + 1
        keys.append((*base, seen[base]))
    return keys


def _units(row: Mapping[str, Any]) -> dict[str, float | tuple[float, float]]:
    return {
        key: tuple(value) if isinstance(value, list) else value
        for key, value in row["units"].items()
    }


@dataclass(frozen=True)
class Comparison:
    """One headline of two profiles.

    Attributes:
        label: ``benchmark measure``.
        difference: First minus second, with its paired interval (``None``
            where the measure has no per-unit values).
        first: The first profile's value.
        second: The second profile's value.
    """

    label: str
    difference: Interval | None
    first: float
    second: float


def compare_profiles(
    first: Mapping[str, Any], second: Mapping[str, Any], seed: int = 0
) -> list[Comparison]:
    """Pair the headlines of two profiles and bootstrap their differences over shared units.

    Args:
        first: A ``profile.json``.
        second: Another.
        seed: Seed of the paired bootstrap.

    Returns:
        One comparison per headline both profiles have (same benchmark,
        measure, task and version), in the first profile's order.
    """
    from cog_tasks.common.stats import paired_difference

    others = dict(zip(_row_keys(second["rows"]), second["rows"], strict=True))
    comparisons = []
    for key, row in zip(_row_keys(first["rows"]), first["rows"], strict=True):
        other = others.get(key)
        if other is None:
            continue
        difference = None
        if row["units"] and other["units"]:
            difference = paired_difference(_units(row), _units(other), unit=row["unit"], seed=seed)
        comparisons.append(Comparison(_row_label(row), difference, row["value"], other["value"]))
    return comparisons


def _read_profile(folder: Path) -> dict[str, Any]:
    path = folder / "profile.json" if folder.is_dir() else folder
    profile = read_json(path)
    if not isinstance(profile, dict) or "rows" not in profile:
        raise ValueError(f"{path}: not a profile.json (no 'rows')")
    return profile


def _profile_run(args: argparse.Namespace) -> int:
    model = ModelSpec(
        name=args.model,
        args=dict(args.model_args),
        roles=dict(args.model_roles),
        seed=args.seed,
        max_tokens=args.max_tokens,
    )
    profile = run_profile(model, PRESETS[args.preset], args.out)
    print(render_markdown(profile))
    print(f"wrote {args.out / 'profile.json'}, profile.md and profile.png")
    return 0


def _profile_compare(args: argparse.Namespace) -> int:
    first, second = _read_profile(args.first), _read_profile(args.second)
    comparisons = compare_profiles(first, second, seed=args.seed)
    print(
        f"{first['model']} minus {second['model']} (paired over shared units: a bootstrap, "
        "or the score interval named where every unit is all-or-nothing alike)"
    )
    for comparison in comparisons:
        if comparison.difference is None:
            shown = f"{comparison.first - comparison.second:+.3f} (no per-unit values)"
        else:
            difference = comparison.difference
            flag = "  *" if difference.excludes(0.0) else ""
            method = "" if difference.method == "bootstrap" else f" {difference.method}"
            shown = f"{difference.format()} n={difference.n}{method}{flag}"
        print(f"  {comparison.label}: {shown}")
    print("* the interval excludes 0")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``profile`` command group to the ``cog-tasks`` parser."""
    group = subparsers.add_parser("profile", help="a model's cognitive profile across benchmarks")
    commands = group.add_subparsers(dest="profile_command", metavar="COMMAND", required=True)
    run = commands.add_parser(
        "run",
        help="evaluate a model on all four benchmarks and write profile.json/.md/.png",
    )
    run.add_argument("--model", required=True, help="Inspect model name, or 'chance'")
    add_name_value_option(run, "-M", "model_args", "model argument, as in inspect eval -M")
    add_name_value_option(
        run, "--model-role", "model_roles", "model role, e.g. judge=openai/gpt-4o"
    )
    run.add_argument("--preset", choices=sorted(PRESETS), default="smoke")
    run.add_argument("--seed", type=int, default=0, help="seed of chance answers and sampling")
    run.add_argument(
        "--max-tokens",
        type=int,
        help="cap on generated tokens in the Inspect tasks (e.g. for a base model)",
    )
    add_out_option(run, "output folder", required=True)
    run.set_defaults(func=_profile_run)
    compare = commands.add_parser("compare", help="paired differences between two profiles")
    compare.add_argument("first", type=Path, help="profile folder or profile.json")
    compare.add_argument("second", type=Path, help="profile folder or profile.json")
    compare.add_argument("--seed", type=int, default=0, help="seed of the paired bootstrap")
    compare.set_defaults(func=_profile_compare)
