"""Imports point down only: common < benchmark cores < benchmark frontends < top layer.

- ``cog_tasks.common`` never imports a benchmark or the top layer.
- A benchmark's core (``cog_tasks.<benchmark>`` less its frontends) never
  imports the frameworks, its own frontends (``inspect/``, ``lm_eval/``, its
  CLI group, its dataset builder), another benchmark or the top layer.
- A benchmark's frontends never import another benchmark or the top layer.
- Nothing imports the top layer (the ``cog-tasks`` command, the Inspect
  registry, the commands that span benchmarks) but the top layer itself.
- A benchmark's core parses no framework output: no string of it names
  lm-eval's ``results_*.json``/``samples_*.jsonl`` files or their fields (its
  frontends read them into plain records).

Every ``import`` in the package is read from the source, those inside
functions and ``TYPE_CHECKING`` blocks included, so a lazy import cannot hide
a wrong arrow.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

from cog_tasks.benchmarks import REGISTRY

PACKAGE = Path(__file__).resolve().parents[1] / "cog_tasks"

BENCHMARKS = tuple(REGISTRY)
FRONTEND_PARTS = ("inspect", "lm_eval", "cli", "dataset")
COMMON = ("cog_tasks.common",)
TOP = ("cog_tasks.cli", "cog_tasks._registry", "cog_tasks.benchmarks", "cog_tasks.commands")
FRAMEWORKS = ("inspect_ai", "lm_eval")


def benchmark(name: str) -> tuple[str, ...]:
    return (f"cog_tasks.{name}",)


def frontends(name: str) -> tuple[str, ...]:
    return tuple(f"cog_tasks.{name}.{part}" for part in FRONTEND_PARTS)


def others(name: str) -> tuple[str, ...]:
    return tuple(f"cog_tasks.{other}" for other in BENCHMARKS if other != name)


def layer_rules() -> list[tuple[str, tuple[str, ...], tuple[str, ...], tuple[str, ...]]]:
    """``(label, layer, exempt, forbidden)``: modules in ``layer`` but not ``exempt``."""
    every_benchmark = tuple(f"cog_tasks.{name}" for name in BENCHMARKS)
    rules = [("common", COMMON, (), every_benchmark + TOP)]
    for name in BENCHMARKS:
        rules.append(
            (
                f"{name} core",
                benchmark(name),
                frontends(name),
                FRAMEWORKS + frontends(name) + others(name) + TOP,
            )
        )
        rules.append((f"{name} frontends", frontends(name), (), others(name) + TOP))
    return rules


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_names(path: Path) -> list[tuple[int, tuple[str, ...]]]:
    """``(line, names)`` of every import statement, relative imports resolved.

    ``from a import b`` gives both ``a`` and ``a.b``: ``b`` may be a module.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module_name(path)
    if path.name != "__init__.py":
        package = package.rsplit(".", 1)[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, (alias.name,)) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module or ""
            found.append((node.lineno, (target, *(f"{target}.{a.name}" for a in node.names))))
    return found


def within(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == prefix or name.startswith(prefix + ".") for prefix in prefixes)


def wrong_arrows() -> list[str]:
    arrows = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = module_name(path)
        for label, layer, exempt, forbidden in layer_rules():
            if not within(module, layer) or within(module, exempt):
                continue
            for line, names in imported_names(path):
                wrong = [name for name in names if within(name, forbidden)]
                if wrong:
                    where = path.relative_to(PACKAGE.parent)
                    arrows.append(f"{where}:{line}: {label} imports {wrong[0]}")
    return arrows


def test_imports_point_down_only() -> None:
    assert wrong_arrows() == []


def test_nothing_below_imports_the_top_layer() -> None:
    importers = {
        module_name(path)
        for path in PACKAGE.rglob("*.py")
        for _, names in imported_names(path)
        if any(within(name, TOP) for name in names)
    }
    assert {name for name in importers if not within(name, TOP)} == set()


def test_every_benchmark_folder_has_its_parts() -> None:
    for name in BENCHMARKS:
        folder = PACKAGE / name
        assert (folder / "README.md").is_file(), name
        assert (folder / "inspect" / "__init__.py").is_file(), name
        assert (folder / "dataset.py").is_file(), name
        assert (folder / "cli.py").is_file() or (folder / "cli" / "__init__.py").is_file(), name


def test_commands_are_listed_not_discovered() -> None:
    users = [
        str(path.relative_to(PACKAGE.parent))
        for path in PACKAGE.rglob("*.py")
        for _, names in imported_names(path)
        if "pkgutil" in names
    ]
    assert users == []


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from inspect_ai.log import read_eval_log\n", "inspect_ai.log"),
        ("def f():\n    import lm_eval\n", "lm_eval"),
        ("from .inspect import logs\n", "cog_tasks.coglm.inspect"),
        ("from cog_tasks.cogeval import graphs\n", "cog_tasks.cogeval"),
        ("import cog_tasks.cli\n", "cog_tasks.cli"),
    ],
)
def test_the_checker_sees_every_kind_of_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, source: str, expected: str
) -> None:
    package = tmp_path / "cog_tasks"
    (package / "coglm").mkdir(parents=True)
    (package / "coglm" / "bad.py").write_text(source, encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", package)
    arrows = wrong_arrows()
    assert len(arrows) == 1 and f"imports {expected}" in arrows[0]


# Framework output is read by the frontends: lm-eval's results and samples files, Inspect logs.
FRAMEWORK_OUTPUT = re.compile(r"\b(results|samples)_\S*\.jsonl?\b|\b(filtered_resps|n-samples)\b")


def _texts(tree: ast.AST) -> list[tuple[int, str]]:
    """``(line, text)`` of every string and f-string (placeholders as ``{}``) but docstrings."""
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    fstrings = [node for node in ast.walk(tree) if isinstance(node, ast.JoinedStr)]
    inside_fstrings = {id(part) for node in fstrings for part in node.values}
    texts = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            text = "".join(
                part.value if isinstance(part, ast.Constant) else "{}" for part in node.values
            )
            texts.append((node.lineno, text))
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings | inside_fstrings
        ):
            texts.append((node.lineno, node.value))
    return texts


def framework_file_parsing() -> list[str]:
    """Where a core names lm-eval's output files or fields (a sign it parses them)."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = module_name(path)
        cores = [name for name in BENCHMARKS if within(module, benchmark(name))]
        if not cores or within(module, frontends(cores[0])):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for line, text in _texts(tree):
            if FRAMEWORK_OUTPUT.search(text):
                found.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {text!r}")
    return found


def test_cores_do_not_parse_framework_output() -> None:
    assert framework_file_parsing() == []


@pytest.mark.parametrize(
    "source",
    [
        "files = folder.rglob('results_*.json')\n",
        "def f(code):\n    return folder.glob(f'samples_coglm_{code}_*.jsonl')\n",
        "scores = row['filtered_resps']\n",
    ],
)
def test_the_framework_output_check_sees_a_reader(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, source: str
) -> None:
    package = tmp_path / "cog_tasks"
    for folder in ("coglm", "coglm/lm_eval"):
        (package / folder).mkdir(parents=True, exist_ok=True)
        (package / folder / "reader.py").write_text(f'"""results_x.json."""\n{source}')
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", package)
    (found,) = framework_file_parsing()
    assert found.startswith(str(Path("cog_tasks") / "coglm" / "reader.py"))
