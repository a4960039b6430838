"""Shared pieces of the CogBench agents: settings, answers, and one iteration's loop."""

from __future__ import annotations

import asyncio
import warnings
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from cog_tasks.cogbench.generation import TextGenerator, stopped_at_limit
from cog_tasks.cogbench.parsing import parse_rating_answer
from cog_tasks.cogbench.records import Trajectory, TrajectoryStep
from cog_tasks.common.params import ParameterError, choice, fraction, integer

STM_MODES: tuple[str, ...] = ("whole", "chunked")
FEEDBACK_MODES: tuple[str, ...] = ("rating", "direction", "none")
PROMPT_MODES: tuple[str, ...] = ("authors", "ours")
RECALL_MODES: tuple[str, ...] = ("authors", "nearest")
EXPLANATION_MODES: tuple[str, ...] = ("authors", "brief")
ANSWER_TOKENS = 512
"""Default limit of an answer: room for a substantial first-person explanation and its rating."""
MEMORY_TOKENS = 4096
"""Default limit of CogGPT's distillation and profile update (the README says why)."""


@dataclass(frozen=True)
class AgentSettings:
    """Knobs shared by all agents (CogGPT uses the memory ones); the README's Parameters."""

    answer_tokens: int = ANSWER_TOKENS
    reflection_tokens: int = 160
    distill_tokens: int = MEMORY_TOKENS
    update_tokens: int = MEMORY_TOKENS
    stm: str = "whole"
    chunk_size: int = 1000
    chunk_overlap: int = 100
    forgetting_rate: float = 0.4
    recall_k: int = 3
    memory_dir: str | None = None
    feedback: str = "rating"
    retries: int = 3
    prompts: str = "authors"
    recall: str = "authors"
    explanation: str = "authors"

    def __post_init__(self) -> None:
        """Reject unknown modes and impossible limits, naming the parameter."""
        choice("feedback", self.feedback, FEEDBACK_MODES)
        choice("stm", self.stm, STM_MODES)
        choice("prompts", self.prompts, PROMPT_MODES)
        choice("recall", self.recall, RECALL_MODES)
        choice("explanation", self.explanation, EXPLANATION_MODES)
        integer("recall_k", self.recall_k, 1)
        integer("chunk_size", self.chunk_size, 1)
        integer("chunk_overlap", self.chunk_overlap, 0)
        integer("retries", self.retries, 0)
        fraction("forgetting_rate", self.forgetting_rate)
        if self.chunk_overlap >= self.chunk_size:
            raise ParameterError(
                f"need 0 <= chunk_overlap ({self.chunk_overlap}) < chunk_size ({self.chunk_size})"
            )


@dataclass(frozen=True)
class Observation:
    """Last iteration's own and human rating of one question (ReAct, Reflexion)."""

    question: str
    own_rating: int | None
    human_rating: int | None


@dataclass(frozen=True)
class Answer:
    """An agent's answer to one question (``recalled``: CogGPT's memory items used)."""

    question: str
    rating: int | None
    reason: str
    raw: str
    recalled: tuple[str, ...] = ()


@dataclass(frozen=True)
class IterationResult:
    """What happened in one iteration; ``truncated``: the step of every reply cut short."""

    step: TrajectoryStep
    answers: tuple[Answer, ...]
    perception: Mapping[str, Any] = field(default_factory=dict)
    state: Mapping[str, Any] = field(default_factory=dict)
    truncated: tuple[str, ...] = ()

    def to_record(self) -> dict[str, Any]:
        """JSON-ready form for the Inspect store and the eval-file export."""
        return {
            "iteration": self.step.iteration,
            "answers": [
                {
                    "question": answer.question,
                    "rating": answer.rating,
                    "reason": answer.reason,
                    "raw": answer.raw,
                    "recalled": list(answer.recalled),
                    "human_rating": human,
                }
                for answer, human in zip(self.answers, self.step.human_ratings, strict=True)
            ],
            "perception": dict(self.perception),
            "state": dict(self.state),
            "truncated": list(self.truncated),
        }


