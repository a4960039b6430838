"""``cog-tasks profile``: one model's cognitive profile across the four benchmarks."""

from __future__ import annotations

import argparse
import contextvars
import json
import math
import os
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cog_tasks.benchmarks import REGISTRY, specs
from cog_tasks.commands import profile_cost as cost
from cog_tasks.commands import profile_views as views
from cog_tasks.common import cli, files
from cog_tasks.common.errors import UserError
from cog_tasks.common.headlines import SCALES
from cog_tasks.common.pipeline import with_trivial
from cog_tasks.common.results import ResultsError, compare_units, sum_statistic
from cog_tasks.common.runs import RunIdentity, refuse_same_content
from cog_tasks.common.secrets import is_secret, redact
from cog_tasks.common.spec import Step, load
from cog_tasks.common.stats import SMALL_N, UnitValue

if TYPE_CHECKING:
    from inspect_ai import Task
    from inspect_ai.log import EvalLog

    from cog_tasks.common.headlines import Headline, PaperRow
    from cog_tasks.common.stats import Interval

CHANCE = "chance"
LOCAL_PROVIDERS = ("hf/", "vllm/")
PACKAGES = ("cog-tasks", "inspect_ai", "lm_eval", "transformers", "torch")
COGLM_BATCH_SIZE = 16  # lm-eval batch size of the CogLM step: the README main job's.
REPORT_EVERY = 60.0  # Seconds between progress lines of a long step off a terminal.
LOCK_NAME = ".profile.lock"  # Marks an output folder in use by a running ``profile run``.


@dataclass(frozen=True)
class Preset:
    """A named set of steps, gathered from every registered benchmark, and its cost in words."""

    name: str
    cost: str

    @property
    def steps(self) -> tuple[Step, ...]:
        """Every registered benchmark's steps for this preset, in registry order."""
        return tuple(step for spec in specs() for step in spec.presets.get(self.name, ()))


PRESETS: dict[str, Preset] = {
    preset.name: preset
    for preset in (
        Preset("smoke", "about 5 minutes of SmolLM2-135M on 2 idle CPU cores; no API requests"),
        Preset(
            "standard",
            "for an API model, about 1,700 requests and 1.6M input tokens, estimated per "
            "benchmark: CogLM chat 300 requests / 29k tokens, CogEval 450 / 260k, "
            "CogBench 480 / 1M (two CogGPT trajectories with their judge), "
            "EgoSocialArena 500 / 270k",
        ),
        Preset(
            "cpu",
            "an embedded model through llama.cpp (--model llamacpp/NAME --max-tokens 128) on "
            "2 CPU cores, sized with --dry-run to at most 3 hours for Qwen2.5-Coder-1.5B "
            "(estimated from the measured speed, not yet run): every CogEval task once "
            "(generated wording, one item each, temperature 0), CogBench on the bundled "
            "sample set (a fixture, not human data) without a judge",
        ),
        Preset("full", "each paper's whole protocol: hours of GPU or a large API budget"),
    )
}


@dataclass(frozen=True)
class ModelSpec:
    """The model a profile evaluates (``name``: an Inspect model, or ``chance``)."""

    name: str
    args: Mapping[str, str] = field(default_factory=dict)
    roles: Mapping[str, str] = field(default_factory=dict)
    seed: int = 0
    max_tokens: int | None = None
    self_judge: bool = False
    temperature: float | None = None

    @property
    def is_chance(self) -> bool:
        """Whether this is the seeded chance answerer."""
        return self.name == CHANCE

    @property
    def is_local(self) -> bool:
        """Whether the model's weights are local (CogLM then runs through lm-eval)."""
        return self.name.startswith(LOCAL_PROVIDERS)

    @property
    def weights(self) -> str:
        """The local weights: ``-M model_path``, else the name after the provider."""
        return self.args.get("model_path") or self.name.split("/", 1)[1]


class ProfileStepError(UserError):
    """A profile step that cannot run or did not finish (one line: the step and the reason)."""


def profile_identity(model: ModelSpec, preset: Preset) -> dict[str, Any]:
    """What makes two ``profile run`` commands the same profile (stored in ``profile.json``)."""
    return {
        "model": model.name,
        "model_args": redact(model.args),
        "roles": dict(model.roles),
        "preset": preset.name,
        "seed": model.seed,
        "max_tokens": model.max_tokens,
        **({"temperature": model.temperature} if model.temperature is not None else {}),
    }


