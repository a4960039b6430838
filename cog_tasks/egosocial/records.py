"""Static EgoSocialArena items and the loader for the authors' record format.

Every static scenario (Daily Life, Counterfactual, New World, Blackjack) yields
:class:`EgoItem` objects: a first-person system message, a story, a question,
lettered options and the index of the right one, tagged with a scenario and an
ability. Abilities follow the paper: higher-order belief questions and beliefs
about *other* people are theory of mind (``tom``); questions about the model's
own state after the events are ``socialization``. Reality and memory questions
are kept as ``control`` items so they never inflate either ability.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

Scenario = Literal["daily_life", "counterfactual", "new_world", "blackjack"]
Ability = Literal["tom", "socialization", "control"]
SCENARIOS: tuple[Scenario, ...] = ("daily_life", "counterfactual", "new_world", "blackjack")
ABILITIES: tuple[Ability, ...] = ("tom", "socialization", "control")
LETTERS = "ABCDEFGHIJ"

FIRST_PERSON_SYSTEM = (
    "Everything described below happened to you, and you were there yourself. "
    "Answer every question as yourself, from your own point of view."
)

_ABILITY_NAMES: dict[str, Ability] = {
    "tom": "tom",
    "theory of mind": "tom",
    "socialization": "socialization",
    "socialisation": "socialization",
    "control": "control",
}
_ANSWER_LINE = re.compile(r"(?i:answer)\s*(?:(?i:is)\s*)?[:=]?\s*\(?([A-J])\b")
_LEADING_LETTER = re.compile(r"^\s*\(?([A-J])(?:[\).:]|\s*$)")
_OPTION_LINE = re.compile(r"^\s*\(?([A-J])[\).:]\s*(.+?)\s*$")
_ANSWER_LETTER = re.compile(r"^\s*\(?([A-J])\)?[\.:]?\s*$")


@dataclass(frozen=True)
class EgoItem:
    """One multiple-choice item told in the first person.

    Attributes:
        id: Stable identifier (scenario, seed and position, or file and row).
        scenario: Which static scenario produced it.
        ability: ``tom``, ``socialization`` or ``control``.
        system: System message that places the model in the story.
        story: The events, in the second person ("you").
        question: The question, in the second person.
        options: Answer options; options about the model use "I".
        answer: Index of the right option.
        metadata: Extra tags (question type, true/false belief, ...).
    """

    id: str
    scenario: Scenario
    ability: Ability
    system: str
    story: str
    question: str
    options: tuple[str, ...]
    answer: int
    metadata: Mapping[str, str | int | bool] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.scenario not in SCENARIOS:
            raise ValueError(f"item {self.id}: unknown scenario {self.scenario!r}")
        if self.ability not in ABILITIES:
            raise ValueError(f"item {self.id}: unknown ability {self.ability!r}")
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
    (``B``, ``B)``, ``(B)``, ``B.``, ``B:``), as small models often echo the
    option line. A letter beyond the options counts as no answer.

    Args:
        text: The model's reply.
        option_count: Number of options offered.
    """
    match = _ANSWER_LINE.search(text) or _LEADING_LETTER.match(text)
    if match is None or LETTERS.index(match.group(1).upper()) >= option_count:
        return None
    return match.group(1).upper()


def normalize_ability(value: str, where: str) -> Ability:
    """Map an ability label (``ToM``, ``Socialization``, ...) to :data:`Ability`.

    Raises:
        ValueError: Naming ``where`` for an unknown label.
    """
    key = " ".join(str(value).lower().replace("_", " ").split())
    if key not in _ABILITY_NAMES:
        raise ValueError(f"{where}: unknown Ability {value!r}; expected one of {ABILITIES}")
    return _ABILITY_NAMES[key]


def _parse_options(value: Any, where: str) -> tuple[str, ...]:
    if isinstance(value, Mapping):
        return tuple(str(value[key]).strip() for key in sorted(value))
    if isinstance(value, list | tuple):
        return tuple(_OPTION_LINE.sub(r"\2", str(option)).strip() for option in value)
    if isinstance(value, str):
        lines = [_OPTION_LINE.match(line) for line in value.splitlines() if line.strip()]
        if lines and all(lines):
            return tuple(match.group(2) for match in lines if match)
    raise ValueError(f"{where}: Option must be a list, a letter->text mapping or 'A. ...' lines")


def _parse_answer(value: Any, options: tuple[str, ...], where: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        index = value
    elif isinstance(value, str) and (letter := _ANSWER_LETTER.match(value)):
        index = LETTERS.index(letter.group(1))
    elif isinstance(value, str) and value.strip() in options:
        index = options.index(value.strip())
    else:
        raise ValueError(f"{where}: Answer {value!r} is neither a letter, an index nor an option")
    if not 0 <= index < len(options):
        raise ValueError(f"{where}: Answer {value!r} points past the {len(options)} options")
    return index


def _read_rows(path: Path) -> list[Any]:
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".jsonl":
        rows = []
        for number, line in enumerate(text.splitlines(), start=1):
            if line.strip():
                try:
                    rows.append(json.loads(line))
                except json.JSONDecodeError as error:
                    raise ValueError(f"{path}:{number}: invalid JSON ({error.msg})") from None
        return rows
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"{path}: invalid JSON at line {error.lineno} ({error.msg})") from None
    if not isinstance(data, list):
        raise ValueError(f"{path}: expected a JSON list of records")
    return data


def load_authors_records(
    path: str | Path, scenario: Scenario = "daily_life", system: str = FIRST_PERSON_SYSTEM
) -> list[EgoItem]:
    """Load records in the authors' format.

    Each record has the fields ``Story``, ``Question``, ``Answer``, ``Option``
    and ``Ability``.

    The file is a JSON list or JSON Lines. ``Option`` may be a list, a mapping
    from letters to texts, or ``"A. ..."`` lines; ``Answer`` may be a letter,
    a 0-based index or the option text.

    Args:
        path: The file.
        scenario: Scenario to tag the items with.
        system: System message for every item.

    Returns:
        One item per record, with ids ``<file stem>-<row>``.

    Raises:
        ValueError: Naming the file and row of a malformed record.
    """
    path = Path(path)
    items = []
    for row, record in enumerate(_read_rows(path)):
        where = f"{path}, record {row}"
        if not isinstance(record, Mapping):
            raise ValueError(f"{where}: expected an object")
        missing = [
            key for key in ("Story", "Question", "Answer", "Option", "Ability") if key not in record
        ]
        if missing:
            raise ValueError(f"{where}: missing field(s) {', '.join(missing)}")
        options = _parse_options(record["Option"], where)
        ability = normalize_ability(record["Ability"], where)
        answer = _parse_answer(record["Answer"], options, where)
        try:
            item = EgoItem(
                id=f"{path.stem}-{row:05d}",
                scenario=scenario,
                ability=ability,
                system=system,
                story=str(record["Story"]).strip(),
                question=str(record["Question"]).strip(),
                options=options,
                answer=answer,
                metadata={"source": path.name, "ability_label": str(record["Ability"])},
            )
        except ValueError as error:
            raise ValueError(f"{where}: {error}") from None
        items.append(item)
    return items