class CogBenchAgent(ABC):
    """An agent that perceives flows and answers; ``name`` ``cot`` is ``method`` ``CoT``."""

    name: ClassVar[str]
    method: ClassVar[str]
    uses_feedback: ClassVar[bool] = False

    def __init__(
        self,
        generate: TextGenerator,
        profile: Mapping[str, str],
        settings: AgentSettings | None = None,
        memory_name: str = "cogbench",
    ) -> None:
        """Create the agent; ``memory_name`` names any per-trajectory memory."""
        self.generate = generate
        self.profile = dict(profile)
        self.settings = settings or AgentSettings()
        self.memory_name = memory_name
        self.truncated: list[str] = []

    async def ask(self, prompt: str, max_tokens: int, step: str) -> str:
        """One model call; a reply that stopped at ``max_tokens`` is noted under ``step``."""
        reply = await self.generate(prompt, max_tokens)
        if stopped_at_limit(reply):
            self.truncated.append(step)
        return reply

    def take_truncated(self) -> tuple[str, ...]:
        """The steps of the replies cut at their limit since the last call, then forget them."""
        taken, self.truncated = tuple(self.truncated), []
        return taken

    @abstractmethod
    async def perceive(self, iteration: int, information_flow: str) -> dict[str, Any]:
        """Take in one iteration's information flow; return notes for the log."""

    @abstractmethod
    def answer_prompt(
        self, question: str, observation: Observation | None
    ) -> tuple[str, tuple[str, ...]]:
        """The prompt for one question and the memory items it quotes (CogGPT)."""

    async def prepare(self, feedback: Sequence[Observation]) -> None:  # noqa: B027
        """Run once before the questionnaire of an iteration (Reflexion reflects here)."""

    def state(self) -> dict[str, Any]:
        """What to log about the agent after an iteration."""
        return {}

    def close(self) -> None:  # noqa: B027
        """Release per-trajectory resources (nothing by default)."""

    async def answer(
        self, questions: Sequence[str], feedback: Sequence[Observation] = ()
    ) -> list[Answer]:
        """Answer all questions of an iteration concurrently, in order."""
        await self.prepare(feedback)
        by_question = {item.question: item for item in feedback}
        built = [self.answer_prompt(q, by_question.get(q)) for q in questions]
        replies = await asyncio.gather(
            *(self.ask(prompt, self.settings.answer_tokens, "answer") for prompt, _ in built)
        )
        rows = zip(questions, built, replies, strict=True)
        answers = (self._read_answer(question, *asked, reply) for question, asked, reply in rows)
        return list(await asyncio.gather(*answers))

    async def _read_answer(
        self, question: str, prompt: str, recalled: tuple[str, ...], reply: str
    ) -> Answer:
        """Parse a reply, asking again up to ``settings.retries`` times while it has no rating."""
        parsed = parse_rating_answer(reply)
        for _ in range(self.settings.retries):
            if parsed.rating is not None:
                break
            reply = await self.ask(prompt, self.settings.answer_tokens, "answer")
            parsed = parse_rating_answer(reply)
        return Answer(question, parsed.rating, parsed.reason, reply, recalled)


def warn_missing_flows(trajectory: Trajectory) -> list[int]:
    """Warn once for, and return, the iterations after 0 without an information flow."""
    empty = [s.iteration for s in trajectory.steps if s.iteration > 0 and not s.information_flow]
    if empty:
        warnings.warn(
            f"CogBench trajectory {trajectory.id}: no information flow at iterations {empty}; "
            "the agent perceives nothing new there",
            stacklevel=2,
        )
    return empty


async def run_iteration(
    agent: CogBenchAgent, step: TrajectoryStep, previous: IterationResult | None
) -> IterationResult:
    """Perceive one iteration's flow, then answer its questionnaire (with feedback)."""
    perception = await agent.perceive(step.iteration, step.information_flow)
    feedback = []
    if previous is not None and agent.uses_feedback:
        rated = zip(previous.answers, previous.step.human_ratings, strict=True)
        feedback = [Observation(answer.question, answer.rating, human) for answer, human in rated]
    answers = await agent.answer(step.questions, feedback)
    return IterationResult(step, tuple(answers), perception, agent.state(), agent.take_truncated())
