"""The CogEval chance baseline as an Inspect model: ``mockllm`` with a random walker."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from inspect_ai.model import ChatMessage, GenerateConfig

from cog_tasks.cogeval.baseline import random_answer
from cog_tasks.cogeval.generator import CogEvalItem, generate_items, make_item, split_names
from cog_tasks.cogeval.scoring import GraphContext
from cog_tasks.common.scripted import ScriptedReplies


class ChanceAnswerer(ScriptedReplies):
    """Inspect ``custom_outputs`` callable answering each turn with :func:`random_answer`.

    It recognises a dialog by its user turns, so it only answers dialogs of the
    items it was built with.
    """

    def __init__(self, items: Sequence[CogEvalItem], seed: int = 0):
        self.seed = seed
        self.contexts: dict[tuple[str, ...], GraphContext] = {}
        self.calls: Counter[tuple[str, ...]] = Counter()
        for item in items:
            texts = tuple(turn.text for turn in item.turns)
            self.contexts[texts] = item.context
            if len(texts) > 1:
                first = make_item(item.graph, item.domain, "valuePath", seed=item.seed)
                self.contexts[texts[:1]] = first.context

    def reply_to(self, messages: list[ChatMessage], config: GenerateConfig) -> str:
        """One seeded random answer to the conversation (see :class:`ScriptedReplies`)."""
        texts = tuple(message.text for message in messages if message.role == "user")
        if texts not in self.contexts:
            raise ValueError(f"the chance baseline does not know this dialog: {texts[-1][:200]!r}")
        self.calls[texts] += 1
        rng = random.Random(f"{self.seed}|{config.temperature}|{self.calls[texts]}|{texts}")
        return random_answer(self.contexts[texts], rng)


def chance_answerer(task_args: dict[str, Any], seed: int = 0) -> ChanceAnswerer:
    """The random walker for the dialogs that ``cogeval(**task_args)`` asks.

    Args:
        task_args: Arguments of the ``cogeval`` task (graphs, domains, ...).
        seed: Seed of the random walker.

    Returns:
        An answerer that knows every dialog of that task.

    Raises:
        ValueError: For ``source=published``: the walker needs the graph's
            states and connections, which only the generated tasks carry.
    """
    if task_args.get("source", "generated") != "generated":
        raise ValueError(
            "the CogEval chance walker needs the graph of each task, which only "
            "source=generated carries; run it with -T source=generated"
        )
    items = generate_items(
        graphs=split_names(task_args.get("graphs")),
        domains=split_names(task_args.get("domains")),
        conditions=split_names(task_args.get("conditions")),
        seed=int(task_args.get("seed", 0)),
        cot=task_args.get("cot", "none"),
        design=task_args.get("design", "all"),
    )
    return ChanceAnswerer(items, seed=seed)
