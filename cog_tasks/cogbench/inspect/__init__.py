"""CogBench as an Inspect task: ``inspect eval cog_tasks/cogbench``."""

from cog_tasks.cogbench.inspect.cogbench import cogbench, record_to_sample
from cog_tasks.cogbench.inspect.scorer import authenticity, cogbench_scorer, rationality
from cog_tasks.cogbench.inspect.solver import cogbench_agent

__all__ = [
    "authenticity",
    "cogbench",
    "cogbench_agent",
    "cogbench_scorer",
    "rationality",
    "record_to_sample",
]
