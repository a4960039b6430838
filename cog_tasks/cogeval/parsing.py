"""Reading a reply's final ``Answer: ...`` as a careful human grader would (docs/scoring.md)."""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from cog_tasks.common import reading

NO_ANSWER = "no_answer"
UNPARSEABLE = "unparseable"
_MARKER = re.compile(r"answer(?:\s+is)?\s*[:：]", re.IGNORECASE)
_DECORATION = re.compile(r"[*_`\"“”\[\]{}]")
_PARENTHESES = re.compile(r"\([^)]*\)")
_TUPLE = re.compile(r"\(\s*[^(),]+,\s*[^(),]+\)")
_HEDGE = re.compile(
    r"\b(?:or|either|maybe|perhaps|possibly|probably|unsure|not sure)\b|\w\s*/\s*\w|\?",
    re.IGNORECASE,
)
_ROUTE_SEPARATORS = re.compile(
    r"\s*(?:,|;|->|=>|→|⟶|\band\s+then\b|\bthen\b|\band\b)\s*", re.IGNORECASE
)
_PAIR_SEPARATORS = re.compile(r"\s*(?:<->|->|→|↔|—|–|-|\bto\b)\s*", re.IGNORECASE)
_LEADING_WORDS = re.compile(
    r"^(?:and|then|finally|go to|go|move to|to|the|via|from|start at|start|at|"
    r"room|city|town|person|container|zone)\s+",
    re.IGNORECASE,
)
#: Words that name what a state is, accepted after a state ("Sunflower field").
DOMAIN_SUFFIXES: frozenset[str] = frozenset(
    {"room", "city", "town", "station", "field", "person", "container", "node", "state"}
)
_LEAD_IN = re.compile(
    r"^.*?\b(?:is|are|would be|will be|be|(?:should|would|must|can|could) (?:choose|pick|"
    r"select|go to|take|visit|ask|contact|introduce you to|connect you (?:to|with)))\b\s*:?\s*",
    re.IGNORECASE,
)
#: "Vicky should introduce you to Wim": the state after the verb is the answer, not Vicky.
_INTRODUCTION = re.compile(
    r"^.*?\b(?:should|would|must|can|could) (?:introduce you to|connect you (?:to|with))\s+",
    re.IGNORECASE,
)
_WORD_SEPARATORS = re.compile(r"\s+(?:-|–|—|to)\s+", re.IGNORECASE)
_NUMBER = re.compile(r"^\d+\b")
_NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}  # fmt: skip
_COUNT = re.compile(r"\b(\d+|" + "|".join(_NUMBER_WORDS) + r")\b", re.IGNORECASE)
#: Words before a count that make it a bound, not a count ("at least 3 clusters").
_COUNT_BOUND = re.compile(
    r"\b(?:at least|at most|more than|less than|fewer than|up to|about|around|approximately|"
    r"roughly|between)\b",
    re.IGNORECASE,
)
#: A count named as what was asked: "3 clusters", "four groups".
_NAMED_COUNT = re.compile(
    _COUNT.pattern
    + r"\s+(?:distinct\s+|separate\s+)?(?:clusters?|groups?|communit(?:y|ies)|circles?)\b",
    re.IGNORECASE,
)
#: A count followed by the other end of a range ("3-4 clusters", "3 to 4").
_COUNT_RANGE = re.compile(r"^\s*(?:-|–|—|\bto\b)\s*" + _COUNT.pattern, re.IGNORECASE)
#: The longest unknown name read as a state (in words); longer text is prose.
_MAX_NAME_WORDS = 2
#: The answer forms our prompts show, by answer kind (the generator writes its prompts' "End with
#: a line 'Answer: A, B, C'" from these); echoed, they are no answer.
FORMAT_EXAMPLES = {"route": "A, B, C", "state": "X", "count": "N", "map": "A - B, C - D, ..."}


def _words(text: str) -> str:
    return " ".join(re.findall(r"[^\W_]+", text.lower()))


_EXAMPLE_WORDS = frozenset(_words(example) for example in FORMAT_EXAMPLES.values())


@dataclass(frozen=True)
class Reading:
    """The cleaned final answer of a reply, its ``problem`` (``None`` if readable), its raw text."""

    text: str | None
    problem: str | None = None
    raw: str = ""


def _clean(text: str) -> str:
    text = _PARENTHESES.sub("", _DECORATION.sub("", text)).strip()
    return text.rstrip(".!;: ").strip()


def _answer_lines(response: str) -> list[tuple[int, str]]:
    """``(line index, raw text after the line's last marker)`` per marker line, echoes left out."""
    lines = response.splitlines()
    found = []
    for index, line in enumerate(lines):
        markers = list(_MARKER.finditer(line))
        if not markers:
            continue
        text = line[markers[-1].end() :]
        if not _clean(text):
            text = next((later for later in lines[index + 1 :] if _clean(later)), "")
            if _MARKER.search(text):
                continue  # "the answer is:" introducing the next line's own "Answer: ..."
        if _words(_clean(text)) not in _EXAMPLE_WORDS:
            found.append((index, text))
    return found