@contextmanager
def _claimed(out: Path, identity: Mapping[str, Any]) -> Iterator[None]:
    """Hold ``out`` for one profile: refuse a folder in use (a live pid) or of another profile."""
    stored = out / "profile.json"
    if stored.is_file():
        previous = files.read_json(stored).get("identity")
        if previous != dict(identity):
            raise ProfileStepError(
                f"{out} holds the profile of {json.dumps(previous, sort_keys=True)}, not of "
                f"{json.dumps(dict(identity), sort_keys=True)}; use another --out"
            )
    lock = out / LOCK_NAME
    for _ in range(2):
        try:
            handle = os.open(lock, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            break
        except FileExistsError:
            owner = lock.read_text(encoding="utf-8").strip()
            if owner.isdigit() and _running(int(owner)):
                raise ProfileStepError(
                    f"{out} is in use by another profile run (process {owner}); wait for it "
                    "or use another --out"
                ) from None
            lock.unlink(missing_ok=True)
    else:
        raise ProfileStepError(f"{out}: could not take {LOCK_NAME}")
    try:
        os.write(handle, str(os.getpid()).encode("ascii"))
        os.close(handle)
        yield
    finally:
        lock.unlink(missing_ok=True)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True


def _progress(message: str) -> None:
    print(f"profile: {message}", file=sys.stderr, flush=True)


def _task(step: Step) -> Task:
    """Build a step's Inspect task from its benchmark's ``@task`` function, via the registry."""
    return REGISTRY[step.benchmark].task(step.task, **dict(step.task_args))


def paper_rows() -> list[PaperRow]:
    """Every registered benchmark's published reference rows."""
    return [row for spec in specs() for row in spec.paper_rows()]


JUDGE_ROLE = "judge"  # The one role name of every judge and grader a profile passes on.
ROLE_ALIASES = {"grader": JUDGE_ROLE}  # Other names tasks give the judge (EgoSocialArena's).


def _rated(step: Step) -> bool:
    """Whether a step's spec has a judge rate the model, who may be the model (CogBench)."""
    return REGISTRY[step.benchmark].self_judges and step.task_args.get("judge") is not False


def step_roles(model: ModelSpec) -> dict[str, str]:
    """The model roles every step gets: the judge under its name and under each alias."""
    roles = dict(model.roles)
    for alias, name in ROLE_ALIASES.items():
        if alias in roles:
            roles.setdefault(name, roles[alias])
        if name in roles:
            roles.setdefault(alias, roles[name])
    return roles


def check_roles(model: ModelSpec, preset: Preset) -> None:
    """Refuse, before anything runs, a preset whose steps need a judge the model spec lacks."""
    if unknown := sorted(set(model.roles) - {JUDGE_ROLE, *ROLE_ALIASES}):
        raise ProfileStepError(
            f"--model-role {unknown[0]}: no benchmark of the profile has that role; "
            f"use {JUDGE_ROLE} (or {', '.join(ROLE_ALIASES)})"
        )
    if model.is_chance or JUDGE_ROLE in step_roles(model):
        return
    rated = [step.task for step in preset.steps if _rated(step)]
    if rated and not model.self_judge:
        raise ProfileStepError(
            f"preset {preset.name} has judged measures ({', '.join(rated)}), which need a "
            f"judge: pass --model-role {JUDGE_ROLE}=MODEL, or --self-judge to let the model judge "
            "its own answers (its rows then say self-judged)"
        )
    judged_steps = [s.task for s in preset.steps if s.task in REGISTRY[s.benchmark].judged_tasks]
    if judged_steps:
        raise ProfileStepError(
            f"preset {preset.name} needs a judge for {', '.join(judged_steps)}: pass "
            f"--model-role {JUDGE_ROLE}=MODEL (the same judge grades every benchmark)"
        )


def _with_judge(step: Step, model: ModelSpec, progress: Callable[[str], None]) -> Step:
    """Without a judge role, a spec that ``self_judges`` (CogBench) has the model judge itself."""
    if not _rated(step) or JUDGE_ROLE in step_roles(model):
        return step
    progress(
        f"{step.benchmark}: no --model-role judge, so the model judges itself (self_judge=true)"
    )
    return replace(step, task_args={**step.task_args, "self_judge": True})


def _display() -> str:
    """Inspect's display for a step: its progress view on a terminal, none off one."""
    return "full" if sys.stderr.isatty() else "none"


@contextmanager
def _heartbeat(task: str, log_dir: Path, planned: int) -> Iterator[None]:
    """Off a terminal, say every :data:`REPORT_EVERY` s how far ``task`` is, and where it logs."""
    import threading
    import zipfile

    if _display() == "full":
        yield
        return
    done = threading.Event()
    started = time.monotonic()

    def samples_done() -> str:
        with suppress(OSError, ValueError, zipfile.BadZipFile):  # a log still being written
            newest = max(log_dir.glob("*.eval"), key=lambda log: log.stat().st_mtime)
            with zipfile.ZipFile(newest) as log:
                names = {name for name in log.namelist() if "samples/" in name}
            return f"{len(names)} of {planned} samples, "  # a rewritten sample is listed twice
        return ""

    def beat() -> None:
        while not done.wait(REPORT_EVERY):
            running = f"running for {time.monotonic() - started:.0f} s"
            _progress(f"{task}: {samples_done()}{running}, logs in {log_dir}")

    thread = threading.Thread(target=beat, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()


def _run_inspect(step: Step, task: Task, model: ModelSpec, log_dir: Path) -> EvalLog:
    """Run one step's ``task`` through Inspect (``eval_set`` for models, so reruns resume)."""
    from cog_tasks.common.scripted import run_chance_model

    if model.is_chance:
        answerer = REGISTRY[step.benchmark].chance_answerer(step.task_args, model.seed)
        try:
            return run_chance_model(task, answerer, str(log_dir), step.epochs, step.limit)
        except RuntimeError as error:
            raise ProfileStepError(f"{step.task}: {error}".splitlines()[0]) from error
    from inspect_ai import eval_set

    from cog_tasks.common.logs import SUCCESS_ONLY, read_log

    planned = min(len(task.dataset), step.limit or len(task.dataset)) * step.epochs
    with _heartbeat(step.task, log_dir, planned):  # eval_set's active model stays in its context
        finished, logs = contextvars.copy_context().run(
            eval_set,
            [task],
            log_dir=str(log_dir),
            model=model.name,
            model_args=dict(model.args),
            model_roles=step_roles(model) or None,
            limit=step.limit,
            epochs=step.epochs,
            max_tokens=_max_tokens(task, model),
            temperature=_temperature(step, model),
            display=_display(),
        )
    if not logs:  # Inspect returns no log when the run was interrupted
        raise KeyboardInterrupt
    if not finished or logs[0].status != "success":
        reason = logs[0].error.message.splitlines()[-1] if logs and logs[0].error else "stopped"
        raise ProfileStepError(
            f"{step.task} did not finish ({reason}); rerun the same command to resume"
        )
    # eval_set hands back logs without their samples: read the finished log whole.
    return read_log(logs[0].location, tasks={step.task}, statuses=SUCCESS_ONLY)


def _max_tokens(task: Task, model: ModelSpec) -> int | None:
    """The token cap a step sends: none where its task sets its own (an eval's would win)."""
    return None if task.config.max_tokens else model.max_tokens


def _temperature(step: Step, model: ModelSpec) -> float | None:
    """The temperature a step sends: none where its samples set their own (CogEval)."""
    return None if REGISTRY[step.benchmark].own_temperatures else model.temperature


# Inspect ``hf`` arguments the CogLM lm-eval step neither needs nor accepts.
INSPECT_ONLY_ARGS = frozenset(
    "do_sample batch_size chat_template use_chat_template tokenizer_call_args enable_thinking "
    "hidden_states auto_model_class tokenizer_path".split()
)


def _lm_eval_model_args(model: ModelSpec) -> str:
    """lm-eval ``--model_args`` for the same weights as the Inspect model, secrets left out."""
    extra = [
        f"{key}={value}"
        for key, value in model.args.items()
        if key != "model_path" and key not in INSPECT_ONLY_ARGS and not is_secret(key)
    ]
    return ",".join([f"pretrained={model.weights}", *extra])


def _lm_eval_environment(model: ModelSpec) -> dict[str, str]:
    """The lm-eval subprocess's environment, a token argument as ``HF_TOKEN``."""
    environment = dict(os.environ)
    for key, value in model.args.items():
        if not is_secret(key):
            continue
        if key not in ("token", "hf_token"):
            raise ProfileStepError(
                f"-M {key}: a secret the lm-eval step would have to put on its command line; "
                "set it in the environment its backend reads instead"
            )
        environment["HF_TOKEN"] = str(value)
    return environment


def _setting_digest(*parts: object) -> str:
    """A short digest of everything that changes a step's measurement (its folder's name)."""
    from hashlib import sha256

    text = json.dumps(list(parts), sort_keys=True, default=str)
    return sha256(text.encode("utf-8")).hexdigest()[:10]


def _coglm_command(model: ModelSpec, limit: int | None, folder: Path) -> list[str]:
    """The ``cog-tasks lm-eval`` command of the CogLM step (the README main job's batch size)."""
    provider = "vllm" if model.name.startswith("vllm/") else "hf-shared-prefix"
    command = [sys.executable, "-m", "cog_tasks.cli", "lm-eval", "--model", provider]
    command += ["--model_args", _lm_eval_model_args(model), "--tasks", "coglm"]
    command += ["--batch_size", str(COGLM_BATCH_SIZE), "--output_path", str(folder)]
    command += ["--log_samples", "--seed", str(model.seed)]
    # lm-eval's request cache (SQLite, written per request): a rerun of the
    # same identity (the folder's digest) resumes inside the step.
    command += ["--use_cache", str(folder.with_name(folder.name + "-cache"))]
    return command + (["--limit", str(limit)] if limit is not None else [])


def _stored_weights(arguments: Mapping[str, str]) -> str | None:
    """The ``pretrained`` weights of an lm-eval identity's ``model_args`` (JSON or ``k=v,...``)."""
    text = arguments.get("model_args") or ""
    try:
        parsed = json.loads(text)
    except json.JSONDecodeError:
        parsed = dict(pair.split("=", 1) for pair in text.split(",") if "=" in pair)
    return parsed.get("pretrained") if isinstance(parsed, dict) else None


def _check_coglm_run(headlines: list[Headline], model: ModelSpec, limit: int | None) -> None:
    """Refuse a stored CogLM run whose identity (weights, limit, seed, task) is not this step's."""
    from cog_tasks.coglm.lm_eval.results import FAMILY_VERSION

    def number(value: object) -> float | None:
        return None if value is None else float(value)  # type: ignore[arg-type]

    wanted = (model.weights, number(limit), str(model.seed), f"coglm@{FAMILY_VERSION}")
    for headline in headlines:
        arguments = dict(headline.run.arguments)
        stored = number(arguments.get("limit"))
        found = (_stored_weights(arguments), stored, headline.run.seed, headline.run.task)
        if found != wanted:
            raise ProfileStepError(
                f"the stored CogLM run (weights, limit, seed, task: {found}) is not this step's "
                f"({wanted}); use another --out"
            )


def _wait_reporting(process: Any, log_path: Path, progress: Callable[[str], None] | None) -> int:
    """Wait for ``process``; every :data:`REPORT_EVERY` s, pass its log path and last line on."""
    import subprocess

    while True:
        try:
            return process.wait(REPORT_EVERY)
        except subprocess.TimeoutExpired:
            if progress is not None:
                text = log_path.read_text(encoding="utf-8", errors="replace")
                last = text.replace("\r", "\n").strip().splitlines()[-1:] or ["no output yet"]
                progress(f"coglm: running, log {log_path}: {last[0][-160:]}")


def _run_lm_eval(model: ModelSpec, step: Step, out: Path) -> list[Headline]:
    """CogLM's step on local weights (or chance): lm-eval log-likelihood, reused per identity."""
    limit = step.task_args.get("per_ability")
    if model.is_chance:
        from cog_tasks.coglm.lm_eval.results import chance_headlines

        return chance_headlines(seed=model.seed, limit=limit)
    from cog_tasks.coglm.lm_eval.results import FAMILY_VERSION, headlines_from_lm_eval

    digest = _setting_digest(model.name, redact(model.args), limit, model.seed, FAMILY_VERSION)
    folder = out / f"coglm_lm_eval-{digest}"
    if not list(folder.glob("**/results_*.json")):
        import subprocess

        log_path = out / f"coglm_lm_eval-{digest}.log"
        # On a terminal lm-eval's progress bars (stderr) stay in view; the log keeps the rest.
        terminal = _display() == "full"
        with (
            log_path.open("a", encoding="utf-8") as log,  # a rerun appends
            files.child_process(
                _coglm_command(model, limit, folder),
                stdout=log,
                stderr=None if terminal else subprocess.STDOUT,
                env=_lm_eval_environment(model),
            ) as running,
        ):
            returncode = _wait_reporting(running, log_path, None if terminal else _progress)
        if returncode != 0:
            lines = log_path.read_text(encoding="utf-8").strip().splitlines() or ["no output"]
            raise ProfileStepError(
                f"CogLM's lm-eval run failed (exit {returncode}): {lines[-1]} "
                f"(whole output: {log_path})"
            )
    headlines = headlines_from_lm_eval(folder)
    _check_coglm_run(headlines, model, limit)
    return headlines


def _on_lm_eval(step: Step, model: ModelSpec) -> bool:
    """Whether the step runs lm-eval's task of its benchmark (local weights, or chance for them)."""
    return bool(REGISTRY[step.benchmark].lm_eval_task) and (model.is_local or model.is_chance)


def _step_rows(step: Step, model: ModelSpec, out: Path, lm_eval: bool) -> list[dict[str, Any]]:
    """One step's rows (lm-eval or Inspect), each with its best trivial strategy beside it."""
    if lm_eval:
        headlines = _run_lm_eval(model, step, out)
    else:
        # A log folder of its own for each task version, step and model setting (eval_set
        # resumes from it, so it never resumes on another version's samples).
        task = _task(step)
        setting = (step.task, dict(step.task_args), step.limit, step.epochs, model.name)
        setting += (redact(model.args), dict(model.roles), model.seed, _max_tokens(task, model))
        temperature = _temperature(step, model)
        setting += () if temperature is None else (temperature,)
        log_dir = out / "logs" / f"{step.task}-{_setting_digest(*setting, task.version)}"
        log = _run_inspect(step, task, model, log_dir)
        headlines = load(REGISTRY[step.benchmark].headlines)(log)
    strategies = REGISTRY[step.benchmark].strategies()
    return [h.as_row() for h in with_trivial(headlines, strategies, seed=model.seed)]


def with_chance(
    rows: list[dict[str, Any]], chance_rows: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Each row with the chance row of its benchmark, measure and task (``chance``; or ``None``)."""
    chance = dict(zip(views.row_keys(chance_rows), chance_rows, strict=True))
    kept = ("value", "ci_low", "ci_high", "n")
    return [
        {**row, "chance": {name: chance[key][name] for name in kept} if key in chance else None}
        for key, row in zip(views.row_keys(rows), rows, strict=True)
    ]


def run_profile(
    model: ModelSpec, preset: Preset, out: Path, progress: Callable[[str], None] = _progress
) -> dict[str, Any]:
    """Evaluate ``model`` on every benchmark of ``preset``, write the profile and return it."""
    check_roles(model, preset)
    out.mkdir(parents=True, exist_ok=True)
    identity = profile_identity(model, preset)
    with _claimed(out, identity):
        files.own_folder(out)  # a claimed run folder is resumed: its files are this run's
        profile = {
            "model": model.name,
            "preset": preset.name,
            "identity": dict(identity),
            "rows": _run_steps(model, preset, out, progress),
            "paper": [row.as_row() for row in paper_rows()],
            "versions": _versions(),
        }
        files.write_json_atomically(out / "profile.json", profile)
        views.write_views(profile, out)
        return profile


def _run_steps(
    model: ModelSpec, preset: Preset, out: Path, progress: Callable[[str], None]
) -> list[dict[str, Any]]:
    """The rows of :func:`run_profile` (``out`` held), each with chance on the same units."""
    if "model_path" in model.args and "HF_HUB_OFFLINE" not in os.environ:
        # Local weights: Inspect's hf provider would still look the model's
        # name up on the Hub, with back-off retries on every reply when offline.
        os.environ["HF_HUB_OFFLINE"] = "1"
        progress("local weights (model_path): HF_HUB_OFFLINE=1 for this run")
    rows: list[dict[str, Any]] = []
    for number, planned in enumerate(preset.steps, start=1):
        step = _with_judge(planned, model, progress)
        lm_eval = _on_lm_eval(step, model)
        name = f"[{number}/{len(preset.steps)}] "
        name += f"{step.benchmark} (lm-eval items)" if lm_eval else step.task
        progress(f"{name} ...")
        started = time.monotonic()
        rows += _step_rows(step, model, out, lm_eval)
        progress(f"{name} done ({time.monotonic() - started:.0f} s)")
    if model.is_chance:
        return with_chance(rows, rows)
    progress("chance: the seeded chance answerer on the same units ...")
    started = time.monotonic()
    chance = ModelSpec(CHANCE, seed=model.seed)  # on the units the model's steps ran
    chance_rows = [
        row
        for step in preset.steps
        for row in _step_rows(step, chance, out / "chance", _on_lm_eval(step, model))
    ]
    progress(f"chance done ({time.monotonic() - started:.0f} s)")
    return with_chance(rows, chance_rows)


def _versions() -> dict[str, str]:
    """Installed versions of cog-tasks (with its commit, from a checkout) and the frameworks."""
    from importlib import metadata

    from cog_tasks.common.provenance import cog_tasks_version

    found = {"cog-tasks": cog_tasks_version()}
    for package in PACKAGES:
        with suppress(metadata.PackageNotFoundError):
            found.setdefault(package, metadata.version(package))
    return found


def _row_label(row: Mapping[str, Any]) -> str:
    return f"{row['benchmark']} {row['measure']}"


def _units(row: Mapping[str, Any]) -> dict[str, UnitValue]:
    return {
        key: tuple(value) if isinstance(value, list) else value
        for key, value in row["units"].items()
    }


MODEL_FIELDS = ("model", "model_args", "backend", "seed", "num_fewshot")  # not the protocol's

CHANCE_MODELS = frozenset({CHANCE, "mockllm/chance"})  # Model names of the seeded chance answerers.


def _same(first: str | None, second: str | None) -> bool:
    """Two identity values alike, numbers compared as numbers (``20`` and ``20.0``)."""
    if first == second:
        return True
    try:
        return float(first) == float(second)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False


def protocol_differences(first: Mapping[str, Any], second: Mapping[str, Any]) -> list[str]:
    """How two rows' runs differ besides the model (chance's gaps aside): ``name: a vs b``."""
    one, other = (
        RunIdentity.of(
            run["task"], run["model"], roles=run["roles"], arguments=run["arguments"], seed=None
        ).fields()
        for run in (first, second)
    )
    ignored = set(MODEL_FIELDS)
    for fields, run in ((one, first), (other, second)):
        if run["model"] in CHANCE_MODELS:
            ignored |= {"rule"} | {name for name in {*one, *other} if name not in fields}
    names = [name for name in dict.fromkeys([*one, *other]) if name not in ignored]
    return [
        _version_difference(one[name], other[name])
        if name == "task"
        else f"{name}: {one.get(name, '-')} vs {other.get(name, '-')}"
        for name in names
        if not _same(one.get(name), other.get(name))
    ]


def _version_difference(first: str, second: str) -> str:
    """Two ``task@version`` names of one task as a protocol difference in the task version."""
    name, _, version = first.partition("@")
    other_name, _, other_version = second.partition("@")
    if name != other_name:
        return f"task: {first} vs {second}"
    return (
        f"task version (a protocol difference): {name} {version or '-'} vs {other_version or '-'}"
    )


@dataclass(frozen=True)
class Comparison:
    """One headline of two profiles: first minus second with its paired interval, or why not."""

    label: str
    difference: Interval | None
    first: float | None
    second: float | None
    reason: str = ""


def compare_profiles(
    first: Mapping[str, Any],
    second: Mapping[str, Any],
    seed: int = 0,
    allow_different: bool = False,
) -> list[Comparison]:
    """Pair the headlines of two profiles (rows whose runs differ only in the model)."""
    others = dict(zip(views.row_keys(second["rows"]), second["rows"], strict=True))
    comparisons = []
    for key, row in zip(views.row_keys(first["rows"]), first["rows"], strict=True):
        other, label = others.pop(key, None), _row_label(row)
        if other is None:
            comparisons.append(Comparison(label, None, row["value"], None, "only in the first"))
            continue
        pairing = compare_units(
            _units(row),
            _units(other),
            unit=row["unit"],
            differences=protocol_differences(row["run"], other["run"]),
            allow_different=allow_different,
            seed=seed,
            scale=row.get("scale", "raw"),
            statistic=row.get("statistic") or "",
        )
        values = (row["value"], other["value"])
        comparisons.append(Comparison(label, pairing.difference, *values, pairing.reason))
    comparisons += [
        Comparison(_row_label(row), None, None, row["value"], "only in the second")
        for row in others.values()
    ]
    return comparisons


PROFILE_ROW_FIELDS = ("benchmark", "measure", "value", "n", "unit", "run", "units")
RUN_FIELDS = ("task", "model", "roles", "arguments")


def _profile_file(path: Path) -> Path:
    """A ``profile.json``, or the one in a folder."""
    return path / "profile.json" if path.is_dir() else path


def _read_profile(folder: Path) -> dict[str, Any]:
    """A ``profile.json`` (or the one in a folder), checked for what ``compare`` reads."""
    path = _profile_file(folder)
    profile = files.read_json(path)
    if not isinstance(profile, dict) or not isinstance(profile.get("rows"), list):
        raise ResultsError(f"{path}: not a profile.json (no 'rows' list)")
    for number, row in enumerate(profile["rows"], start=1):
        if (problem := _row_problem(row)) is not None:
            raise ResultsError(f"{path}: row {number} is not a profile row ({problem})")
    return profile


def _is_number(value: object) -> bool:
    """Whether ``value`` is a finite JSON number (not a bool, NaN or infinity)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _is_numbers(value: object) -> bool:
    """Whether ``value`` is a list of finite JSON numbers (a payload's entry)."""
    return isinstance(value, list) and all(map(_is_number, value))


def _row_problem(row: object) -> str | None:
    """What keeps ``compare`` from reading a ``profile.json`` row, or ``None`` for a good row."""
    if not isinstance(row, dict) or any(name not in row for name in PROFILE_ROW_FIELDS):
        return f"needs {', '.join(PROFILE_ROW_FIELDS)}"
    run = row["run"]
    if not isinstance(run, dict) or any(name not in run for name in RUN_FIELDS):
        return f"needs run with {', '.join(RUN_FIELDS)}"
    texts = [row["benchmark"], row["measure"], row["unit"], run["task"], run["model"]]
    if not all(isinstance(text, str) for text in texts):
        return "benchmark, measure, unit and run task and model are text"
    if not isinstance(run["roles"], dict) or not isinstance(run["arguments"], dict):
        return "run roles and arguments are objects"
    if not (row["value"] is None or _is_number(row["value"])):
        return f"value {row['value']!r} is not a number"
    if isinstance(row["n"], bool) or not isinstance(row["n"], int):
        return f"n {row['n']!r} is not an integer"
    units, statistic = row["units"], row.get("statistic") or ""
    if not isinstance(units, dict) or not all(
        _is_number(value)
        or (isinstance(value, list) and len(value) == 2 and all(map(_is_number, value)))
        or (statistic and isinstance(value, dict) and all(map(_is_numbers, value.values())))
        for value in units.values()
    ):
        return "units map each unit to a number, a [numerator, denominator] pair or a payload"
    payloads = [value for value in units.values() if isinstance(value, dict)]
    widths = {len(entry) for payload in payloads for entry in payload.values()}
    if statistic and (len(payloads) != len(units) or len(widths) > 1):
        return "a statistic's units are all payloads, their entries of one length"
    try:
        statistic and sum_statistic(str(statistic))
    except ResultsError as error:
        return str(error)
    if row.get("scale", "raw") not in SCALES:
        return f"scale {row['scale']!r} is not one of {', '.join(SCALES)}"
    return None


def dry_run(model: ModelSpec, preset: Preset) -> list[cost.Estimate]:
    """What ``profile run`` would send, step by step, without calling a model."""
    estimates = []
    for step in preset.steps:
        if _on_lm_eval(step, model):
            from cog_tasks.coglm.abilities import ABILITIES
            from cog_tasks.coglm.records import load_records

            limit = step.task_args.get("per_ability")
            items = [item for a in ABILITIES for item in load_records([a.code])[:limit]]
            estimates.append(cost.estimate_lm_eval(items))
        else:
            estimates.append(cost.estimate_step(step, list(_task(step).dataset), model.max_tokens))
    return estimates


def sampling_note(model: ModelSpec) -> str | None:
    """A warning for a local model that will sample unseeded, or ``None``."""
    if model.name.startswith("llamacpp/") and model.temperature is None:
        return (
            f"note: {model.name} will sample (llama-cpp-python's server defaults, temperature "
            "0.8, top-p 0.95, unseeded, wherever a task sets no temperature: all but CogEval), "
            "so its chat rows vary from run to run; pass --temperature 0 for greedy replies"
        )
    if not model.name.startswith("hf/") or "do_sample" in model.args:
        return None
    return (
        f"note: {model.name} will sample (Inspect's hf default do_sample=True, unseeded), so "
        "its chat rows vary from run to run; pass -M do_sample=false for greedy replies"
    )


def _profile_run(args: argparse.Namespace) -> int:
    arguments, roles = dict(args.model_args), dict(args.model_roles)
    model = ModelSpec(
        args.model, arguments, roles, args.seed, args.max_tokens, args.self_judge, args.temperature
    )
    preset = PRESETS[args.preset]
    if args.dry_run:
        check_roles(model, preset)
        print(f"profile run --preset {preset.name} would send (nothing is run):")
        estimates = dry_run(model, preset)
        print("\n".join(cost.format_estimates(estimates, args.price_in, args.price_out)))
        return 0
    if note := sampling_note(model):
        print(note, file=sys.stderr)
    profile = run_profile(model, preset, args.out)
    print(views.render_markdown(profile))
    print(f"wrote {args.out / 'profile.json'}, profile.md, profile.png and profile.html")
    return 0


def _preset_difference(first: Mapping[str, Any], second: Mapping[str, Any]) -> str:
    """How two profiles' presets or token caps differ, or ``""``."""
    one, other = ({**profile, **(profile.get("identity") or {})} for profile in (first, second))
    names = ("preset", "max_tokens", "temperature")
    differing = [name for name in names if one.get(name) != other.get(name)]
    return "; ".join(f"{name}: {one.get(name)} vs {other.get(name)}" for name in differing)


def _difference_lines(
    first: Mapping[str, Any], base: Mapping[str, Any], args: argparse.Namespace
) -> list[str]:
    """One profile minus the base: paired rows, then every row not paired with its reason."""
    preset = _preset_difference(first, base)
    comparisons = compare_profiles(first, base, args.seed, args.allow_different)
    lines = [
        f"{first['model']} minus {base['model']}, paired over shared units (a bootstrap; "
        f"no interval below {SMALL_N} units; wilson or newcombe where every unit is "
        "all-or-nothing alike)" + (f"; PROFILES DIFFER IN {preset}" if preset else "")
    ]
    paired = [c for c in comparisons if c.difference is not None]
    for comparison in paired:
        difference = comparison.difference
        flag = "  *" if difference.significant(0.0) else ""
        note = f"  ({comparison.reason})" if comparison.reason else ""
        lines.append(
            f"  {comparison.label}: {difference.format()} n={difference.n} "
            f"{difference.method}{flag}{note}"
        )
    unpaired = [c for c in comparisons if c.difference is None]
    lines.append(f"{len(paired)} rows tested; {len(unpaired)} not paired")
    lines += [f"  {c.label}: not paired ({c.reason})" for c in unpaired]
    return lines


def _profile_compare(args: argparse.Namespace) -> int:
    profiles = [_read_profile(path) for path in args.profiles]
    refuse_same_content([_profile_file(path) for path in args.profiles], "profile")
    if len(profiles) < 2:
        raise ResultsError("profile compare needs two profiles or more")
    base_index = len(profiles) - 1 if args.base is None else args.base - 1
    if not 0 <= base_index < len(profiles):
        raise ResultsError(f"--base must be from 1 to {len(profiles)}, got {args.base}")
    base = profiles[base_index]
    for path, profile in zip(args.profiles, profiles, strict=True):
        preset = _preset_difference(profile, base)
        if preset and not args.allow_different:
            raise ResultsError(
                f"{path} and {args.profiles[base_index]} differ in {preset}; compare profiles "
                "of one preset and token cap, or pass --allow-different"
            )
    page = None if args.html is None else files.new_output(args.html, args.force, *args.profiles)
    names = [
        f"{profile['model']} ({_profile_file(path).parent.name})"
        for path, profile in zip(args.profiles, profiles, strict=True)
    ]
    print("\n".join(views.compare_table(names, profiles)), end="\n\n")
    others = [profile for index, profile in enumerate(profiles) if index != base_index]
    differences = [line for profile in others for line in _difference_lines(profile, base, args)]
    differences.append(
        f"* the interval excludes 0 over at least {SMALL_N} units (fewer are never marked)"
    )
    print("\n".join(differences))
    if page is not None:
        title = "Profiles compared: " + ", ".join(names)
        text = views.render_compare_html(title, names, profiles, differences)
        files.write_text_atomically(page, text)
        print(f"wrote {page}")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``profile`` command group to the ``cog-tasks`` parser."""
    group = subparsers.add_parser("profile", help="a model's cognitive profile across benchmarks")
    commands = group.add_subparsers(dest="profile_command", metavar="COMMAND", required=True)
    run = commands.add_parser(
        "run", help="evaluate a model on all four benchmarks and write profile.json/.md/.png"
    )
    run.add_argument("--model", required=True, help="Inspect model name, or 'chance'")
    cli.add_name_value_option(run, "-M", "model_args", "model argument, as in inspect eval -M")
    cli.add_name_value_option(
        run, "--model-role", "model_roles", "model role, e.g. judge=openai/gpt-4o"
    )
    run.add_argument(
        "--self-judge",
        action="store_true",
        help="without --model-role judge=..., the model judges its own CogBench Rationality",
    )
    run.add_argument(
        "--preset",
        choices=sorted(PRESETS),
        default="smoke",
        help="how much to run: smoke (minutes on a CPU), cpu (hours of an embedded model through "
        "llama.cpp), standard (an API budget) or full (each paper's whole protocol); --dry-run "
        "prints what a preset sends",
    )
    run.add_argument("--seed", type=int, default=0, help="seed of chance answers and sampling")
    run.add_argument(
        "--max-tokens",
        type=cli.positive_int,
        help="cap on generated tokens in the Inspect tasks that set none themselves (CogEval "
        "sets its own: -T max_tokens, else the paper's 2,048; e.g. for a base model)",
    )
    run.add_argument(
        "--temperature",
        type=cli.number_at_least(0.0),
        help="sampling temperature of the Inspect tasks that set none themselves (CogEval sets "
        "its own); default: the provider's (llamacpp/: 0.8; 0 is greedy)",
    )
    cli.add_out_option(run, "output folder", required=True)
    run.add_argument(
        "--dry-run",
        action="store_true",
        help="print each step's samples, requests and estimated tokens, and run nothing",
    )
    for option, tokens in (("--price-in", "input"), ("--price-out", "output")):
        note = f"with --dry-run: $ per million {tokens} tokens"
        run.add_argument(option, type=cli.number_at_least(0), help=note)
    run.set_defaults(func=_profile_run)
    compare = commands.add_parser(
        "compare", help="profiles side by side, and each one's paired differences from a base"
    )
    compare.add_argument(
        "profiles", type=Path, nargs="+", metavar="PROFILE", help="profile folder or profile.json"
    )
    compare.add_argument(
        "--base",
        type=int,
        help="which profile the others are compared with, counted from 1 (default: the last)",
    )
    compare.add_argument("--seed", type=int, default=0, help="seed of the paired bootstrap")
    compare.add_argument("--html", type=Path, help="also write the comparison as one HTML page")
    cli.add_force_option(compare)
    compare.add_argument(
        "--allow-different",
        action="store_true",
        help="pair rows whose presets, token caps or task arguments differ (each row says how)",
    )
    compare.set_defaults(func=_profile_compare)
    from cog_tasks.commands.profile_board import add_board_parser

    add_board_parser(commands)
