"""Graph facts read from the text of a published task (for the blind walker).

The published tasks are prompts, not graphs. On the star and cluster graphs
(``n15star``, ``n16cluster``, ``n21star``, and Experiment 2) every domain
lists its connections in one template, "A is connected to B, C, and D" or
"A, B and C are all connected to each other", and states the rewards as
"a chest with a reward of 50 in room 20", "Prem is donating 50 books" or
"visit snapdragon field, you can get a bunch of 50 ... flowers". This module
reads those sentences of the *first* user turn, and the target of a
"shortest path ... to X" question, into a :class:`GraphContext`.

The line and tree graphs tell a walk through the environment in free prose;
they are not read (:func:`read_first_turn` returns ``None``), and neither are
the follow-up turns' changes: the walker plans on the first turn's map.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from cog_tasks.cogeval.parsing import normalize_state
from cog_tasks.cogeval.scoring import AnswerKind, GraphContext

_SENTENCE = re.compile(r"(?<=[.?!])\s+")
_CONNECTED = re.compile(r"^(?P<head>.+?) is (?:also )?connected to (?P<tail>.+?)\.?$")
_CLIQUE = re.compile(r"^(?P<members>.+?) are (?:all )?connected to each other\.?$")
_LIST_SPLIT = re.compile(r",\s*(?:and\s+)?|\s+and\s+")
_NOUNS = re.compile(r"\b(?:rooms?|scholars?|fields?|the)\b", re.IGNORECASE)
_ROOM_REWARD = re.compile(r"reward of (\d+) (?:in|for visiting) room (\d+)", re.IGNORECASE)
_DONATION = re.compile(r"([A-Z][a-z]+) is donating (\d+)")
_FIELD_REWARD = re.compile(r"a bunch of (\d+) (\w+) flowers")
_SIZE = re.compile(r"\b(?:with|of) (\w+) (?:\w+ )?(?:rooms|scholars|fields)\b")
_NUMBER_WORDS = {
    word: number
    for number, word in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
        "fifteen sixteen seventeen eighteen nineteen twenty twenty-one".split()
    )
}
_TARGET = re.compile(r"shortest path (?:from .+? )?to (?:the )?(?:room )?(\w+)", re.IGNORECASE)


def _names(text: str) -> list[str]:
    """State names of a list such as "rooms 2, 3, and 4" or "the lily, and daisy fields"."""
    parts = _LIST_SPLIT.split(_NOUNS.sub(" ", text))
    return [normalize_state(part) for part in parts if normalize_state(part)]


def _edges(text: str) -> list[tuple[str, str]]:
    """Undirected connections stated in the connection sentences of one turn."""
    edges: list[tuple[str, str]] = []
    for sentence in _SENTENCE.split(text):
        sentence = sentence.strip()
        clique = _CLIQUE.match(sentence)
        if clique:
            members = _names(clique["members"])
            edges += [(a, b) for i, a in enumerate(members) for b in members[i + 1 :]]
            continue
        pair = _CONNECTED.match(sentence)
        if pair and " no longer " not in sentence and "anymore" not in sentence:
            head = _names(pair["head"])
            if len(head) == 1:
                edges += [(head[0], other) for other in _names(pair["tail"])]
    return edges


def _stated_size(text: str) -> int | None:
    """The number of states the opening sentence announces ("a house with 21 rooms")."""
    size = _SIZE.search(text)
    if size is None:
        return None
    word = size[1].lower()
    return int(word) if word.isdigit() else _NUMBER_WORDS.get(word)


def _rewards(text: str) -> list[tuple[str, float]]:
    """Rewards stated in one turn, as (state, value) pairs."""
    found = [(room, value) for value, room in _ROOM_REWARD.findall(text)]
    found += _DONATION.findall(text)
    found += [(field, value) for value, field in _FIELD_REWARD.findall(text)]
    return [(normalize_state(state), float(value)) for state, value in found]


def read_first_turn(
    first_turn: str, kind: AnswerKind, start: str | None, question: str | None = None
) -> GraphContext | None:
    """The first turn's map as a scorer context, or ``None`` when it is not in the template.

    Args:
        first_turn: The first user turn (it describes the environment).
        kind: Answer form of the question asked.
        start: Normalised start state (routes), if known.
        question: The turn that asks the question (default: the first turn);
            a "shortest path ... to X" question makes X the only goal, and a
            target missing from the map leaves the walk without a goal
            (upstream's n15star socialTies ``3stepPath`` asks for Matt, who
            is not among the scholars the prompt connects).

    Returns:
        A context over the stated connections, with the stated rewards (or the
        question's target as the one goal), or ``None`` when the connections
        read do not name as many states as the turn announces, the start is
        not one of them, or a reward question names no rewarded state of them.
    """
    edges = list(dict.fromkeys(_edges(first_turn)))
    states = tuple(dict.fromkeys(name for edge in edges for name in edge))
    if not edges or len(states) != _stated_size(first_turn):
        return None
    target = _TARGET.search(question or first_turn)
    if target is not None:
        goal = normalize_state(target[1])
        rewards = [(goal, 1.0)] if goal in states else []
    else:
        rewards = [(state, value) for state, value in _rewards(first_turn) if state in states]
        if not rewards and kind in ("path", "first_step"):
            return None
    if kind in ("path", "first_step") and start not in states:
        return None
    return GraphContext(
        kind=kind,
        directed=False,
        states=states,
        edges=tuple(edges),
        rewards=tuple(rewards),
        start=start if kind in ("path", "first_step") else None,
    )


def read_turns(turns: Sequence[str], kind: AnswerKind, start: str | None) -> GraphContext | None:
    """The map a blind walker uses for the last of ``turns`` (see :func:`read_first_turn`)."""
    return read_first_turn(turns[0], kind, start, question=turns[-1])
