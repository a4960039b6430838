"""Shared test fixtures (offline settings, shared data, SmolLM2) and the slow-marker guard.

A test that runs an Inspect eval, an lm-eval evaluation or a ``cog-tasks``
run in a child process, or that loads a model, must be marked
``@pytest.mark.slow``: ``pytest -m "not slow"`` is the fast tier. The guard
wraps those entry points before any test module is imported (so that
``from inspect_ai import eval`` binds the wrapper too) and fails an unmarked
test as soon as one returns, or a child process starts; an entry point that
refuses its input (raises) costs nothing and passes.
"""

from __future__ import annotations

import functools
import importlib
import os
import re
import subprocess
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO_ROOT.parent / "shared" / "data"

# Tests never reach a model hub: fail fast instead of retrying the network.
for variable in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "TRANSFORMERS_OFFLINE"):
    os.environ.setdefault(variable, "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
# One BLAS thread for numpy and scipy (torch keeps its own): on 2 busy cores, OpenBLAS
# threads spinning against each other made a GLM of the paper's design 10x slower.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
if os.environ.get("PYTEST_XDIST_WORKER"):
    # ``pytest -n 2``: a process per core, so one torch thread each (children inherit it)
    os.environ.setdefault("OMP_NUM_THREADS", "1")
if "COG_TASKS_DATA" not in os.environ and SHARED_DATA.is_dir():
    os.environ["COG_TASKS_DATA"] = str(SHARED_DATA)

SLOW_ENTRY_POINTS = {
    "inspect_ai": ("eval", "eval_async", "eval_set", "eval_retry", "eval_retry_async"),
    "inspect_ai.model": ("get_model",),
    "lm_eval": ("simple_evaluate", "evaluate"),
    "lm_eval.evaluator": ("simple_evaluate", "evaluate"),
    "cog_tasks.common.scripted": ("run_chance_model",),
    "cog_tasks.common.models": ("embedded_model_path",),
}
"""Module -> functions that start an evaluation or load a model."""

CHEAP_MODELS = re.compile(r"mockllm/")
"""``get_model`` names that load nothing (Inspect's scripted ``mockllm``)."""

SLOW_PROCESS = re.compile(
    r"(^|[\s/])(inspect\s+eval\b|lm[-_]eval\b"
    r"|(cog-tasks|cog_tasks\.cli)\s+(lm-eval|model-path|profile\s+run|\S+\s+"
    r"(chance|interdependence|judge-agreement))\b)"
)
"""A child process that evaluates or loads a model (its command line, ``bash -c`` scripts too)."""

SLOW_ELSEWHERE = {
    "tests/common/test_inspect_metrics.py::test_every_key_gets_an_interval_and_the_log_an_identity",
    "tests/common/test_inspect_metrics.py::test_a_chance_answerer_seed_is_part_of_the_identity",
}
"""Tests that run an eval, in files this suite's owners mark themselves: marked slow here."""

_running: list[pytest.Item] = []  # the test being set up, run or torn down


def _refuse_unless_slow(what: str) -> None:
    """Fail the running test if it is not marked slow."""
    if _running and _running[-1].get_closest_marker("slow") is None:
        pytest.fail(
            f"{_running[-1].nodeid} {what} but is not marked @pytest.mark.slow "
            '(pytest -m "not slow" must stay fast)',
            pytrace=False,
        )


def _guarded(function: Callable[..., Any], name: str) -> Callable[..., Any]:
    """``function``, failing an unmarked test that calls it."""

    @functools.wraps(function)
    def guard(*args: Any, **kwargs: Any) -> Any:
        result = function(*args, **kwargs)
        model = args[0] if args else kwargs.get("model", result)  # get_model(): the active one
        if not (name.endswith(".get_model") and CHEAP_MODELS.match(str(model))):
            _refuse_unless_slow(f"ran {name}")
        return result

    guard.unguarded = function  # type: ignore[attr-defined]
    return guard


class _GuardedPopen(subprocess.Popen):
    """``subprocess.Popen`` failing an unmarked test that starts an evaluation in a child."""

    def __init__(self, args: Any, *rest: Any, **kwargs: Any) -> None:
        words = [args] if isinstance(args, str | bytes | os.PathLike) else list(args)
        if SLOW_PROCESS.search(" ".join(str(word) for word in words)):
            _refuse_unless_slow(f"starts `{' '.join(str(w) for w in words)[:120]}`")
        super().__init__(args, *rest, **kwargs)


def pytest_configure(config: pytest.Config) -> None:
    """Wrap the slow entry points before the test modules import them."""
    for module_name, names in SLOW_ENTRY_POINTS.items():
        module = importlib.import_module(module_name)
        for name in names:
            function = getattr(module, name)
            if not hasattr(function, "unguarded"):
                setattr(module, name, _guarded(function, f"{module_name}.{name}"))
    subprocess.Popen = _GuardedPopen  # type: ignore[misc]


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Remember the test (before its fixtures, session ones included, are set up)."""
    _running.append(item)


@pytest.hookimpl(hookwrapper=True, trylast=True)
def pytest_runtest_teardown(item: pytest.Item) -> Generator[None, None, None]:
    """Forget the test once it is torn down."""
    yield
    _running.clear()


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The local copy of the original benchmark data (``../shared/data``)."""
    path = Path(os.environ.get("COG_TASKS_DATA", SHARED_DATA))
    if not path.is_dir():
        pytest.skip(f"no local benchmark data at {path}; set COG_TASKS_DATA")
    return path


@pytest.fixture(scope="session")
def smollm2_path() -> Path:
    """Local HF directory of SmolLM2-135M-Instruct, converted once and cached."""
    from cog_tasks.common.models import embedded_model_path

    return embedded_model_path("smollm2")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark :data:`SLOW_ELSEWHERE`; refuse, before anything runs, SmolLM2 without ``slow``."""
    for item in items:
        if item.nodeid in SLOW_ELSEWHERE:
            item.add_marker(pytest.mark.slow)
    unmarked = [
        item.nodeid
        for item in items
        if "smollm2_path" in getattr(item, "fixturenames", ())
        and item.get_closest_marker("slow") is None
    ]
    if unmarked:
        raise pytest.UsageError(
            "tests that load SmolLM2 must be marked @pytest.mark.slow: " + ", ".join(unmarked)
        )


@pytest.fixture(autouse=True)
def _fresh_output_rule() -> None:
    """Each test starts the output rule afresh, as each command does (no inputs, no --force)."""
    from cog_tasks.common.files import begin_command

    begin_command(force=False)


def _checkout_changes() -> set[str] | None:
    """``git status`` of the checkout, ignored files aside (``None`` outside a git checkout)."""
    done = subprocess.run(
        ["git", "-C", str(REPO_ROOT), "status", "--porcelain", "--untracked-files=all"],
        capture_output=True,
        text=True,
    )
    return set(done.stdout.splitlines()) if done.returncode == 0 else None


@pytest.fixture(autouse=True, scope="module")
def _nothing_written_into_the_checkout() -> Generator[None, None, None]:
    """A test module writes under its own folders, never into the checkout, at any depth."""
    before = _checkout_changes()
    yield
    after = _checkout_changes()
    if before is not None and after is not None and after - before:
        changed = ", ".join(sorted(after - before))
        pytest.fail(f"a test of this module changed the checkout {REPO_ROOT}: {changed}")
