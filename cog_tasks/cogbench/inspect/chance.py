"""A seeded chance baseline for CogBench: ``mockllm`` rating uniformly at random."""

from __future__ import annotations

from inspect_ai.model import ChatMessage, GenerateConfig

from cog_tasks.cogbench.agents import prompts
from cog_tasks.cogbench.agents.authors import authors_prompts
from cog_tasks.cogbench.agents.coggpt import FORMAT_REMINDERS
from cog_tasks.cogbench.rationality import RUBRIC
from cog_tasks.common.scripted import ScriptedReplies, seeded_rng

_JUDGE_MARK = RUBRIC.splitlines()[-1]
_QUESTION_MARK = prompts.QUESTION.splitlines()[-1]


def _is(prompt: str, step: str) -> bool:
    """Whether ``prompt`` is the authors' CogGPT prompt of ``step`` (its last line ends it)."""
    template = getattr(authors_prompts(), step)
    return prompt.rstrip().endswith(template.rstrip().splitlines()[-1])


class ChanceRater(ScriptedReplies):
    """A ``custom_outputs`` callable for ``mockllm``, seeded with ``seed``."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def reply(self, prompt: str) -> str:
        """The reply to one CogBench prompt (a ``ValueError`` for any other)."""
        rng = seeded_rng(self.seed, prompt)
        for reminder in FORMAT_REMINDERS.values():
            prompt = prompt.removesuffix(f"\n\n{reminder}")
        if prompt.endswith(_JUDGE_MARK):
            return f"Score: {rng.randint(1, 5)}"
        if prompt.endswith(_QUESTION_MARK) or _is(prompt, "grade"):
            return f"Thoughts: I pick a rating at random.\nRating: {rng.randint(1, 5)}"
        silent = (prompts.DISTILL, prompts.UPDATE, prompts.REFLECTION)
        if any(prompt.endswith(template.splitlines()[-1]) for template in silent):
            return ""
        if _is(prompt, "distill") or _is(prompt, "update"):
            return ""
        raise ValueError(f"the chance baseline does not know this prompt: {prompt[-200:]!r}")

    def reply_to(self, messages: list[ChatMessage], config: GenerateConfig) -> str:
        """One seeded random answer to the conversation (see :class:`ScriptedReplies`)."""
        return self.reply(messages[-1].text)
