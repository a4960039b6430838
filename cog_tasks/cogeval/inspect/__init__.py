"""CogEval as an Inspect task: ``inspect eval cog_tasks/cogeval``."""

from cog_tasks.cogeval.inspect.cogeval import (
    cogeval,
    cogeval_scorer,
    dialog_solver,
    record_to_sample,
)

__all__ = ["cogeval", "cogeval_scorer", "dialog_solver", "record_to_sample"]
