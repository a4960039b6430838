"""A benchmark's one declaration: what every command learns about it from the registry.

Each benchmark package holds one :class:`BenchmarkSpec`; the registry
(:mod:`cog_tasks.benchmarks`) lists the four, and the CLI, the profile, the
catalog, the data commands and the parametrised tests iterate it. Callables
are named as ``"module:attribute"`` references and imported only when used,
so listing the registry (``cog-tasks --help``) imports no numpy or framework.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


def load(reference: str) -> Any:
    """Import what a ``"module:attribute"`` reference names.

    Args:
        reference: ``"package.module:attribute"``.

    Returns:
        The attribute.
    """
    module, _, attribute = reference.partition(":")
    return getattr(importlib.import_module(module), attribute)


@dataclass(frozen=True)
class TrivialStrategy:
    """A strategy without cognition, scored on the model row's own units.

    ``score`` names a function ``(units, run) -> {measure: {unit: value}}``:
    given the unit ids of a model's row and the model run's
    :class:`~cog_tasks.common.runs.RunIdentity` (its task arguments and seed),
    it returns the per-unit values the strategy earns on exactly those units,
    in the form the model's own per-unit values take (a number, or a
    ``(numerator, denominator)`` pair), for each headline measure it applies to.
    The pipeline computes the headline statistic over them and the model's
    paired difference from them.

    Attributes:
        name: What it plays, in a few words (``"constant A"``, ``"Choice: 1 every round"``).
        score: ``"module:function"`` reference of the scoring function.
    """

    name: str
    score: str


@dataclass(frozen=True)
class BenchmarkSpec:
    """Everything a benchmark declares once.

    Attributes:
        name: Stable name (``coglm``), the CLI group and the profile's benchmark column.
        title: Human title with its authors (``"CogLM (Wang et al.)"``).
        unit: The independent unit its intervals resample (``item``, ``task``,
            ``trajectory``, ``game``, ``match``).
        tasks: Its Inspect task names.
        trivial: Trivial strategies shown beside every headline.
        extra: Further declarations, by name, as ``"module:attribute"``
            references (headline definitions, paper rows, chance answerer,
            presets, data sources, CLI group, renderers).
    """

    name: str
    title: str
    unit: str
    tasks: tuple[str, ...] = ()
    trivial: tuple[TrivialStrategy, ...] = ()
    extra: Mapping[str, str] = field(default_factory=dict)
