"""Graph facts read from the text of a published task (for the blind walker)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from cog_tasks.cogeval.parsing import extract_answer, normalize_state, split_route
from cog_tasks.cogeval.planning import optimal_plan
from cog_tasks.cogeval.scoring import AnswerKind, GraphContext
from cog_tasks.common.files import DataFileError

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
_TARGET = re.compile(
    r"shortest path (?:from .+? )?to (?:the |room |zone |scholar )*(\w+)", re.IGNORECASE
)
_FROM = re.compile(r"\bfrom (?:the |room |zone |scholar )*(\w+)", re.IGNORECASE)


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


#: A state named in a story: numbered rooms and zones, the lobby or entrance, named fields, names.
_ROOM_MENTION = re.compile(r"\b(?:room|zone) (\d+)\b", re.IGNORECASE)
_DOOR_MENTION = re.compile(r"\b(lobby|entrance)\b", re.IGNORECASE)
_FIELD_MENTION = re.compile(r"\b(\w+) field\b")
_NAME_MENTION = re.compile(r"\b([A-Z][a-z]+)\b")
_NOT_NAMES = frozenset(
    "Imagine You Then This There Which Starting Please Answer Now When Given Assume Again The "
    "In It From At Remember Under If And But What Who How Room Rooms".split()
)
_NOT_FIELDS = frozenset("the a this that other one two flower neighbor neighboring".split())
#: Words that leave a list of options between two new states ("room 1 or room 2").
_OPTION_GAP = re.compile(r"^\s*(?:,|,?\s*or|,?\s*and)?\s*(?:the\s+)?$")
_STORY_REWARD = re.compile(
    r"\$\s?(\d+)|\b(\d+)\s?(?:\$|dollars\b|books\b|(?:\w+ )?flowers\b)", re.IGNORECASE
)
#: Where the story ends and the question begins.
_QUESTION = re.compile(
    r"\?|only be able to choose|pick one path|didn't take any|Starting from", re.IGNORECASE
)


def _mentions(sentence: str) -> list[tuple[int, int, str]]:
    """(start, end, name) of every state the sentence names, in order."""
    found = [(m.start(), m.end(), m[1].lower()) for m in _DOOR_MENTION.finditer(sentence)]
    named = [(m.start(), m.end(), m[1]) for m in _ROOM_MENTION.finditer(sentence)]
    if not named:
        named = [
            (m.start(), m.end(), m[1])
            for m in _FIELD_MENTION.finditer(sentence)
            if m[1].lower() not in _NOT_FIELDS
        ]
    if not named and " field" not in sentence:
        names = [m for m in _NAME_MENTION.finditer(sentence) if m[1] not in _NOT_NAMES]
        if any(b.start() - a.end() == 1 for a, b in zip(names, names[1:], strict=False)):
            raise DataFileError(f"a name of several words is not read: {sentence!r}")
        named = [(m.start(), m.end(), m[1]) for m in names]
    return sorted(found + [(start, end, normalize_state(name)) for start, end, name in named])


def _read_story(
    text: str,
) -> tuple[tuple[str, ...], list[tuple[str, str]], list[tuple[str, float]]]:
    """States (start first), connections and rewards of an exploration story, read as a tree."""
    states: list[str] = []
    edges: list[tuple[str, str]] = []
    rewards: list[tuple[str, float]] = []
    here: str | None = None
    for sentence in _SENTENCE.split(text):
        if _QUESTION.search(sentence):
            break
        if re.search(r"\w+s: [A-Z]", sentence):  # "seven scholars: Vicky, Amir, ..." lists them all
            continue
        if re.search(r"start over", sentence) and states:
            here = states[0]
        previous: tuple[int, str, str | None] | None = (
            None  # (end, name, its parent) of a new state
        )
        for start, end, name in _mentions(sentence):
            if name not in states:
                states.append(name)
                sibling = previous is not None and _OPTION_GAP.match(sentence[previous[0] : start])
                parent = previous[2] if sibling and previous is not None else here
                if parent is not None:
                    edges.append((parent, name))
                here = parent if sibling else name
                previous = (end, name, parent)
            else:
                here, previous = name, None
        for clause in re.split(r",|\band\b|;", sentence):
            values = [a or b for a, b in _STORY_REWARD.findall(clause)]
            if values and here is not None:
                named = _mentions(clause)
                rewards.append((named[-1][2] if named else here, float(values[0])))
    return tuple(states), edges, rewards


def _named(turns: Sequence[str]) -> set[str]:
    """Every state the turns name."""
    sentences = (sentence for turn in turns for sentence in _SENTENCE.split(turn))
    return {name for sentence in sentences for _, _, name in _mentions(sentence)}


def _answer_states(expected: Sequence[str]) -> set[str]:
    """Every state the expected answers name."""
    routes = (split_route(extract_answer(text) or text) or () for text in expected)
    return {state for route in routes for state in route}


def read_first_turn(
    first_turn: str,
    kind: AnswerKind,
    expected: Sequence[str],
    question: str | None = None,
    later_turns: Sequence[str] = (),
) -> GraphContext | None:
    """The first turn's map (template, else story) as a scorer context; ``None`` if unreadable."""
    question = question or first_turn
    edges = list(dict.fromkeys(_edges(first_turn)))
    story = None  # a story's first state, where its walk starts
    states = tuple(dict.fromkeys(name for edge in edges for name in edge))
    if edges and len(states) == _stated_size(first_turn):
        stated_rewards = _rewards(first_turn)
    else:
        states, edges, stated_rewards = _read_story(first_turn)
        size = _stated_size(first_turn)
        if (
            len(edges) != len(states) - 1
            or (size is not None and len(states) not in (size, size + 1))
            or not _answer_states(expected) <= {*states, *_named(later_turns)}
        ):
            return None
        story = states[0]
    target = _TARGET.search(question)
    if target is not None:
        goal = normalize_state(target[1])
        rewards = [(goal, 1.0)] if goal in states else []
    else:
        rewards = [(state, value) for state, value in stated_rewards if state in states]
        if not rewards and kind in ("path", "first_step"):
            return None
    starts = [normalize_state(name) for name in _FROM.findall(question)]
    starts = [name for name in starts if name in states] or ([] if story is None else [story])
    if kind in ("path", "first_step") and not starts:
        return None
    return GraphContext(
        kind=kind,
        directed=False,
        states=states,
        edges=tuple(edges),
        rewards=tuple(rewards),
        start=starts[-1] if kind in ("path", "first_step") else None,
    )


