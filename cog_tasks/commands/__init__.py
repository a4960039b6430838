"""The ``cog-tasks`` command groups: the shared ones, then each registered benchmark's.

Each module defines ``register(subparsers)``, whose commands set ``func`` (namespace -> exit
code), wrapped by :func:`cog_tasks.common.cli.guard_commands`. Nothing imports them but
:mod:`cog_tasks.cli`; they import benchmarks and frameworks inside functions (fast start-up).
"""

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
