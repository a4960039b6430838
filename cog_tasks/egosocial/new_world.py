"""New World: invented societies (written for this project) whose norms contradict everyday ones."""

from __future__ import annotations

import random
from dataclasses import dataclass

from cog_tasks.common.files import package_json
from cog_tasks.egosocial.records import EgoItem, Perspective, shuffle_options

PEOPLE = ("Alva", "Borin", "Cressa", "Dael", "Elko", "Fenna", "Garrow", "Hesper", "Ilse", "Joren")

SYSTEM = (
    "You live in the place described below and you know its customs well. "
    "Answer every question as yourself, a member of that society."
)


@dataclass(frozen=True)
class NormQuestion:
    """A question that needs the stated norm (``{name}`` is replaced by a person's name)."""

    perspective: Perspective
    situation: str
    question: str
    right: str
    familiar: str
    other: str


@dataclass(frozen=True)
class World:
    """An invented society: its name, its custom and the questions that depend on it."""

    name: str
    norm: str
    questions: tuple[NormQuestion, ...]


#: The worlds, from ``new_world.json`` next to this module.
WORLDS = tuple(
    World(world["name"], world["norm"], tuple(NormQuestion(**q) for q in world["questions"]))
    for world in package_json("cog_tasks.egosocial", "new_world.json")
)


def all_norm_questions() -> list[tuple[World, NormQuestion]]:
    """Every (world, question) pair in a fixed order."""
    return [(world, question) for world in WORLDS for question in world.questions]


def generate_new_world(seed: int, count: int) -> list[EgoItem]:
    """Generate ``count`` items (ids ``new_world-s<seed>-<index>``) in a repeating seeded order."""
    rng = random.Random(seed)
    pool = all_norm_questions()
    items = []
    order: list[int] = []
    for index in range(count):
        if not order:
            order = rng.sample(range(len(pool)), len(pool))
        position = order.pop()
        world, norm_question = pool[position]
        name = rng.choice(PEOPLE)
        options = [norm_question.right, norm_question.familiar, norm_question.other]
        shuffled, right = shuffle_options(rng, [o.format(name=name) for o in options], 0)
        items.append(
            EgoItem(
                id=f"new_world-s{seed}-{index:04d}",
                scenario="new_world",
                label="New World",
                system=SYSTEM,
                story=f"{world.norm} {norm_question.situation.format(name=name)}",
                question=norm_question.question.format(name=name),
                options=shuffled,
                answer=right,
                perspective=norm_question.perspective,
                metadata={"world": world.name, "question_index": position},
            )
        )
    return items
