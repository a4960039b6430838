"""``cog-tasks list``: every task of both frameworks, its protocol, item count and README."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from cog_tasks.benchmarks import REGISTRY

PACKAGE_ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = tuple(sorted(REGISTRY))  # alphabetical: the order of 0.3.0's listing
PROTOCOLS = {
    "multiple_choice": "lm-eval, log-likelihood of each option",
    "generate_until": "lm-eval, generation",
}


@dataclass(frozen=True)
class TaskEntry:
    """One row of the listing (``why``: the whole error where the items could not be counted)."""

    framework: str
    name: str
    protocol: str
    items: str
    readme: str
    why: str = ""


class _YamlLoader(yaml.SafeLoader):
    """Reads lm-eval task YAML, keeping ``!function`` references as text."""


_YamlLoader.add_constructor("!function", lambda loader, node: loader.construct_scalar(node))


def _read_yaml(path: Path) -> dict[str, Any]:
    config = yaml.load(path.read_text(encoding="utf-8"), Loader=_YamlLoader) or {}
    include = config.pop("include", None)
    if include:
        config = {**_read_yaml(path.parent / include), **config}
    return config


def _count(counter: Callable[[], int]) -> tuple[str, str]:
    """Run a counter quietly: the count and ``""``, or ``n/a (error type)`` and the error."""
    quiet = io.StringIO()
    logging.disable(logging.WARNING)
    try:
        with contextlib.redirect_stdout(quiet), contextlib.redirect_stderr(quiet):
            return f"{counter():,}", ""
    except Exception as error:  # the listing reports any failure and goes on
        name = type(error).__name__
        return f"n/a ({name})", f"{name}: {' '.join(str(error).split())}"
    finally:
        logging.disable(logging.NOTSET)


def _module_of(folder: Path) -> str:
    return ".".join(folder.relative_to(PACKAGE_ROOT.parent).parts)


def _readme(benchmark_dir: Path) -> str:
    return str((benchmark_dir / "README.md").relative_to(PACKAGE_ROOT.parent))


def _hook_counter(family: Path, hook: str, kwargs: dict[str, Any]) -> Callable[[], int]:
    module_name, _, function = hook.rpartition(".")
    package = f"{_module_of(family)}.{module_name}"

    def count() -> int:
        dataset = getattr(importlib.import_module(package), function)(**kwargs)
        return sum(split.num_rows for split in dataset.values())

    return count


def _group_count(members: list[str], groups: dict[str, list[str]], counts: dict[str, str]) -> str:
    """Sum of the members' counts (groups recursively); ``n/a`` if any is unknown."""
    values = [counts.get(m) or _group_count(groups.get(m, []), groups, counts) for m in members]
    numbers = [int(v.replace(",", "")) for v in values if v and v[0].isdigit()]
    return f"{sum(numbers):,}" if numbers and len(numbers) == len(values) else "n/a"


def _group_protocol(
    members: list[str], groups: dict[str, list[str]], protocols: dict[str, str]
) -> str:
    """The members' common protocol (groups recursively)."""
    found = {
        protocols.get(m) or _group_protocol(groups.get(m, []), groups, protocols) for m in members
    }
    return found.pop() if len(found) == 1 else "lm-eval, mixed"


def lm_eval_families(benchmark_dir: Path) -> list[Path]:
    """The folders of ``benchmark_dir/lm_eval`` that hold task YAML files."""
    folder = benchmark_dir / "lm_eval"
    if not folder.is_dir():
        return []
    return sorted({path.parent for path in folder.rglob("*.yaml")})


def lm_eval_entries(benchmark_dir: Path) -> list[TaskEntry]:
    """The lm-eval tasks and groups of one benchmark folder (``cog_tasks/<benchmark>``)."""
    entries = []
    readme = _readme(benchmark_dir)
    for family in lm_eval_families(benchmark_dir):
        configs = [_read_yaml(path) for path in sorted(family.glob("*.yaml"))]
        counts: dict[str, str] = {}
        reasons: dict[str, str] = {}
        protocols: dict[str, str] = {}
        for config in configs:
            name = config.get("task")
            if isinstance(name, str) and "custom_dataset" in config:
                kwargs = config.get("dataset_kwargs", {})
                counts[name], reasons[name] = _count(
                    _hook_counter(family, config["custom_dataset"], kwargs)
                )
                protocols[name] = PROTOCOLS.get(config.get("output_type", ""), "lm-eval")
        groups = {c["group"]: c["task"] for c in configs if "group" in c}
        for group, members in groups.items():
            protocol = _group_protocol(members, groups, protocols)
            count = _group_count(members, groups, counts)
            entries.append(TaskEntry("lm-eval", group, f"{protocol} (group)", count, readme))
        entries += [
            TaskEntry("lm-eval", name, protocols[name], count, readme, reasons[name])
            for name, count in counts.items()
        ]
    return entries


def inspect_entries(benchmark_dir: Path) -> list[TaskEntry]:
    """The Inspect tasks defined under ``benchmark_dir/inspect``."""
    from inspect_ai import list_tasks

    evals_dir = benchmark_dir / "inspect"
    if not evals_dir.is_dir():
        return []
    entries = []
    readme = _readme(benchmark_dir)
    for info in list_tasks(root_dir=evals_dir):
        module_path = Path(info.file).with_suffix("")
        module = importlib.import_module(".".join((_module_of(evals_dir), *module_path.parts)))
        function = getattr(module, info.name)
        summary = (function.__doc__ or "").strip().splitlines()[0] if function.__doc__ else ""
        protocol = f"Inspect, chat: {summary}" if summary else "Inspect, chat"
        items, why = _count(lambda function=function: len(function().dataset))
        entries.append(TaskEntry("Inspect", f"cog_tasks/{info.name}", protocol, items, readme, why))
    return entries


def _list(args: argparse.Namespace) -> int:
    folders = [PACKAGE_ROOT / benchmark for benchmark in BENCHMARKS]
    entries = []
    if args.framework in (None, "lm-eval"):
        entries += [entry for folder in folders for entry in lm_eval_entries(folder)]
    if args.framework in (None, "inspect"):
        entries += [entry for folder in folders for entry in inspect_entries(folder)]
    print("| framework | task | protocol | items | README |")
    print("|---|---|---|---:|---|")
    notes: dict[str, int] = {}  # reason -> note number, each reason once
    for entry in entries:
        items = entry.items
        if entry.why:
            items += f" [{notes.setdefault(entry.why, len(notes) + 1)}]"
        print(
            f"| {entry.framework} | `{entry.name}` | {entry.protocol} | {items} "
            f"| [{entry.readme}]({entry.readme}) |"
        )
    if notes:
        print("\nWhy a count is n/a:")
    for why, number in notes.items():
        print(f"[{number}] {why}")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``list`` command to the ``cog-tasks`` parser."""
    command = subparsers.add_parser(
        "list", help="every task of lm-eval and Inspect: protocol, item count, README"
    )
    command.add_argument(
        "--framework", choices=["lm-eval", "inspect"], help="list only this framework's tasks"
    )
    command.set_defaults(func=_list)
