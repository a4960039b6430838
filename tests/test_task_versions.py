"""Task versions: one declaration per task family, read by lm-eval and Inspect.

- An lm-eval family (a folder of ``<benchmark>/lm_eval/``) declares its version
  once, in ``_<family>_version.yaml``; its template and its group YAMLs include
  that file and no other YAML of the folder names a version.
- A benchmark's Inspect tasks take their version from ``<benchmark>/inspect/version.py``:
  ``TASK_VERSION``, or the ``TASK_VERSIONS`` table where its tasks differ.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import re
import warnings
from pathlib import Path
from typing import Any

import pytest
import yaml
from inspect_ai import list_tasks
from lm_eval.tasks import TaskManager

from cog_tasks.cli import tasks_path
from cog_tasks.commands.catalog import BENCHMARKS, lm_eval_families

PACKAGE = tasks_path()
REPO_ROOT = PACKAGE.parent
FAMILIES = [family for benchmark in BENCHMARKS for family in lm_eval_families(PACKAGE / benchmark)]
# Inspect task arguments that keep building a task offline and cheap.
CHEAP_ARGS: dict[str, dict[str, Any]] = {"cogbench": {"source": "sample"}}
SEMVER = re.compile(r"\d+\.\d+\.\d+")


def version_file(family: Path) -> Path:
    """The one ``_*_version.yaml`` of an lm-eval family folder."""
    (path,) = family.glob("_*_version.yaml")
    return path


def declared_version(family: Path) -> float:
    """The version an lm-eval family folder declares."""
    return yaml.safe_load(version_file(family).read_text())["metadata"]["version"]


def test_every_lm_eval_family_declares_one_float_version_once() -> None:
    assert {family.name for family in FAMILIES} == {"coglm", "coglm_gen", "lm_eval"}
    for family in FAMILIES:
        declaration = version_file(family)
        assert yaml.safe_load(declaration.read_text()) == {
            "metadata": {"version": declared_version(family)}
        }
        assert isinstance(declared_version(family), float), declaration
        for path in sorted(family.glob("*.yaml")):
            if path == declaration:
                continue
            text = path.read_text()
            assert not re.search(r"^\s*(metadata|version):", text, re.M), path
            if path.name.endswith("_template.yaml") or re.search(r"^group:", text, re.M):
                assert f"\ninclude: {declaration.name}\n" in f"\n{text}", path


def test_lm_eval_index_gives_every_task_and_group_its_family_version() -> None:
    index = TaskManager(include_path=str(PACKAGE), include_defaults=False).task_index
    assert len(index) == 54  # 40 tasks and 14 groups
    for name, entry in index.items():
        assert entry.cfg["metadata"] == {"version": declared_version(entry.yaml_path.parent)}, name


@pytest.mark.slow  # 35.8 s CPU: lm-eval indexes every task (issue 46)
def test_lm_eval_reports_the_declared_version_of_every_task_and_group(shared_data: Path) -> None:
    manager = TaskManager(include_path=str(PACKAGE), include_defaults=False)
    members = {m for entry in manager.task_index.values() for m in entry.cfg.get("task", [])}
    top_groups = [name for name in manager.all_groups if name not in members]
    loaded = manager.load(top_groups)
    assert set(loaded["tasks"]) | set(loaded["groups"]) == set(manager.task_index)
    for name, task in loaded["tasks"].items():
        version = declared_version(manager.task_index[name].yaml_path.parent)
        assert task.VERSION == task.config.metadata["version"] == version, name
    for name, group in loaded["groups"].items():
        version = declared_version(manager.task_index[name].yaml_path.parent)
        assert group.version == str(version), name


def test_coglm_speed_stamps_the_declared_coglm_version() -> None:
    spec = importlib.util.spec_from_file_location(
        "coglm_speed", REPO_ROOT / "benchmarks" / "coglm_speed.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    family = PACKAGE / "coglm" / "lm_eval" / "coglm"
    assert module.coglm_task_version() == str(declared_version(family)) == "2.1"


def _version_argument(call: ast.Call) -> ast.expr | None:
    return next((kw.value for kw in call.keywords if kw.arg == "version"), None)


@pytest.mark.parametrize("name", BENCHMARKS)
def test_every_inspect_task_passes_its_benchmark_constant(name: str) -> None:
    """Read from the source: ``Task(version=...)`` names the constant, never a literal."""
    calls = 0
    for path in sorted((PACKAGE / name / "inspect").glob("*.py")):
        tree = ast.parse(path.read_text())
        imported = {
            alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom)
            and node.module == f"cog_tasks.{name}.inspect.version"
            for alias in node.names
        }
        for function in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)):
            for call in (n for n in ast.walk(function) if isinstance(n, ast.Call)):
                if not (isinstance(call.func, ast.Name) and call.func.id == "Task"):
                    continue
                calls += 1
                version = _version_argument(call)
                where = f"{path.name}:{call.lineno}"
                if isinstance(version, ast.Subscript):  # TASK_VERSIONS["<this task>"]
                    assert ast.unparse(version) == f"TASK_VERSIONS[{function.name!r}]", where
                    assert "TASK_VERSIONS" in imported, where
                else:
                    assert isinstance(version, ast.Name), where
                    assert version.id == "TASK_VERSION" in imported, where
    assert calls


@pytest.mark.parametrize("name", BENCHMARKS)
def test_every_inspect_task_reports_its_declared_version(name: str, shared_data: Path) -> None:
    declared = importlib.import_module(f"cog_tasks.{name}.inspect.version")
    versions = getattr(declared, "TASK_VERSIONS", None)
    infos = list_tasks(root_dir=PACKAGE / name / "inspect")
    assert infos
    if versions is not None:
        assert set(versions) == {info.name for info in infos}
    for info in infos:
        module = importlib.import_module(
            f"cog_tasks.{name}.inspect.{Path(info.file).with_suffix('').as_posix()}"
        )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)  # deprecated alias names
            task = getattr(module, info.name)(**CHEAP_ARGS.get(name, {}))
        expected = declared.TASK_VERSION if versions is None else versions[info.name]
        assert task.version == expected, info.name
        assert isinstance(expected, str) and SEMVER.fullmatch(expected), info.name
