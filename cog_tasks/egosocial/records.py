"""Static EgoSocialArena items: the multiple-choice record and the reply parser.

Every static scenario (Daily Life, Counterfactual, New World, Blackjack) yields
:class:`EgoItem` objects: a first-person system message, a story, a question,
lettered options and the index of the right one, tagged with a scenario and an
ability label. Labels are free text in the authors' vocabulary (``Belief``,
``Emotion``, ``Intention``, ``Desire``, ``Knowledge``, ``Non-li``, or a
scenario's own label such as ``Counterfactual``); accuracy is reported per
label. Generated items also carry the paper's perspective: higher-order beliefs
and beliefs of *other* people are theory of mind (``tom``), questions about the
model's own state after the events are ``socialization``, and reality and
memory questions are ``control``. The authors' records do not say, so theirs
have no perspective.
"""

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
    "daily_life": "Daily Life",
    "counterfactual": "Counterfactual",
    "new_world": "New World",
    "blackjack": "Blackjack",
}
LETTERS = "ABCDEFGHIJ"

FIRST_PERSON_SYSTEM = (
    "Everything described below happened to you, and you were there yourself. "
    "Answer every question as yourself, from your own point of view."
)

#: A formal answer: ``ANSWER: B``, ``**Answer:** (c)``, ``the answer is D``; the letter in any
#: case, and ``rest``, what follows it on its line.
_ANSWER_LINE = re.compile(
    r"\banswer[*_]*[ \t]*(?:is\b[ \t]*:?|[:=])[ \t]*[*_]*[ \t]*[(\[]?[ \t]*"
    r"(?P<letter>[A-Ja-j])\b(?=(?P<rest>[^\n]*))",
    re.IGNORECASE,
)
#: A reply that opens with a letter: ``B``, ``B)``, ``(B)``, ``B.``, ``B:``, ``**B**``.
_LEADING_LETTER = re.compile(r"^\s*[*_]*\(?(?P<letter>[A-J])\b(?P<rest>[^\n]*)")
#: What may close a letter before the rest of its line: ``)``, ``]``, ``.``, ``:``, emphasis.
_LETTER_CLOSE = re.compile(r"[ \t]*[*_)\].:]*[*_]*")
#: A second letter after the first: ``A or B``, ``B) or C)``, ``A, B``, ``A/B``, ``A and C``.
_HEDGE = re.compile(r"[ \t]*(?:or|and|,|/|&|\+)[ \t]*[*_(\[]*[A-J]\b(?!'|[ \t]+[a-z])")
#: An option line, as the prompt lists them (``B) text``): two in a reply are an echoed list.
#: A second option in the options' own format on an answer's line: "A) Carrot or B) Coat".
_OTHER_OPTION = re.compile(r"(?<![A-Za-z])\(?([A-J])\)")
#: An answer's letter retracted right after it: "A) is wrong".
_RETRACTED = re.compile(r"[ \t*_)\].:]*(?:is|was|seems)[ \t]+(?:wrong|incorrect|not)\b", re.I)
_OPTION_LINE = re.compile(r"^[ \t]*\(?[A-J][).:][ \t]+\S", re.MULTILINE)


@dataclass(frozen=True)
class EgoItem:
    """One multiple-choice item told in the first person.

    Attributes:
        id: Stable identifier (scenario, seed and position, or file and line).
        scenario: Which static scenario it belongs to.
        label: Ability label (``Belief``, ``Emotion``, ..., or a scenario label).
        system: System message that places the model in the story.
        story: The events, in the second person ("you").
        question: The question, in the second person.
        options: Answer options; options about the model use "I".
        answer: Index of the right option.
        perspective: ``tom``, ``socialization`` or ``control``; ``None`` when
            the source does not say (the authors' records).
        metadata: Extra tags (question type, true/false belief, ...).
    """

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


def normalised_words(text: str) -> str:
    """The words of ``text`` in lower case, one space apart, without punctuation."""
    return " ".join(re.sub(r"[^a-z0-9]+", " ", text.lower()).split())


