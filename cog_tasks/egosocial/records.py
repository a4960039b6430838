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

#: ``ANSWER: B``; the pronoun in "Answer: I think..." is not the letter I.
_ANSWER_LINE = re.compile(r"(?i:answer)\s*(?:(?i:is)\s*)?[:=]?\s*\(?([A-J])\b(?!(?<=I)\s+[a-z'])")
#: A reply that opens with the letter alone on its line, or with ``B)``, ``(B)``, ``B.``, ``B:``.
_LEADING_LETTER = re.compile(r"^\s*\(?([A-J])(?:[\).:]|[ \t]*(?:\n|$))")


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
            raise ValueError(f"item {self.id}: unknown scenario {self.scenario!r}")
        if not self.label.strip():
            raise ValueError(f"item {self.id}: empty ability label")
        if self.perspective is not None and self.perspective not in PERSPECTIVES:
            raise ValueError(f"item {self.id}: unknown perspective {self.perspective!r}")
        if not 2 <= len(self.options) <= len(LETTERS):
            raise ValueError(f"item {self.id}: needs 2 to {len(LETTERS)} options")
        if len(set(self.options)) != len(self.options):
            raise ValueError(f"item {self.id}: options repeat: {self.options}")
        if not 0 <= self.answer < len(self.options):
            raise ValueError(f"item {self.id}: answer {self.answer} is not an option index")

    @property
    def answer_letter(self) -> str:
        """The right option's letter."""
        return LETTERS[self.answer]


def parse_choice_letter(text: str, option_count: int) -> str | None:
    """The option letter a reply picks, or ``None``.

    Accepted: ``ANSWER: B`` anywhere, or a reply that opens with the letter
    (``B``, ``B)``, ``(B)``, ``B.``, ``B:``, or the letter alone on the first
    line), as small models often echo the option line. A letter beyond the
    options counts as no answer, and so does the pronoun of ``Answer: I think``.

    Args:
        text: The model's reply.
        option_count: Number of options offered.
    """
    match = _ANSWER_LINE.search(text) or _LEADING_LETTER.match(text)
    if match is None or LETTERS.index(match.group(1).upper()) >= option_count:
        return None
    return match.group(1).upper()


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
