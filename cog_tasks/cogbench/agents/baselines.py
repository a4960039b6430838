"""CogBench baseline agents adapted as in the paper: CoT, ReAct and Reflexion (docs/agents.md)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cog_tasks.cogbench.agents import prompts
from cog_tasks.cogbench.agents.base import CogBenchAgent, Observation


class CoTAgent(CogBenchAgent):
    """Chain-of-thought: reason, then rate, from the profile and the current flow."""

    name = "cot"
    method = "CoT"
    current_flow: str = ""

    async def perceive(self, iteration: int, information_flow: str) -> dict[str, Any]:
        """Keep only the current iteration's flow."""
        self.current_flow = information_flow
        return {}

    def context(self) -> str:
        """Profile and current information flow."""
        return f"{prompts.role(self.profile)}\n\n{prompts.read_section(self.current_flow)}"

    def answer_prompt(
        self, question: str, observation: Observation | None
    ) -> tuple[str, tuple[str, ...]]:
        """Profile, current flow, statement."""
        return f"{self.context()}\n\n{self.rating_request(question)}", ()

    def rating_request(self, question: str) -> str:
        """The rating request, with the explanation ``settings.explanation`` asks for."""
        return prompts.question(question, self.settings.explanation)


class ReActAgent(CoTAgent):
    """CoT plus feedback on last iteration's ratings as observations."""

    name = "react"
    method = "ReAct"
    uses_feedback = True

    def answer_prompt(
        self, question: str, observation: Observation | None
    ) -> tuple[str, tuple[str, ...]]:
        """Profile, current flow, the observation on this statement, statement."""
        if observation is None:
            return super().answer_prompt(question, observation)
        seen = prompts.observation(
            observation.own_rating, observation.human_rating, self.settings.feedback
        )
        return f"{self.context()}\n\n{seen}\n\n{self.rating_request(question)}", ()


class ReflexionAgent(ReActAgent):
    """ReAct plus a self-reflection on the feedback before rating."""

    name = "reflexion"
    method = "Reflexion"
    reflection: str = ""

    async def prepare(self, feedback: Sequence[Observation]) -> None:
        """Reflect once per iteration on last iteration's ratings versus people's."""
        if not feedback:
            return
        table = prompts.reflection_table(
            [(item.question, item.own_rating, item.human_rating) for item in feedback],
            self.settings.feedback,
        )
        prompt = f"{self.context()}\n\n{prompts.REFLECTION.format(table=table)}"
        reply = await self.ask(prompt, self.settings.reflection_tokens, "reflection")
        self.reflection = " ".join(reply.split())

    def context(self) -> str:
        """Profile, current flow and the latest reflection."""
        base = super().context()
        if not self.reflection:
            return base
        return f"{base}\n\nYour reflection on last round: {self.reflection}"

    def state(self) -> dict[str, Any]:
        """The latest reflection."""
        return {"reflection": self.reflection}
