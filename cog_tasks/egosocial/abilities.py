"""Daily Life beyond beliefs: emotion, desire, intention, knowledge, non-literal speech."""

from __future__ import annotations

import random
from collections.abc import Callable

from cog_tasks.egosocial.records import FIRST_PERSON_SYSTEM, EgoItem, shuffle_options

PEOPLE = (
    "Amara", "Bastian", "Celine", "Dario", "Emeka", "Freya", "Gideon", "Hana", "Ivo", "Jana",
    "Kiran", "Leona", "Milan", "Noor", "Orla", "Pavel",
)  # fmt: skip

#: (wish met, wish expected) -> feeling.
FEELINGS: dict[tuple[bool, bool], str] = {
    (True, True): "Content, since it went as expected.",
    (True, False): "Delighted and surprised.",
    (False, True): "Disappointed.",
    (False, False): "Calm, since nothing else was expected.",
}
GIFTS = (
    "a red bicycle", "a telescope", "a puppy", "a pair of skates", "a chemistry set", "a guitar",
)  # fmt: skip

#: Need -> (situation that creates it, what is wanted most, a sentence saying it was met).
NEEDS: dict[str, tuple[str, str, str]] = {
    "hungry": ("has not eaten anything since early morning, and it is now late in the evening",
        "something to eat", "has just eaten a big plate of pasta"),
    "thirsty": ("has just run ten kilometres in the midday sun without a water bottle",
        "something to drink", "has just drunk two large glasses of water"),
    "cold": ("is standing at a bus stop in the snow without a jacket",
        "a warm coat", "is wrapped in a thick wool coat"),
    "tired": ("has stayed awake for two nights in a row to finish a project",
        "a place to sleep", "has just woken up from a long, deep sleep"),
}  # fmt: skip

#: (what someone visibly prepares, the intention it shows).
PREPARATIONS = (
    ("fills a watering can and carries it to the flower bed", "to water the flowers"),
    ("threads a needle and picks up the shirt with the torn sleeve", "to mend the shirt"),
    ("laces up running shoes and stretches by the front door", "to go for a run"),
    ("sets a ladder under the dark lamp and unwraps a new bulb", "to change the light bulb"),
    ("carries a bucket of soapy water and a sponge to the dusty car", "to wash the car"),
    ("puts flour, eggs, sugar and a cake tin on the counter", "to bake a cake"),
    ("packs a towel and swimming goggles into a bag", "to go swimming"),
    ("picks up a rake and walks out to the leaf-covered lawn", "to rake the leaves"),
)

SEEING = (
    "was watching you from the doorway", "was standing right beside you",
    "saw you clearly through the open window",
)  # fmt: skip
NOT_SEEING = (
    "was fast asleep upstairs", "had gone out to the shop", "was on a phone call, facing the wall",
    "was wearing a blindfold for a party game",
)  # fmt: skip
HIDDEN_THINGS = ("the birthday present", "the spare key", "the surprise cake", "the treasure map")
HIDING_PLACES = ("the cupboard", "the piano bench", "the laundry basket", "the old boot")
NOBODY = "Nobody apart from me."

#: (what you made, how it turned out well, how it turned out badly, the praise).
CREATIONS = (
    ("your cake", "came out soft and golden", "came out burnt black", "What a wonderful cake!"),
    ("your haircut", "looks neat and stylish", "is lopsided and patchy", "What a great haircut!"),
    ("your painting", "is bright and lively", "is smudged and muddy", "What a beautiful painting!"),
    ("your soup", "is rich and tasty", "is cold and far too salty", "What a delicious soup!"),
)
#: Kind of speech -> how it is said.
DELIVERIES = {
    "sincere": "{name} looks at it closely and says",
    "irony": "{name} looks at it, rolls their eyes with a smirk and says",
    "white_lie": (
        "A moment ago you overheard {name} whisper to {other} that {thing} {bad}. Now {name} "
        "turns to you, smiles kindly and says"
    ),
}

Generated = tuple[str, str, tuple[str, ...], int, str, dict[str, str | int | bool]]
"""(story, question, options, answer index, perspective, facts) before shuffling."""


def _subject(rng: random.Random) -> tuple[str, str | None]:
    """``("You", None)`` or ``(name, name)``: who the item is about."""
    if rng.random() < 0.5:
        return "You", None
    name = rng.choice(PEOPLE)
    return name, name


def _second_person(phrase: str) -> str:
    """``has ...``/``is ...`` -> ``have ...``/``are ...`` (only the opening verb)."""
    verb, _, rest = phrase.partition(" ")
    return f"{ {'has': 'have', 'is': 'are'}.get(verb, verb) } {rest}"


def _verb(subject: str, you_form: str, other_form: str) -> str:
    return you_form if subject == "You" else other_form


