"""Static EgoSocialArena items: the multiple-choice record and the reply parser."""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from cog_tasks.common import reading
from cog_tasks.common.files import DataFileError

Scenario = Literal["daily_life", "counterfactual", "new_world", "blackjack"]
Perspective = Literal["tom", "socialization", "control"]
SCENARIOS: tuple[Scenario, ...] = ("daily_life", "counterfactual", "new_world", "blackjack")
PERSPECTIVES: tuple[Perspective, ...] = ("tom", "socialization", "control")
#: The label of an item whose record names no ability.
SCENARIO_LABELS: dict[str, str] = {
    "daily_life": "Daily Life", "counterfactual": "Counterfactual", "new_world": "New World",
    "blackjack": "Blackjack",
}  # fmt: skip
LETTERS = "ABCDEFGHIJ"

FIRST_PERSON_SYSTEM = (
    "Everything described below happened to you, and you were there yourself. "
    "Answer every question as yourself, from your own point of view."
)

#: A formal answer: ``ANSWER: B``, ``**Answer:** (c)``, ``the answer is D``; the letter in any
#: case, and ``rest``, what follows it on its line.
_ANSWER_LINE = re.compile(
    r"\banswer[*_]*[ \t]*(?:is\b(?:[ \t]+(?:indeed|actually|clearly|definitely|still))?[ \t]*:?"
    r"|[:=])[ \t]*[*_]*[ \t]*[(\[]?[ \t]*"
    r"(?P<letter>[A-Ja-j])\b(?=(?P<rest>[^\n]*))",
    re.IGNORECASE,
)
#: A reply that opens with a letter: ``B``, ``B)``, ``(B)``, ``B.``, ``B:``, ``**B**``.
_LEADING_LETTER = re.compile(r"^\s*[*_]*\(?(?P<letter>[A-J])\b(?P<rest>[^\n]*)")
#: What may close a letter before the rest of its line: ``)``, ``]``, ``.``, ``:``, emphasis.
_LETTER_CLOSE = re.compile(r"[ \t]*[*_)\].:]*[*_]*")
#: A second letter after the first: ``A or B``, ``B) or C)``, ``A, B``, ``A/B``, ``A and C``.
_HEDGE = re.compile(r"[ \t]*(?:or|and|,|/|&|\+)[ \t]*[*_(\[]*[A-J]\b(?!'|[ \t]+[a-z])")
#: A second option in the options' own format on an answer's line: "A) Carrot or B) Coat".
_OTHER_OPTION = re.compile(r"(?<![A-Za-z])\(?([A-J])\)")
#: An answer's letter retracted right after it: "A) is wrong".
_RETRACTED = re.compile(r"[ \t*_)\].:]*(?:is|was|seems)[ \t]+(?:wrong|incorrect|not)\b", re.I)
#: An option line, as the prompt lists them (``B) text``): two in a reply are an echoed list.
_OPTION_LINE = re.compile(r"^[ \t]*\(?[A-J][).:][ \t]+\S", re.MULTILINE)


@dataclass(frozen=True)
class EgoItem:
    """One multiple-choice item in the first person (``perspective`` ``None`` for the authors')."""

    id: str
    scenario: Scenario
    label: str
    system: str
    story: str
    question: str
    options: tuple[str, ...]
    answer: int
    perspective: Perspective | None = None
    metadata: Mapping[str, str | int | bool] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.scenario not in SCENARIOS:
            raise DataFileError(f"item {self.id}: unknown scenario {self.scenario!r}")
        if not self.label.strip():
            raise DataFileError(f"item {self.id}: empty ability label")
        if self.perspective is not None and self.perspective not in PERSPECTIVES:
            raise DataFileError(f"item {self.id}: unknown perspective {self.perspective!r}")
        if not 2 <= len(self.options) <= len(LETTERS):
            raise DataFileError(f"item {self.id}: needs 2 to {len(LETTERS)} options")
        if len(set(self.options)) != len(self.options):
            raise DataFileError(f"item {self.id}: options repeat: {self.options}")
        if not 0 <= self.answer < len(self.options):
            raise DataFileError(f"item {self.id}: answer {self.answer} is not an option index")

    @property
    def answer_letter(self) -> str:
        """The right option's letter."""
        return LETTERS[self.answer]


def _answer_at(match: re.Match[str], options: Sequence[str]) -> str | None:
    """The letter of one answer, ``""`` when it is no answer, ``None`` when it is invalid."""
    letter = match.group("letter").upper()
    rest = match.group("rest")
    closed = _LETTER_CLOSE.match(rest)
    assert closed is not None  # every part of the pattern is optional
    if _HEDGE.match(rest, closed.end()) or _second_answer(letter, rest, options):
        return None
    after = rest[closed.end() :]
    spelled = reading.spelled_option(after, options)
    if spelled is not None:
        return letter if spelled == LETTERS.index(letter) else None
    if after[:1].isalnum() and not closed.group().strip():
        return ""
    return letter if LETTERS.index(letter) < len(options) else None


def _second_answer(letter: str, rest: str, options: Sequence[str]) -> bool:
    """Whether what follows an answer's letter offers or puts another answer."""
    letters = LETTERS[: len(options)]
    return (
        reading.afterthought(rest, letter, letters)
        or bool(_RETRACTED.match(rest))
        or any(other.upper() != letter for other in _OTHER_OPTION.findall(rest))
    )


def _is_option_line(opening: re.Match[str], options: Sequence[str]) -> bool:
    """Whether a reply opens with a letter alone or with an option's own text ("A) Yes")."""
    rest = opening.group("rest")
    after = rest[_LETTER_CLOSE.match(rest).end() :]  # type: ignore[union-attr]
    return not reading.words(after) or reading.spelled_option(after, options) is not None


def parse_choice_letter(text: str, options: Sequence[str]) -> str | None:
    """The option letter a reply picks, or ``None`` (invalid, scored wrong; docs/static.md)."""
    text = reading.normalize(text)
    answers = {_answer_at(match, options) for match in _ANSWER_LINE.finditer(text)} - {""}
    opening = _LEADING_LETTER.match(text)
    listed = len(_OPTION_LINE.findall(text)) > 1  # the options echoed, not an answer
    if answers and opening and not listed and _is_option_line(opening, options):
        answers.add(_answer_at(opening, options))  # "A) Yes ... The answer is B": two
    if answers:
        return answers.pop() if len(answers) == 1 else None
    if opening is None or listed:
        return None
    return _answer_at(opening, options) or None


def shuffle_options(
    rng: random.Random, options: Sequence[str], answer: int
) -> tuple[tuple[str, ...], int]:
    """Put ``options`` in a random order; return them and the right option's new index."""
    order = rng.sample(range(len(options)), len(options))
    return tuple(options[position] for position in order), order.index(answer)
