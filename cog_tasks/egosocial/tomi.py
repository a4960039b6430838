"""ToMi records and their deterministic third-to-first-person conversion."""

from __future__ import annotations

import hashlib
import random
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from cog_tasks.common.files import DataFileError, read_text
from cog_tasks.egosocial.records import EgoItem, Perspective

QuestionType = Literal["first_order", "second_order", "memory", "reality"]

QUESTION_PATTERNS: dict[QuestionType, re.Pattern[str]] = {
    "first_order": re.compile(r"^Where will (?P<agent>\w+) look for the (?P<object>[\w ]+)\?$"),
    "second_order": re.compile(
        r"^Where does (?P<agent>\w+) think that (?P<other>\w+) searches"
        r" for the (?P<object>[\w ]+)\?$"
    ),
    "memory": re.compile(r"^Where was the (?P<object>[\w ]+) at the beginning\?$"),
    "reality": re.compile(r"^Where is the (?P<object>[\w ]+) really\?$"),
}
_CONTAINER_MENTION = re.compile(r"(?:\bis in|\bmoved the [\w ]+? to) the (?P<container>[\w ]+)\.")
_ARTICLES = {"The", "A", "An"}

#: Second-person forms of verbs whose third-person form is irregular.
_SECOND_PERSON_IRREGULAR = {
    "is": "are", "was": "were", "has": "have", "does": "do",
    "isn't": "aren't", "wasn't": "weren't", "hasn't": "haven't", "doesn't": "don't",
}  # fmt: skip
#: Words before a name that make the name a sentence subject.
_SUBJECT_OPENERS = {"that", "and", "then", "but", "when", "while", "so", "after", "before"}
_NOT_VERBS = {"always", "sometimes", "perhaps", "also", "thus"}


@dataclass(frozen=True)
class ToMiRecord:
    """One ToMi question with its story and gold container."""

    story: tuple[str, ...]
    question: str
    answer: str


@dataclass(frozen=True)
class ParsedQuestion:
    """A recognised ToMi question: its form, object, believer and (second order) other agent."""

    type: QuestionType
    object: str
    agent: str | None = None
    other: str | None = None


def parse_question(question: str) -> ParsedQuestion:
    """Recognise one of ToMi's four question forms (``DataFileError`` otherwise)."""
    for question_type, pattern in QUESTION_PATTERNS.items():
        match = pattern.match(question.strip())
        if match:
            return ParsedQuestion(question_type, **match.groupdict())
    raise DataFileError(f"not a ToMi question: {question!r}")


def read_tomi_file(path: str | Path) -> list[ToMiRecord]:
    """Read a ToMi/bAbI text file: one record per question line, stories restart at line 1."""
    path = Path(path)
    records: list[ToMiRecord] = []
    story: list[str] = []
    for line_number, raw in enumerate(read_text(path).splitlines(), start=1):
        if not raw.strip():
            continue
        number, _, text = raw.partition(" ")
        if not number.isdigit() or not text:
            raise DataFileError(f"{path}:{line_number}: expected '<number> <text>', got {raw!r}")
        if number == "1":
            story = []
        if "\t" in text:
            fields = text.split("\t")
            if len(fields) < 2 or not fields[1].strip():
                raise DataFileError(f"{path}:{line_number}: question line without an answer")
            records.append(ToMiRecord(tuple(story), fields[0].strip(), fields[1].strip()))
        else:
            story.append(text.strip())
    return records


def second_person_verb(word: str) -> str:
    """Turn a third-person-singular verb into its "you" form (``searches`` -> ``search``)."""
    lower = word.lower()
    if lower in _SECOND_PERSON_IRREGULAR:
        return _SECOND_PERSON_IRREGULAR[lower]
    if not lower.isalpha() or lower in _NOT_VERBS or len(lower) < 3 or not lower.endswith("s"):
        return word
    if lower.endswith(("ss", "us", "is")):
        return word
    if lower.endswith("ies"):
        return word[:-3] + "y"
    if lower.endswith(("ches", "shes", "sses", "xes", "zes", "oes")):
        return word[:-2]
    return word[:-1]


