"""Domains: how states are named (seed 0 keeps the paper's numbering) and how links are worded."""

from __future__ import annotations

import random
from dataclasses import dataclass

from cog_tasks.cogeval.graphs import GraphSpec
from cog_tasks.common.files import package_json
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


#: The domains by name, from ``domains.json`` next to this module.
DOMAINS: dict[str, Domain] = {
    fields["name"]: Domain(**fields) for fields in package_json("cog_tasks.cogeval", "domains.json")
}
ROOMS = DOMAINS["ordRooms"]


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