def emotion(rng: random.Random) -> Generated:
    """A wish met or not, expected or not: how does the wisher feel?"""
    subject, name = _subject(rng)
    wanted, other_gift = rng.sample(GIFTS, 2)
    # A wish neither met nor expected is left out: "calm" and "disappointed" both defend there.
    met, expected = rng.choice(((True, True), (True, False), (False, True)))
    possessive = "your" if name is None else f"{name}'s"
    object_pronoun = "you" if name is None else name
    belief = (
        f"{possessive.capitalize()} parents promised that {object_pronoun} would get it."
        if expected
        else f"{subject} {_verb(subject, 'were', 'was')} sure that nobody knew about this wish."
    )
    story = (
        f"{subject} {_verb(subject, 'have', 'has')} wished for {wanted} for months. {belief} "
        f"On {possessive} birthday, {subject.lower() if name is None else name} "
        f"{_verb(subject, 'open', 'opens')} the big present and {_verb(subject, 'find', 'finds')} "
        f"{wanted if met else other_gift}."
    )
    question = "How do you feel?" if name is None else f"How does {name} feel?"
    options = tuple(FEELINGS.values())
    facts: dict[str, str | int | bool] = {"met": met, "expected": expected}
    perspective = "socialization" if name is None else "tom"
    return story, question, options, options.index(FEELINGS[(met, expected)]), perspective, facts


def desire(rng: random.Random) -> Generated:
    """A need set up by the story, another just met: what is wanted most?"""
    subject, name = _subject(rng)
    need, met_need = rng.sample(tuple(NEEDS), 2)
    situation = NEEDS[need][0]
    met = NEEDS[met_need][2]
    if name is None:
        situation, met = _second_person(situation), _second_person(met)
    story = f"{subject} {situation}. {subject} {met}."
    question = (
        "What do you want most right now?"
        if name is None
        else f"What does {name} want most right now?"
    )
    options = tuple(wish for _, wish, _ in NEEDS.values())
    facts: dict[str, str | int | bool] = {"need": need, "met_need": met_need}
    perspective = "socialization" if name is None else "tom"
    return story, question, options, options.index(NEEDS[need][1]), perspective, facts


def intention(rng: random.Random) -> Generated:
    """Someone prepares something visibly: what do they intend?"""
    picked = rng.sample(range(len(PREPARATIONS)), 4)
    preparation, _ = PREPARATIONS[picked[0]]
    name = rng.choice(PEOPLE)
    story = f"You are at home when you see {name}. {name} {preparation}."
    options = tuple(f"{name} wants {PREPARATIONS[index][1]}." for index in picked)
    facts: dict[str, str | int | bool] = {"preparation": picked[0]}
    return story, f"What does {name} intend to do?", options, 0, "tom", facts


def knowledge(rng: random.Random) -> Generated:
    """You hide something; who else saw it and so knows where it is?"""
    names = rng.sample(PEOPLE, 3)
    witness = rng.randrange(4)  # 3 means nobody saw
    thing, place = rng.choice(HIDDEN_THINGS), rng.choice(HIDING_PLACES)
    states = [
        rng.choice(SEEING) if index == witness else rng.choice(NOT_SEEING)
        for index in range(len(names))
    ]
    story = f"You hide {thing} in {place}. At that moment, " + " ".join(
        f"{name} {state}." for name, state in zip(names, states, strict=True)
    )
    options = (*(f"{name}." for name in names), NOBODY)
    facts: dict[str, str | int | bool] = {"witness": witness}
    question = f"Who, apart from you, knows where {thing} is?"
    return story, question, options, witness, "tom", facts


def non_literal(rng: random.Random) -> Generated:
    """Praise of something you made: sincere, ironic or a white lie?"""
    thing, good, bad, praise = rng.choice(CREATIONS)
    kind = rng.choice(tuple(DELIVERIES))
    name, other = rng.sample(PEOPLE, 2)
    outcome = good if kind == "sincere" else bad
    delivery = DELIVERIES[kind].format(name=name, other=other, thing=thing, bad=bad)
    story = f"{thing.capitalize()} {outcome}. {delivery}: '{praise}'"
    meant = thing.replace("your ", "my ")
    options = (
        f"{name} sincerely thinks {meant} is good.",
        f"{name} is mocking {meant}, which is bad.",
        f"{name} dislikes {meant} but wants to spare my feelings.",
        f"{name} is praising someone else's work.",
    )
    answer = ("sincere", "irony", "white_lie").index(kind)
    facts: dict[str, str | int | bool] = {"speech": kind, "good": kind == "sincere"}
    return story, f"What does {name} mean?", options, answer, "tom", facts


#: Ability label -> generator.
GENERATORS: dict[str, Callable[[random.Random], Generated]] = {
    "Emotion": emotion,
    "Desire": desire,
    "Intention": intention,
    "Knowledge": knowledge,
    "Non-li": non_literal,
}


def generate_abilities(
    seed: int, count: int, labels: tuple[str, ...] = tuple(GENERATORS)
) -> list[EgoItem]:
    """Generate ``count`` items per ability label (ids ``daily_life-s<seed>-<label>-<index>``)."""
    rng = random.Random(seed)
    items = []
    for label in labels:
        for index in range(count):
            story, question, options, answer, perspective, facts = GENERATORS[label](rng)
            shuffled, right = shuffle_options(rng, options, answer)
            items.append(
                EgoItem(
                    id=f"daily_life-s{seed}-{label.lower()}-{index:04d}",
                    scenario="daily_life",
                    label=label,
                    system=FIRST_PERSON_SYSTEM,
                    story=story,
                    question=question,
                    options=shuffled,
                    answer=right,
                    perspective=perspective,  # type: ignore[arg-type]
                    metadata={"question_type": label.lower(), **facts},
                )
            )
    return items
