"""A benchmark's one declaration; callables are ``"module:attribute"`` references (lazy)."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


def load(reference: str) -> Any:
    """Import what a ``"package.module:attribute"`` reference names."""
    module, _, attribute = reference.partition(":")
    return getattr(importlib.import_module(module), attribute)


@dataclass(frozen=True)
class TrivialStrategy:
    """A strategy without cognition; ``score``: ``(units, run) -> {measure: {unit: value}}``."""

    name: str
    score: str


@dataclass(frozen=True)
class Step:
    """One Inspect task of a profile preset (``limit``: samples to evaluate, ``None``: all)."""

    benchmark: str
    task: str
    task_args: Mapping[str, Any] = field(default_factory=dict)
    limit: int | None = None
    epochs: int = 1


@dataclass(frozen=True)
class DataSource:
    """How ``cog-tasks data build|push`` writes a folder: ``write``, or ``build`` and ``card``."""

    description: str
    write: str = ""
    build: str = ""
    card: str = ""
    check: str = ""


@dataclass(frozen=True)
class BenchmarkSpec:
    """Everything a benchmark declares once."""

    name: str
    title: str
    unit: str  # The independent unit its intervals resample (``item``, ``task``, ...).
    tasks: tuple[str, ...] = ()
    task_module: str = ""
    headlines: str = ""
    paper: str = ""
    # Its seeded chance answerer's factory: ``(seed)``, or ``(task_args, seed)`` if the next is set.
    chance: str = ""
    chance_reads_args: bool = False
    trivial: tuple[TrivialStrategy, ...] | str = ()
    presets: Mapping[str, tuple[Step, ...]] = field(default_factory=dict)
    lm_eval_task: str = ""  # The lm-eval task a profile of local weights runs instead ("": none).
    # ``(task, task_args, metadata) -> list[int]``, characters per request (the cost estimate);
    request_turns: str = ""  # ``""``: one request a sample.
    judged_tasks: tuple[str, ...] = ()
    self_judges: bool = False  # Without a judge role, its judged steps have the model judge itself.
    own_temperatures: bool = False  # Its samples set their own temperatures (a global one refused).
    data: DataSource | None = None
    cli: str = ""

    def task(self, name: str, **task_args: Any) -> Any:
        """Build one of its Inspect tasks (imports the framework)."""
        return getattr(importlib.import_module(self.task_module), name)(**task_args)

    def chance_answerer(self, task_args: Mapping[str, Any], seed: int) -> Any:
        """Its seeded chance answerer for a task run with ``task_args``."""
        factory = load(self.chance)
        return factory(dict(task_args), seed) if self.chance_reads_args else factory(seed)

    def strategies(self) -> tuple[TrivialStrategy, ...]:
        """Its trivial strategies (imported where ``trivial`` is a reference)."""
        return tuple(load(self.trivial)) if isinstance(self.trivial, str) else self.trivial

    def paper_rows(self) -> tuple[Any, ...]:
        """Its published rows."""
        return tuple(load(self.paper)) if self.paper else ()