def _capitalised(word: str, like: str) -> str:
    return word[:1].upper() + word[1:] if like[:1].isupper() else word


def to_second_person(sentence: str, name: str) -> str:
    """Rewrite one sentence so that ``name`` becomes "you" (possessives and verbs agree)."""
    escaped = re.escape(name)
    sentence = re.sub(rf"\b{escaped}'s\b", lambda m: "Your" if m.start() == 0 else "your", sentence)
    sentence = re.sub(
        rf"\b([Dd]oes|[Ii]s|[Ww]as|[Hh]as)\s+{escaped}\b",
        lambda m: _capitalised(_SECOND_PERSON_IRREGULAR[m.group(1).lower()], m.group(1)) + " you",
        sentence,
    )

    def subject(match: re.Match[str]) -> str:
        opener = match.group("opener")
        pronoun = "You" if opener is None else "you"
        return f"{opener or ''}{pronoun} {second_person_verb(match.group('verb'))}"

    openers = "|".join(sorted(_SUBJECT_OPENERS))
    sentence = re.sub(
        rf"(?:^|(?P<opener>\b(?:{openers})\s+|,\s*)){escaped}\s+(?P<verb>[\w']+)", subject, sentence
    )
    return re.sub(rf"\b{escaped}\b", lambda m: "You" if m.start() == 0 else "you", sentence)


def story_containers(story: tuple[str, ...]) -> tuple[str, ...]:
    """Containers named in a story, in order of first mention."""
    named = (match.group("container") for s in story for match in _CONTAINER_MENTION.finditer(s))
    return tuple(dict.fromkeys(named))


def _story_agents(story: tuple[str, ...]) -> tuple[str, ...]:
    firsts = (sentence.split(" ", 1)[0] for sentence in story)
    return tuple(dict.fromkeys(f for f in firsts if f[:1].isupper() and f not in _ARTICLES))


def perspective_of(question: ParsedQuestion, you: str) -> Perspective:
    """What a converted question measures: socialization (about "you"), tom or control."""
    if question.type == "first_order":
        return "socialization" if question.agent == you else "tom"
    if question.type == "second_order":
        return "tom"
    return "control"


def _stable_shuffle(options: tuple[str, ...], key: str) -> tuple[str, ...]:
    seed = int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big")
    shuffled = list(options)
    random.Random(seed).shuffle(shuffled)
    return tuple(shuffled)


def convert_record(
    record: ToMiRecord, item_id: str, you: str | None = None, metadata: dict | None = None
) -> EgoItem:
    """A third-person ToMi record as a first-person :class:`EgoItem` (``you``: the believer)."""
    question = parse_question(record.question)
    agents = _story_agents(record.story)
    you = you or question.agent or (agents[0] if agents else None)
    if you is None:
        raise DataFileError(f"{item_id}: no character in the story to become 'you'")
    containers = story_containers(record.story)
    if record.answer not in containers:
        raise DataFileError(f"{item_id}: answer {record.answer!r} is not a container in the story")
    options = _stable_shuffle(containers, "\n".join((*record.story, record.question)))
    return EgoItem(
        id=item_id,
        scenario="daily_life",
        label="Belief" if question.type in ("first_order", "second_order") else "Control",
        system=(
            f"You are {you}. Everything in the story below happened to you, and you saw only "
            "what you were present for. Answer every question as yourself."
        ),
        story=" ".join(to_second_person(sentence, you) for sentence in record.story),
        question=to_second_person(record.question, you),
        options=tuple(f"the {container}" for container in options),
        answer=options.index(record.answer),
        perspective=perspective_of(question, you),
        metadata={"question_type": question.type, "you": you, **(metadata or {})},
    )
