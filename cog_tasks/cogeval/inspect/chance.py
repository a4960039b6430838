"""The CogEval chance baseline as an Inspect model: ``mockllm`` with a random walker."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

from inspect_ai.model import ChatMessage, GenerateConfig

from cog_tasks.cogeval.baseline import random_answer
from cog_tasks.cogeval.generator import CogEvalItem, generate_items, make_item, split_names
from cog_tasks.cogeval.inspect.cogeval import DEFAULT_SOURCE
from cog_tasks.cogeval.published import answer_kind, select_published
from cog_tasks.cogeval.published_graph import read_turns
from cog_tasks.cogeval.scoring import GraphContext
from cog_tasks.common.scripted import ScriptedReplies

NO_MAP_REPLY = "The chance walker cannot read the map of this task, so it gives no answer."


class ChanceAnswerer(ScriptedReplies):
    """Answers each known dialog with :func:`random_answer`; without a map, :data:`NO_MAP_REPLY`."""

    def __init__(
        self,
        items: Sequence[CogEvalItem],
        seed: int = 0,
        contexts: dict[tuple[str, ...], GraphContext | None] | None = None,
        unread: Sequence[str] = (),
    ):
        self.seed = seed
        self.unread = tuple(unread)
        self.contexts: dict[tuple[str, ...], GraphContext | None] = dict(contexts or {})
        self.calls: Counter[tuple[str, ...]] = Counter()
        for item in items:
            texts = tuple(turn.text for turn in item.turns)
            self.contexts[texts] = item.context
            if len(texts) > 1:
                first = make_item(item.graph, item.domain, "valuePath", seed=item.seed)
                self.contexts[texts[:1]] = first.context

    def reply_to(self, messages: list[ChatMessage], config: GenerateConfig) -> str:
        """One seeded random answer to the conversation."""
        texts = tuple(message.text for message in messages if message.role == "user")
        if texts not in self.contexts:
            raise ValueError(f"the chance baseline does not know this dialog: {texts[-1][:200]!r}")
        context = self.contexts[texts]
        if context is None:
            return NO_MAP_REPLY
        self.calls[texts] += 1
        rng = random.Random(f"{self.seed}|{config.temperature}|{self.calls[texts]}|{texts}")
        return random_answer(context, rng)


def published_contexts(
    task_args: dict[str, Any],
) -> tuple[dict[tuple[str, ...], GraphContext | None], list[str]]:
    """The walker's map per dialog prefix of the selected published tasks, and the unread tasks."""
    tasks = select_published(
        graphs=split_names(task_args.get("graphs")),
        domains=split_names(task_args.get("domains")),
        conditions=split_names(task_args.get("conditions")),
        cot=task_args.get("cot"),
        design=task_args.get("design", "all"),
        experiment=task_args.get("experiment"),
        unscorable=str(task_args.get("unscorable")).lower() == "true",
    )
    contexts: dict[tuple[str, ...], GraphContext | None] = {}
    unread: list[str] = []
    for task in tasks:
        conversation = task.load()
        kind = answer_kind(task.condition, conversation.expected)
        turns = conversation.turns
        prefixes = [turns[:end] for end in range(1, len(turns) + 1)]
        maps = [
            read_turns(
                turns,
                kind if len(prefix) == task.scored_reply else "map" if kind == "count" else "path",
                conversation.expected,
                asked=len(prefix),
            )
            for prefix in prefixes
        ]
        if None in maps:
            unread.append(task.id)
            maps = [None] * len(maps)
        for prefix, context in zip(prefixes, maps, strict=True):
            if contexts.get(prefix) is None:
                contexts[prefix] = context
    return contexts, unread


def chance_answerer(task_args: dict[str, Any], seed: int = 0) -> ChanceAnswerer:
    """The random walker for every dialog ``cogeval(**task_args)`` asks."""
    if task_args.get("source", DEFAULT_SOURCE) == "published":
        contexts, unread = published_contexts(task_args)
        return ChanceAnswerer([], seed=seed, contexts=contexts, unread=unread)
    items = generate_items(
        graphs=split_names(task_args.get("graphs")),
        domains=split_names(task_args.get("domains")),
        conditions=split_names(task_args.get("conditions")),
        seed=int(task_args.get("seed", 0)),
        cot=task_args.get("cot") or "none",
        design=task_args.get("design", "all"),
        experiment=task_args.get("experiment"),
    )
    return ChanceAnswerer(items, seed=seed)