def _answer_at(match: re.Match[str], options: Sequence[str]) -> str | None:
    """The letter of one answer, ``""`` when it is no answer, ``None`` when it is invalid.

    No answer: the letter runs on into words that are not an option's text
    ("Answer: I think ...", "answer: a coat"). Invalid: it names a second
    letter ("A or B"), a letter beyond the options, or the text of another
    option than its letter's.
    """
    letter = match.group("letter").upper()
    rest = match.group("rest")
    closed = _LETTER_CLOSE.match(rest)
    assert closed is not None  # every part of the pattern is optional
    if _HEDGE.match(rest, closed.end()) or _second_answer(letter, rest, options):
        return None
    after = rest[closed.end() :]
    text = normalised_words(after)
    named = [index for index, option in enumerate(options) if text == normalised_words(option)]
    if text and named:
        return letter if LETTERS[named[0]] == letter else None
    if after[:1].isalnum() and not closed.group().strip():
        return ""
    return letter if LETTERS.index(letter) < len(options) else None


def _second_answer(letter: str, rest: str, options: Sequence[str]) -> bool:
    """Whether what follows an answer's letter offers or puts another answer (the reading policy).

    A hedge or self-correction naming another letter ("A. No wait, B.", "A. On
    reflection the answer is B"), a retraction of the letter ("A) is wrong"),
    or another option written as ``B)`` on its line ("A) Carrot or B) Coat").
    """
    letters = LETTERS[: len(options)]
    return (
        reading.afterthought(rest, letter, letters)
        or bool(_RETRACTED.match(rest))
        or any(other.upper() != letter for other in _OTHER_OPTION.findall(rest))
    )


def parse_choice_letter(text: str, options: Sequence[str]) -> str | None:
    """The option letter a reply picks, or ``None`` (invalid, scored wrong).

    Read, in this order:

    - formal answers (``ANSWER: B``, ``Answer: **c**``, ``answer: d``, "the
      answer is B"): all must name the same option, else the reply is invalid;
      they win over letters elsewhere ("I would not answer A. ANSWER: B" is B);
    - otherwise a reply that opens with the letter (``B``, ``B)``, ``(B)``,
      ``B.``, ``B:``, the letter alone on the first line), unless the reply
      echoes the option list (two option lines).

    The reply is read in :func:`cog_tasks.common.reading.normalize`'s
    spelling, and by its policy: every formal answer counts, also several on
    one line ("The answer is A, but the final answer is B" is invalid), and
    an answer followed by a hedge or self-correction naming another letter
    ("A. No wait, B.", "ANSWER: A. On reflection the answer is B."), by its
    own retraction ("A) is wrong; B) is right.") or by another option written
    as ``B)`` ("Answer: A) Carrot or B) Coat") is invalid.

    Never read: a letter inside prose ("A good question", "Answer: I think
    ..."); a reply naming two options ("Answer: A or B", "B) or C)"), a letter
    beyond the options, or a letter whose option text on the same line is
    another option's ("B) Coat" when B is "Carrot") are invalid.

    Args:
        text: The model's reply.
        options: The options in the order they were shown.
    """
    text = reading.normalize(text)
    answers = {_answer_at(match, options) for match in _ANSWER_LINE.finditer(text)} - {""}
    if answers:
        return answers.pop() if len(answers) == 1 else None
    opening = _LEADING_LETTER.match(text)
    if opening is None or len(_OPTION_LINE.findall(text)) > 1:
        return None
    return _answer_at(opening, options) or None


def shuffle_options(
    rng: random.Random, options: Sequence[str], answer: int
) -> tuple[tuple[str, ...], int]:
    """Put ``options`` in a random order and follow the right answer.

    Args:
        rng: The generator's random source.
        options: The options, right one at ``answer``.
        answer: Index of the right option before shuffling.

    Returns:
        The shuffled options and the right option's new index.
    """
    order = rng.sample(range(len(options)), len(options))
    return tuple(options[position] for position in order), order.index(answer)
