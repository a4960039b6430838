"""The ``cog-tasks`` command groups: the shared ones, then each registered benchmark's.

Each module defines ``register(subparsers: argparse._SubParsersAction) -> None``;
the subparsers it adds set ``func`` to a callable that takes the parsed
namespace and returns an exit code. :func:`cog_tasks.cli.build_parser` wraps
every ``func`` with the CLI kit's error wrapper
(:func:`cog_tasks.common.cli.guard_commands`): a command raises on bad input
and never prints its own error line. Options shared by several commands
(``--out``, ``--status``, comma lists) come from :mod:`cog_tasks.common.cli`.

Command modules are the top layer: they may import cores, frontends and
:mod:`cog_tasks.common.cli`, and nothing imports them but :mod:`cog_tasks.cli`.
They import benchmark modules and frameworks inside the command functions, so
``cog-tasks --help`` and ``cog-tasks tasks-path`` start fast
(``benchmarks/cli_startup.py``).
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
