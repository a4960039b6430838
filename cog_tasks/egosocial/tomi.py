"""ToMi records and their deterministic third-to-first-person conversion.

ToMi (Le et al., 2019) stories are bAbI-style numbered lines; a question line
carries ``question<TAB>answer<TAB>supporting line``. Its four question forms are
recognised here:

- first order: ``Where will Jack look for the boots?``
- second order: ``Where does Jack think that Chloe searches for the boots?``
- memory: ``Where was the boots at the beginning?``
- reality: ``Where is the boots really?``

:func:`convert_record` follows EgoSocialArena's recipe: the system message says
the events happened to the model, one character becomes "you" in story and
question (verbs agree: ``Jack likes`` -> ``You like``, ``does Jack think`` ->
``do you think``), and the containers named in the story become the options.
Belief questions are labelled ``Belief`` and memory/reality questions
``Control``. A first-order question about "you" measures socialization, a
first-order question about someone else and every second-order question
measure theory of mind, and memory/reality questions are controls.

Limitation: pronouns (``his``, ``her``) are left as they are; ToMi's templates
do not use them.
"""

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
    "is": "are",
    "was": "were",
    "has": "have",
    "does": "do",
    "isn't": "aren't",
    "wasn't": "weren't",
    "hasn't": "haven't",
    "doesn't": "don't",
}
#: Words before a name that make the name a sentence subject.
_SUBJECT_OPENERS = {"that", "and", "then", "but", "when", "while", "so", "after", "before"}
_NOT_VERBS = {"always", "sometimes", "perhaps", "also", "thus"}


def first_person_system(name: str) -> str:
    """System message that tells the model it is ``name`` and lived the story."""
    return (
        f"You are {name}. Everything in the story below happened to you, and you saw only "
        "what you were present for. Answer every question as yourself."
    )


@dataclass(frozen=True)
class ToMiRecord:
    """One ToMi question with its story.

    Attributes:
        story: Story sentences, in order.
        question: The question text.
        answer: The gold container.
    """

    story: tuple[str, ...]
    question: str
    answer: str


@dataclass(frozen=True)
class ParsedQuestion:
    """A recognised ToMi question.

    Attributes:
        type: Which of the four forms it is.
        object: The object asked about.
        agent: The believer (first/second order), else ``None``.
        other: The agent whose belief is modelled (second order), else ``None``.
    """

    type: QuestionType
    object: str
    agent: str | None = None
    other: str | None = None


def parse_question(question: str) -> ParsedQuestion:
    """Recognise one of ToMi's four question forms.

    Raises:
        DataFileError: If the question has none of the four forms.
    """
    for question_type, pattern in QUESTION_PATTERNS.items():
        match = pattern.match(question.strip())
        if match:
            groups = match.groupdict()
            return ParsedQuestion(
                type=question_type,
                object=groups["object"],
                agent=groups.get("agent"),
                other=groups.get("other"),
            )
    raise DataFileError(f"not a ToMi question: {question!r}")


def read_tomi_file(path: str | Path) -> list[ToMiRecord]:
    """Read a ToMi/bAbI text file: numbered lines, stories restart at line 1.

    Args:
        path: A ToMi ``*.txt`` file.

    Returns:
        One record per question line, with the story lines before it.

    Raises:
        DataFileError: Naming the file and line of a malformed line.
    """
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
    """Turn a third-person-singular verb into its "you" form (``searches`` -> ``search``).

    Words that are not third-person present forms (``entered``) come back unchanged.
    """
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
    """Rewrite one sentence so that ``name`` becomes "you".

    Handles possessives (``Jack's`` -> ``your``), inverted auxiliaries
    (``does Jack`` -> ``do you``), subjects with agreeing verbs (``Jack likes``
    -> ``You like``) and objects (``saw Jack`` -> ``saw you``).

    Args:
        sentence: One sentence.
        name: The character who becomes "you".

    Returns:
        The rewritten sentence.
    """
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
        rf"(?:^|(?P<opener>\b(?:{openers})\s+|,\s*)){escaped}\s+(?P<verb>[\w']+)",
        subject,
        sentence,
    )
    return re.sub(rf"\b{escaped}\b", lambda m: "You" if m.start() == 0 else "you", sentence)


def story_containers(story: tuple[str, ...]) -> tuple[str, ...]:
    """Containers named in a story, in order of first mention."""
    seen: dict[str, None] = {}
    for sentence in story:
        for match in _CONTAINER_MENTION.finditer(sentence):
            seen.setdefault(match.group("container"), None)
    return tuple(seen)


def _story_agents(story: tuple[str, ...]) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for sentence in story:
        first = sentence.split(" ", 1)[0]
        if first[:1].isupper() and first not in _ARTICLES:
            seen.setdefault(first, None)
    return tuple(seen)


def perspective_of(question: ParsedQuestion, you: str) -> Perspective:
    """Perspective measured by a converted question (see the module docstring)."""
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
    """Convert a third-person ToMi record into a first-person :class:`EgoItem`.

    Args:
        record: The ToMi record.
        item_id: Identifier for the new item.
        you: The character who becomes "you"; defaults to the believer in the
            question, or the first character of the story for memory/reality
            questions.
        metadata: Extra tags to store on the item.

    Returns:
        The converted item; options are the story's containers in an order
        fixed by the record's text.

    Raises:
        DataFileError: If the question is not a ToMi form, no character can be
            found, or the answer is not a container named in the story.
    """
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
        system=first_person_system(you),
        story=" ".join(to_second_person(sentence, you) for sentence in record.story),
        question=to_second_person(record.question, you),
        options=tuple(f"the {container}" for container in options),
        answer=options.index(record.answer),
        perspective=perspective_of(question, you),
        metadata={"question_type": question.type, "you": you, **(metadata or {})},
    )
