"""The ``cog-tasks`` command groups: the shared ones, then each registered benchmark's."""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

from cog_tasks.benchmarks import specs
from cog_tasks.commands import catalog, data, llamacpp, profile

COMMAND_GROUPS: tuple[ModuleType, ...] = (
    catalog,
    data,
    llamacpp,
    profile,
    *(import_module(spec.cli) for spec in specs() if spec.cli),
)