def question_start(turns: Sequence[str]) -> str | None:
    """The state the last turn's question walks from ("Starting from the lobby"), if named."""
    try:
        named = _named(turns)
    except ValueError:
        return None
    starts = [normalize_state(name) for name in _FROM.findall(turns[-1])]
    starts = [name for name in starts if name in named]
    return starts[-1] if starts else None


def read_turns(
    turns: Sequence[str], kind: AnswerKind, expected: Sequence[str], asked: int | None = None
) -> GraphContext | None:
    """The map a blind walker uses to answer turn ``asked`` (default: the last) of a dialog."""
    question = turns[(asked or len(turns)) - 1]
    try:
        return read_first_turn(turns[0], kind, expected, question=question, later_turns=turns[1:])
    except ValueError:
        return None


def scoring_context(
    turns: Sequence[str], kind: AnswerKind, expected: Sequence[str]
) -> GraphContext | None:
    """The map of a one-turn "shortest path ... to X" task, if its best routes are the expected."""
    if len(turns) != 1 or kind != "path" or _TARGET.search(turns[0]) is None:
        return None
    context = read_turns(turns, kind, expected)
    if context is None or context.start is None or len(context.rewards) != 1:
        return None
    env, index = context.environment()
    plan = optimal_plan(env, index[context.start])
    walks = {tuple(context.states[state] for state in walk) for walk in plan.walks}
    routes = {tuple(split_route(extract_answer(text) or text) or ()) for text in expected}
    if walks != routes:
        return None
    return replace(context, best_value=plan.value, best_length=plan.length)