def read_final_answer(response: str, questions: int = 1, scored: int | None = None) -> Reading:
    """Read the final answer of a reply; with several ``questions``, one marker per question."""
    found = _answer_lines(reading.normalize(response))
    if not found:
        return Reading(None, NO_ANSWER)
    per_question = questions > 1 and len(found) == questions
    index, raw = found[(scored or questions) - 1] if per_question else found[-1]
    text = _clean(raw)
    if not text:
        return Reading(None, NO_ANSWER)
    if _HEDGE.search(raw) or reading.hedged(raw) or reading.retracted(raw):
        return Reading(text, UNPARSEABLE, raw)
    answers = (_clean(other).lower() or None for _, other in found)
    if not per_question and reading.one_answer(answers).outcome == reading.AMBIGUOUS:
        return Reading(text, UNPARSEABLE, raw)
    return Reading(text, None, raw)


_AND = re.compile(r"\band\b(?!\s+then\b)", re.IGNORECASE)


def _two_by_and(raw: str) -> bool:
    """Whether "and" joins two answers ("2 and 1"), not a route's last state ("1, 3 and 5")."""
    for match in _AND.finditer(raw):
        before, after = raw[: match.start()], raw[match.end() :]
        if not _ROUTE_SEPARATORS.search(before) or _ROUTE_SEPARATORS.search(after.strip()):
            return True
    return False


def extract_answer(response: str) -> str | None:
    """The cleaned text of the final answer, or ``None`` when there is no marker."""
    return read_final_answer(response).text


def has_tuples(text: str) -> bool:
    """Whether ``text`` writes pairs as tuples ``(A, B)``."""
    return bool(_TUPLE.search(text))


def normalize_state(token: str) -> str:
    """Canonical form of one state name: ``"Room 5."`` and ``"5"`` both give ``"5"``."""
    token = _DECORATION.sub("", token).strip().strip(".!?:;()'").strip().lower()
    previous = None
    while previous != token:
        previous = token
        token = _LEADING_WORDS.sub("", token).strip()
    return re.sub(r"\s+", " ", token)


@dataclass(frozen=True)
class _Match:
    """The state a route segment starts with (``state`` ``None`` for prose)."""

    state: str | None
    prose: bool = False
    recognised: bool = False
    run_on: bool = False


def _match_state(segment: str, known: Collection[str]) -> _Match:
    """The state a route segment starts with; an unknown name of at most two words counts as one."""
    words = normalize_state(segment).split()
    if not words:
        return _Match(None)
    for size in range(len(words), 0, -1):
        name = " ".join(words[:size])
        if name in known or (size == 1 and _NUMBER.match(name)):
            rest = words[size:]
            prose = bool(rest) and not (len(rest) == 1 and rest[0] in DOMAIN_SUFFIXES)
            run_on = prose and _starts_with_state(rest, known)
            return _Match(name, prose, recognised=True, run_on=run_on)
    if words[-1] in DOMAIN_SUFFIXES and len(words) > 1:
        words = words[:-1]
    if len(words) <= _MAX_NAME_WORDS:
        return _Match(" ".join(words))
    return _Match(None, prose=True)


def _starts_with_state(words: list[str], known: Collection[str]) -> bool:
    """Whether ``words`` begin with a known state or a number."""
    return bool(_NUMBER.match(words[0])) or any(
        " ".join(words[:size]) in known for size in range(1, len(words) + 1)
    )


def read_route(text: str, known: Collection[str] = ()) -> list[str] | None:
    """The normalised states of a route (or one state) before any prose; ``None`` if unreadable."""
    if _two_by_and(text):
        return None
    route: list[str] = []
    segments = [part for part in _ROUTE_SEPARATORS.split(text) if part.strip()]
    if len(segments) == 1:
        joined = [part for part in _WORD_SEPARATORS.split(text) if part.strip()]
        matches = [_match_state(part, known) for part in joined]
        if len(joined) > 1 and all(match.recognised and not match.prose for match in matches):
            segments = joined
    first = _match_state(segments[0], known) if segments else None
    if first is not None and (not first.recognised or first.prose):
        pattern = _LEAD_IN if not first.recognised else _INTRODUCTION
        lead_in = pattern.sub("", segments[0], count=1)
        if lead_in != segments[0] and _match_state(lead_in, known).state is not None:
            segments[0] = lead_in
    for segment in segments:
        match = _match_state(segment, known)
        if match.run_on:
            return None
        if match.state is None:
            break
        route.append(match.state)
        if match.prose:
            break
    return route or None


def split_route(answer: str) -> list[str]:
    """Split an answer into normalised state names (commas, arrows, "then")."""
    return read_route(answer) or []


def split_map(answer: str) -> list[tuple[str, str]]:
    """Split a map answer ``A - B, C - D`` into normalised pairs; malformed parts are skipped."""
    pairs = []
    for part in re.split(r"\s*[,;]\s*", answer):
        ends = [normalize_state(end) for end in _PAIR_SEPARATORS.split(part) if end.strip()]
        if len(ends) == 2 and all(ends):
            pairs.append((ends[0], ends[1]))
    return pairs


def parse_count(answer: str) -> int | None:
    """The one whole number (digits or a word up to twelve) in ``answer``, ``None`` if hedged."""
    named = list(_NAMED_COUNT.finditer(answer))
    counts = {found.group(1).lower() for found in named or _COUNT.finditer(answer)}
    match = named[0] if named else _COUNT.search(answer)
    if (
        len(counts) > 1
        or not match
        or _COUNT_BOUND.search(answer[: match.start(1)])
        or _COUNT_RANGE.match(answer[match.end(1) :])
        or re.search(r"\d\s*(?:-|–|—|\bto\b)\s*$", answer[: match.start(1)])
    ):
        return None
    word = match.group(1).lower()
    return int(word) if word.isdigit() else _NUMBER_WORDS[word]
