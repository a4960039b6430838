"""Inspect entry point: importing this module registers every cog-tasks ``@task``.

Inspect finds it through the ``inspect_ai`` entry point in ``pyproject.toml``,
so ``inspect eval cog_tasks/<task>`` works once the package is installed.
"""

# ruff: noqa: F401
import cog_tasks.inspect_evals.egosocial
from cog_tasks.inspect_evals.cogbench import cogbench
from cog_tasks.inspect_evals.cogeval import cogeval
from cog_tasks.inspect_evals.coglm import coglm, coglm_chat
