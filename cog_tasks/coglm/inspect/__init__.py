"""CogLM chat protocol for Inspect: task, solvers and scorer."""

from cog_tasks.coglm.inspect.coglm import coglm, coglm_chat

__all__ = ["coglm", "coglm_chat"]
