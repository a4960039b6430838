"""A benchmark's one declaration: what every command learns about it from the registry.

Callables are ``"module:attribute"`` references imported only when used, so listing the
registry (``cog-tasks --help``) imports no numpy or framework.
"""

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
    """A strategy without cognition, scored on the model row's own units.

    ``score`` names a function ``(units, run) -> {measure: {unit: value}}``: the per-unit values
    it earns on exactly those units, in the form the model's take.
    """

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
    """How ``cog-tasks data build|push`` writes a benchmark's Hub-shaped folder.

    Either ``write`` (``(folder) -> summary line``), or ``build`` and ``card`` (a ``DatasetDict``
    and its card), with an optional ``check(built)`` that refuses a partial copy.
    """

    description: str
    write: str = ""
    build: str = ""
    card: str = ""
    check: str = ""


@dataclass(frozen=True)
class BenchmarkSpec:
    """Everything a benchmark declares once.

    Attributes:
        name: Stable name: the CLI group, the package folder and the profile's column.
        unit: The independent unit its intervals resample (``item``, ``task``, ...).
        headlines: ``(log) -> list[Headline]`` of one Inspect log.
        chance: Its seeded chance answerer's factory, ``(seed) -> ScriptedReplies``, or
            ``(task_args, seed)`` where ``chance_reads_args``.
        trivial: Trivial strategies shown beside every headline, or a reference to them.
        lm_eval_task: The lm-eval task a profile of local weights runs instead; ``""``: none.
        request_turns: ``(task, task_args, metadata) -> list[int]``, the characters each request
            of one sample adds (the cost estimate); ``""``: one request a sample.
        self_judges: Whether, without a judge role, its judged steps have the model judge itself.
        cli: Module whose ``register(subparsers)`` adds its command group.
    """

    name: str
    title: str
    unit: str
    tasks: tuple[str, ...] = ()
    task_module: str = ""
    headlines: str = ""
    paper: str = ""
    chance: str = ""
    chance_reads_args: bool = False
    trivial: tuple[TrivialStrategy, ...] | str = ()
    presets: Mapping[str, tuple[Step, ...]] = field(default_factory=dict)
    lm_eval_task: str = ""
    request_turns: str = ""
    judged_tasks: tuple[str, ...] = ()
    self_judges: bool = False
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
