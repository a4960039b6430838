"""CogBench agents: CoT, ReAct, Reflexion (baselines) and CogGPT."""

from __future__ import annotations

from collections.abc import Mapping

from cog_tasks.cogbench.agents.base import (
    ANSWER_TOKENS,
    MEMORY_TOKENS,
    AgentSettings,
    CogBenchAgent,
    IterationResult,
    run_iteration,
    warn_missing_flows,
)
from cog_tasks.cogbench.agents.baselines import CoTAgent, ReActAgent, ReflexionAgent
from cog_tasks.cogbench.agents.coggpt import CogGPTAgent
from cog_tasks.cogbench.generation import TextGenerator
from cog_tasks.common.params import ParameterError

AGENTS: dict[str, type[CogBenchAgent]] = {
    agent.name: agent for agent in (CoTAgent, ReActAgent, ReflexionAgent, CogGPTAgent)
}


def make_agent(
    name: str,
    generate: TextGenerator,
    profile: Mapping[str, str],
    settings: AgentSettings | None = None,
    memory_name: str = "cogbench",
) -> CogBenchAgent:
    """Create an agent by task-parameter name."""
    if name not in AGENTS:
        raise ParameterError(f"unknown CogBench agent {name!r}; use one of {sorted(AGENTS)}")
    return AGENTS[name](generate, profile, settings, memory_name)


__all__ = [
    "AGENTS",
    "ANSWER_TOKENS",
    "MEMORY_TOKENS",
    "AgentSettings",
    "CogBenchAgent",
    "IterationResult",
    "make_agent",
    "run_iteration",
    "warn_missing_flows",
]
