"""New World: invented societies (written for this project) whose norms contradict everyday ones."""

from __future__ import annotations

import random
from dataclasses import dataclass

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


WORLDS = (
    World(
        "Lumora",
        "In Lumora, guests arrive exactly one hour after the time they were invited for. "
        "Arriving on time tells the host you think they could not get ready, which is an insult.",
        (
            NormQuestion("socialization", "You are invited to dinner at seven o'clock.",
                         "When do you arrive?", "I arrive at eight o'clock.",
                         "I arrive at seven o'clock.", "I arrive at six o'clock."),
            NormQuestion("tom", "You invited {name} for seven o'clock, and {name} rang your bell "
                         "at exactly seven.", "What does {name}'s arrival tell you?",
                         "{name} doubts that I could be ready in time.",
                         "{name} respects my time.", "{name} wants to leave early."),
        ),
    ),
    World(
        "Verrin",
        "In Verrin, refusing a gift is the warmest way to thank the giver. Accepting a gift "
        "suggests the giver is too poor to be spared the expense.",
        (
            NormQuestion("socialization", "{name} offers you a scarf she knitted herself.",
                         "What do you do to show your gratitude?", "I kindly refuse the scarf.",
                         "I accept the scarf and thank her.", "I offer to pay for the scarf."),
            NormQuestion("tom", "You gave {name} a basket of bread and {name} took it at once.",
                         "What does {name} think about you?",
                         "{name} thinks I cannot afford gifts.",
                         "{name} thinks I am generous.", "{name} thinks I bake badly."),
        ),
    ),
    World(
        "Sablehold",
        "In Sablehold, a birthday is a solemn day of mourning, because one fewer year of life "
        "remains. Funerals are joyful feasts with music, because a whole life has been completed.",
        (
            NormQuestion("socialization", "Today is your birthday and your friends gather "
                         "around you.", "How do you feel?", "I feel solemn and sad.",
                         "I feel cheerful and excited.", "I feel angry at my friends."),
            NormQuestion("tom", "At her grandfather's funeral, {name} sings and dances all "
                         "evening.", "What do the other mourners think of {name}?",
                         "They think she honours him properly.",
                         "They think she is being disrespectful.",
                         "They think she has forgotten him."),
        ),
    ),
    World(
        "Quillmarsh",
        "In Quillmarsh, praising someone's work to their face is an insult, since it shows "
        "surprise that they managed it. Pointing out one small flaw is the proper sign of respect.",
        (
            NormQuestion("socialization", "{name}, your colleague, proudly shows you the report "
                         "she finished.", "How do you show her respect?",
                         "I point out one small flaw in the report.",
                         "I praise the report warmly.", "I put the report aside unread."),
            NormQuestion("tom", "You told {name} that his new painting is wonderful.",
                         "How does {name} feel?", "He feels insulted.", "He feels flattered.",
                         "He feels sleepy."),
        ),
    ),
    World(
        "Tessaran",
        "In Tessaran, winning a contest is shameful because it humiliates the other side. "
        "Losers are cheered for their generosity.",
        (
            NormQuestion("socialization", "You have just won the town chess final.",
                         "How do you feel?", "I feel embarrassed.", "I feel proud.",
                         "I feel hungry."),
            NormQuestion("tom", "{name} let you win the footrace on purpose.",
                         "What does {name} expect from the crowd?",
                         "{name} expects to be cheered.", "{name} expects to be pitied.",
                         "{name} expects to be ignored."),
        ),
    ),
    World(
        "Orlenne",
        "In Orlenne, meals are eaten in complete silence. Talking at the table means the food "
        "is so poor that the guest needs a distraction.",
        (
            NormQuestion("socialization", "You are dining at {name}'s house and love the soup.",
                         "How do you let {name} know?", "I eat every spoonful in silence.",
                         "I tell {name} the soup is delicious.", "I ask {name} for the recipe."),
            NormQuestion("tom", "You cooked for {name}, who talked about the food all evening.",
                         "What do you conclude?", "{name} found the food poor.",
                         "{name} enjoyed the food.", "{name} was tired."),
        ),
    ),
    World(
        "Draventh",
        "In Draventh, people greet each other by turning their backs. Facing someone while "
        "greeting them is a challenge to fight.",
        (
            NormQuestion("socialization", "You meet the mayor, {name}, for the first time.",
                         "How do you greet the mayor politely?", "I turn my back to the mayor.",
                         "I face the mayor and shake hands.", "I shout the mayor's name."),
            NormQuestion("tom", "A stranger walks up to {name} and smiles at her face to face.",
                         "How does {name} feel?", "She feels challenged.", "She feels welcomed.",
                         "She feels amused."),
        ),
    ),
    World(
        "Nimbrel",
        "In Nimbrel, people sleep by day and work by night. Visiting someone in daylight is "
        "rude because it wakes them.",
        (
            NormQuestion("socialization", "You need to borrow a ladder from your neighbour "
                         "{name}.", "When do you knock on {name}'s door?", "At midnight.",
                         "At noon.", "Never; I buy a ladder instead."),
            NormQuestion("tom", "Someone knocked on {name}'s door at noon.",
                         "What does {name} think of the visitor?", "The visitor is rude.",
                         "The visitor is friendly.", "The visitor is lost."),
        ),
    ),
    World(
        "Harrowmere",
        "In Harrowmere, children run their households. Grown-ups must ask a child's "
        "permission before leaving the house.",
        (
            NormQuestion("socialization", "You are seventy years old and want to walk to the "
                         "market.", "What do you do first?", "I ask my grandchild for "
                         "permission.", "I just walk to the market.", "I ask the baker to wait."),
            NormQuestion("tom", "{name}, aged nine, saw her grandfather leave without asking her.",
                         "How does {name} feel?", "She feels disrespected.",
                         "She feels indifferent.", "She feels proud of him."),
        ),
    ),
    World(
        "Caldris",
        "In Caldris, a buyer must insist on paying more than the asked price. Paying exactly "
        "the price insults the seller's generosity.",
        (
            NormQuestion("socialization", "At {name}'s bakery a loaf costs two coins.",
                         "How much do you hand over?", "More than two coins.",
                         "Exactly two coins.", "One coin."),
            NormQuestion("tom", "A traveller paid {name} the baker exactly the asked price.",
                         "How does {name} feel?", "{name} feels insulted.",
                         "{name} feels satisfied.", "{name} feels grateful."),
        ),
    ),
)  # fmt: skip


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
