"""CogLM chat protocol for Inspect: task, solvers and scorer."""

from cog_tasks.inspect_evals.coglm.coglm import coglm

__all__ = ["coglm"]
