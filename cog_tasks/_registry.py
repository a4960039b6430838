"""Inspect entry point: importing this module registers every cog-tasks ``@task``.

Inspect finds it through the ``inspect_ai`` entry point in ``pyproject.toml``,
so ``inspect eval cog_tasks/<task>`` works once the package is installed.
"""

# ruff: noqa: F401
import cog_tasks.egosocial.inspect
from cog_tasks.cogbench.inspect import cogbench
from cog_tasks.cogeval.inspect import cogeval
from cog_tasks.coglm.inspect import coglm, coglm_chat
from cog_tasks.common.llamacpp_inspect import llamacpp
