"""CogBench as an Inspect task: ``inspect eval cog_tasks/cogbench``."""

from cog_tasks.inspect_evals.cogbench.cogbench import cogbench, record_to_sample
from cog_tasks.inspect_evals.cogbench.scorer import authenticity, cogbench_scorer, rationality
from cog_tasks.inspect_evals.cogbench.solver import cogbench_agent

__all__ = [
    "authenticity",
    "cogbench",
    "cogbench_agent",
    "cogbench_scorer",
    "rationality",
    "record_to_sample",
]
