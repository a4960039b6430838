"""CogGPT: memory retention and profile refinement; the authors' prompts by default."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any

from cog_tasks.cogbench.agents import prompts
from cog_tasks.cogbench.agents.authors import AuthorsPrompts, authors_prompts
from cog_tasks.cogbench.agents.base import AgentSettings, Answer, CogBenchAgent, Observation
from cog_tasks.cogbench.agents.memory import LongTermMemory, forget, split_text
from cog_tasks.cogbench.generation import TextGenerator, decodes_greedily, stopped_at_limit
from cog_tasks.cogbench.parsing import (
    KnowledgeItem,
    parse_profile_update,
    profile_to_text,
    read_knowledge,
)

FORMAT_REMINDERS: dict[str, str] = {
    "json": "Reply with the JSON list alone, complete, with nothing before or after it.",
    "lines": "Reply only with lines of the form <score> | <statement>.",
}
"""The one line a retry adds when decoding is greedy (a departure from the authors)."""


class CogGPTAgent(CogBenchAgent):
    """CogGPT with STM, distillation, forgetting, Chroma LTM and profile updates."""

    name = "coggpt"
    method = "CogGPT"

    def __init__(
        self,
        generate: TextGenerator,
        profile: Mapping[str, str],
        settings: AgentSettings | None = None,
        memory_name: str = "cogbench",
        embedding_function: Any = None,
    ) -> None:
        """Create the agent and its private long-term memory (``embedding_function``: tests)."""
        super().__init__(generate, profile, settings, memory_name)
        self.short_term_memory: list[str] = []
        self.recalled: dict[str, tuple[str, ...]] = {}
        self.long_term_memory = LongTermMemory(
            memory_name, self.settings.memory_dir, embedding_function
        )

    def _authors(self) -> AuthorsPrompts | None:
        return authors_prompts() if self.settings.prompts == "authors" else None

    def _memory_prompt(self, step: str, memory: str) -> str:
        """The ``distill`` or ``update`` prompt over ``memory``: the authors' or ours."""
        authors = self._authors()
        if authors:
            template = getattr(authors, step)
            return template.format(profile=profile_to_text(self.profile), memory=memory)
        ours = getattr(prompts, step.upper()).format(memory=memory)
        return f"{prompts.role(self.profile)}\n\n{ours}"

    async def _distill(self, chunk: str) -> list[KnowledgeItem] | None:
        """Distil one text, retrying (with a reminder when greedy) up to ``settings.retries``."""
        authors = self._authors()
        prompt = self._memory_prompt("distill", chunk)
        form = "json" if authors else "lines"
        remind = decodes_greedily(self.generate)
        for attempt in range(self.settings.retries + 1):
            asked = f"{prompt}\n\n{FORMAT_REMINDERS[form]}" if attempt and remind else prompt
            reply = await self.ask(asked, self.settings.distill_tokens, "distill")
            if stopped_at_limit(reply) and not authors:
                continue  # it ends in half a statement: asked again, as a cut JSON is
            items = read_knowledge(reply, form, source="" if authors else chunk)
            if items is not None:
                return items
        return None

    def short_term_chunks(self, information_flow: str) -> list[str]:
        """The flow as distillation inputs: whole, or chunked (``settings.stm``)."""
        if self.settings.stm == "whole":
            text = information_flow.strip()
            return [text] if text else []
        return split_text(information_flow, self.settings.chunk_size, self.settings.chunk_overlap)

    async def perceive(self, iteration: int, information_flow: str) -> dict[str, Any]:
        """Run steps 1-6 of the mechanism on one flow (nothing happens without a flow)."""
        self.short_term_memory = self.short_term_chunks(information_flow)
        if not self.short_term_memory:
            return {}
        memory_text = information_flow.strip()
        *distilled, update_reply = await asyncio.gather(
            *(self._distill(chunk) for chunk in self.short_term_memory),
            self.ask(
                self._memory_prompt("update", memory_text), self.settings.update_tokens, "update"
            ),
        )
        knowledge = [item for items in distilled if items is not None for item in items]
        kept = forget(knowledge, self.settings.forgetting_rate)
        self.long_term_memory.store(kept, iteration)
        if stopped_at_limit(update_reply):  # its last line may hold half a value
            update_reply = update_reply.rpartition("\n")[0]
        update = parse_profile_update(update_reply, self.profile)
        self.profile = update.profile
        notes = {
            "stm_chunks": len(self.short_term_memory),
            "distill_failed": sum(1 for items in distilled if items is None),
            "distilled": len(knowledge),
            "unscored": sum(1 for item in knowledge if item.score is None),
            "stored": [f"[{item.score or '-'}] {item.statement}" for item in kept],
            "forgotten": len(knowledge) - len(kept),
            "ltm_size": len(self.long_term_memory),
            "profile_changed": list(update.changed),
            "profile_lines_recognised": update.recognised,
        }
        self.short_term_memory = []
        return notes

    def answer_prompt(
        self, question: str, observation: Observation | None
    ) -> tuple[str, tuple[str, ...]]:
        """Current profile, recalled LTM statements, statement."""
        recalled = self.recalled.get(question)
        if recalled is None:
            recalled = tuple(
                self.long_term_memory.recall(question, self.settings.recall_k, self.settings.recall)
            )
        authors = self._authors()
        if authors:
            prompt = authors.grade.format(
                profile=profile_to_text(self.profile), memory="\n".join(recalled), question=question
            )
            return prompt, recalled
        memory = prompts.INTERPRET.format(memory=prompts.memory_section(recalled))
        request = prompts.question(question, self.settings.explanation)
        prompt = f"{prompts.role(self.profile)}\n\n{memory}\n\n{request}"
        return prompt, recalled

    async def answer(
        self, questions: Sequence[str], feedback: Sequence[Observation] = ()
    ) -> list[Answer]:
        """Recall for every question with one embedding call, then answer them."""
        recalled = self.long_term_memory.recall_many(
            questions, self.settings.recall_k, self.settings.recall
        )
        self.recalled = {q: tuple(items) for q, items in zip(questions, recalled, strict=True)}
        try:
            return await super().answer(questions, feedback)
        finally:
            self.recalled = {}

    def state(self) -> dict[str, Any]:
        """The current profile and memory size."""
        return {"profile": dict(self.profile), "ltm_size": len(self.long_term_memory)}

    def close(self) -> None:
        """Drop the in-memory LTM collection."""
        self.long_term_memory.close()
