"""Imports point down only: cores < frontends < commands < cli.

Every ``import`` in the package is read from the source, those inside
functions and ``TYPE_CHECKING`` blocks included, so a lazy import cannot hide
a wrong arrow.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "cog_tasks"

BASE = ("cog_tasks.files", "cog_tasks.settings", "cog_tasks.models")
CORES = (
    "cog_tasks.coglm",
    "cog_tasks.cogeval",
    "cog_tasks.cogbench",
    "cog_tasks.egosocial",
    "cog_tasks.metrics",
    "cog_tasks.agents",
)
FRONTENDS = (
    "cog_tasks.inspect_evals",
    "cog_tasks.lm_eval_tasks",
    "cog_tasks.lm_eval_models",
    "cog_tasks.hf_datasets",
    "cog_tasks._registry",
)
FRAMEWORKS = ("inspect_ai", "lm_eval")
COMMANDS = ("cog_tasks.commands",)
CLI = ("cog_tasks.cli",)

# What each layer must never import.
FORBIDDEN: dict[tuple[str, ...], tuple[str, ...]] = {
    BASE: CORES + FRONTENDS + FRAMEWORKS + COMMANDS + CLI,
    CORES: FRONTENDS + FRAMEWORKS + COMMANDS + CLI,
    FRONTENDS: COMMANDS + CLI,
    COMMANDS: CLI,
}


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
        for layer, forbidden in FORBIDDEN.items():
            if not within(module, layer):
                continue
            for line, names in imported_names(path):
                wrong = [name for name in names if within(name, forbidden)]
                if wrong:
                    arrows.append(f"{path.relative_to(PACKAGE.parent)}:{line}: imports {wrong[0]}")
    return arrows


def test_imports_point_down_only() -> None:
    assert wrong_arrows() == []


def test_only_the_cli_imports_the_commands() -> None:
    importers = {
        module_name(path)
        for path in PACKAGE.rglob("*.py")
        for _, names in imported_names(path)
        if any(within(name, COMMANDS) for name in names)
    }
    assert {name for name in importers if not within(name, COMMANDS)} == {"cog_tasks.cli"}


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
        ("from ..inspect_evals import logs\n", "cog_tasks.inspect_evals"),
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
