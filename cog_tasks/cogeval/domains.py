"""Domains: how states are named (seed 0 keeps the paper's numbering) and how links are worded."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from cog_tasks.cogeval.graphs import GraphSpec
from cog_tasks.common.params import ParameterError

PLACES: tuple[str, ...] = (
    "Oslo", "Lima", "Nairobi", "Hanoi", "Quito", "Tbilisi", "Dakar", "Lisbon", "Osaka",
    "Bogota", "Accra", "Riga", "Kyoto", "Porto", "Tunis", "Cusco", "Bergen", "Malaga",
    "Zagreb", "Mumbai", "Perth", "Havana", "Bruges", "Seville", "Tallinn", "Bilbao",
    "Cairo", "Manila", "Denver", "Geneva", "Durban", "Krakow", "Salvador", "Austin",
    "Lyon", "Split",
)  # fmt: skip
PEOPLE: tuple[str, ...] = (
    "Amara", "Bruno", "Chiara", "Dmitri", "Esther", "Farid", "Greta", "Hiroshi", "Ines",
    "Jonas", "Keiko", "Luca", "Mirela", "Nadia", "Omar", "Priya", "Quentin", "Rosa",
    "Soren", "Tamar", "Umar", "Vera", "Wanjiru", "Xavier", "Yusuf", "Zofia", "Anil",
    "Beatriz", "Caleb", "Dalia", "Emeka", "Freya", "Goran", "Hana", "Ivo", "Julia",
)  # fmt: skip
OBJECTS: tuple[str, ...] = (
    "oak chest", "tin box", "velvet pouch", "glass jar", "leather case", "wooden crate",
    "silver casket", "paper envelope", "copper urn", "woven basket", "iron safe",
    "clay pot",
)  # fmt: skip


@dataclass(frozen=True)
class Domain:
    """Wording of one domain (``neighbours`` must say that each link works both ways)."""

    name: str
    setting: str
    noun: str
    plural: str
    one_way: str
    two_way: str
    neighbours: str
    blocked: str
    reward: str
    penalty: str
    no_reward: str
    portal: str
    unit: str
    lottery: str
    outcome: str


ROOMS = Domain(
    name="ordRooms",
    setting="Picture a building with {n} rooms.",
    noun="room",
    plural="rooms",
    one_way="A door in {a} opens onto {b}.",
    two_way="{a} and {b} share a door, which opens both ways.",
    neighbours="{a} shares a door with each of {b}; each door opens both ways.",
    blocked="The door between {a} and {b} is now locked.",
    reward="{s} holds a chest with {v} dollars.",
    penalty="{s} has a trap that costs you {v} dollars.",
    no_reward="The chest in {s} is now empty.",
    portal="{s} has a portal that can take you, once, straight into any room you name.",
    unit="dollars",
    lottery="The door in {a} has become unreliable: {b}.",
    outcome="with probability {p} it opens onto {b}",
)
DOMAINS: dict[str, Domain] = {
    "ordRooms": ROOMS,
    "unordRooms": replace(
        ROOMS,
        name="unordRooms",
        setting="Picture a hotel with {n} rooms whose numbers follow no particular order.",
    ),
    "unordSpatial": Domain(
        name="unordSpatial",
        setting="Picture a trip through {n} cities linked by a few train lines.",
        noun="city",
        plural="cities",
        one_way="A one-way train runs from {a} to {b}.",
        two_way="A train line links {a} and {b} in both directions.",
        neighbours="Train lines link {a} with each of {b}, every line in both directions.",
        blocked="The train line between {a} and {b} is closed.",
        reward="A job in {s} pays {v} dollars.",
        penalty="Stopping in {s} costs {v} dollars in fees.",
        no_reward="The job in {s} is gone.",
        portal="In {s} an airline offers one free flight to any city you name.",
        unit="dollars",
        lottery="The train out of {a} has become unreliable: {b}.",
        outcome="with probability {p} it takes you to {b}",
    ),
    "socialTies": Domain(
        name="socialTies",
        setting="Picture a circle of {n} people connected by friendships.",
        noun="person",
        plural="people",
        one_way="{a} can introduce you to {b}.",
        two_way="{a} and {b} are friends; either can introduce you to the other.",
        neighbours="{a} is friends with each of {b}; friends can introduce you either way.",
        blocked="{a} and {b} have fallen out and no longer introduce you to each other.",
        reward="{s} can give you {v} dollars for your project.",
        penalty="Meeting {s} costs you {v} dollars.",
        no_reward="{s} has nothing left to give.",
        portal="{s} can, once, put you in touch with anyone you name.",
        unit="dollars",
        lottery="{a} has become unreliable: {b}.",
        outcome="with probability {p} the introduction is to {b}",
    ),
    "objectRelations": Domain(
        name="objectRelations",
        setting="Picture {n} containers, some of them hidden inside others.",
        noun="container",
        plural="containers",
        one_way="Opening {a} reveals {b}.",
        two_way="{a} and {b} are tied together, so either one leads to the other.",
        neighbours="{a} is tied to each of {b}, so each leads to the other.",
        blocked="{b} is no longer inside {a}.",
        reward="{s} holds {v} gold coins.",
        penalty="Opening {s} costs you {v} gold coins.",
        no_reward="{s} is now empty.",
        portal="{s} holds a master key that, once, opens any container you name directly.",
        unit="gold coins",
        lottery="Opening {a} has become unpredictable: {b}.",
        outcome="with probability {p} it reveals {b}",
    ),
}


def get_domain(name: str) -> Domain:
    """Return the domain called ``name``, else raise a ParameterError listing the valid ones."""
    if name not in DOMAINS:
        raise ParameterError(f"unknown CogEval domain {name!r}; valid: {sorted(DOMAINS)}")
    return DOMAINS[name]


def state_labels(spec: GraphSpec, domain: str, seed: int) -> dict[int, str]:
    """Name every state of ``spec`` (added states included) for one domain and seed."""
    get_domain(domain)
    if domain not in spec.domains:
        raise ParameterError(
            f"domain {domain!r} is not defined for graph {spec.name!r}; valid: {list(spec.domains)}"
        )
    states = spec.all_states()
    rng = random.Random(f"cogeval:{spec.name}:{domain}:{seed}")
    if domain in ("ordRooms", "unordRooms"):
        numbered = [s for s in states if not (spec.entry_is_lobby and s == spec.start)]
        if domain == "ordRooms" and seed == 0:
            numbers = list(numbered)
        else:
            numbers = rng.sample(range(1, 100), len(numbered))
            if domain == "ordRooms":
                numbers.sort()
        labels = {s: f"room {n}" for s, n in zip(numbered, numbers, strict=True)}
        if spec.entry_is_lobby:
            labels[spec.start] = "the lobby"
        return labels
    pool = {"unordSpatial": PLACES, "socialTies": PEOPLE, "objectRelations": OBJECTS}[domain]
    names = rng.sample(pool, len(states))
    if domain == "objectRelations":
        names = [f"the {name}" for name in names]
    return dict(zip(states, names, strict=True))
