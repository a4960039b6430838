"""Grading free-text blackjack beliefs by a judge model, as the authors ran Blackjack."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from importlib import resources
from typing import Any, Literal

from cog_tasks.common import reading
from cog_tasks.common.files import package_json
from cog_tasks.egosocial.blackjack import BeliefFacts, BlackjackHand, card_words

BeliefType = Literal["self_belief", "external_belief"]
BELIEF_TYPES: tuple[BeliefType, ...] = ("self_belief", "external_belief")

#: A belief label: ``Self-Belief``, ``external belief``, ``**Self-Belief:**``, a JSON key, any
#: case, then what separates it from the belief (``is``, a colon, ``=`` or a dash), perhaps nothing.
_LABEL = re.compile(
    r"\b(?P<kind>self|external)[ _\-\u2013]?beliefs?\b[*_\"']*"
    r"(?P<separator>[ \t]*(?:is\b[ \t]*:?|[:=\u2013\u2014]|-(?=\s)))?[ \t]*[*_]*[ \t]*",
    re.IGNORECASE,
)
#: What may stand before a label that is a heading alone on its line (``### ``, ``- ``, ``1. ``).
_HEADING_PREFIX = re.compile(r"[#>*_\-\d.\s]*")
#: One grade: ``GRADE: C``, ``**GRADE:** c``, ``Grade: *Incorrect*``, ... followed by the end of
#: its line or punctuation, so that ``GRADE: I think`` and a quoted ``'GRADE: C' if ...`` are none.
_GRADE = re.compile(
    reading.label("grade") + r"[`\[(]*[ \t]*(?P<grade>correct|incorrect|c|i)"
    r"[*_`\])]*(?=[ \t]*(?:$|[.,;!(\u2013\u2014-]))",
    re.IGNORECASE | re.MULTILINE,
)
#: The line added to the judge's prompt when it is asked again for a grade.
GRADE_REMINDER = "Reminder: end your reply with one line, exactly 'GRADE: C' or 'GRADE: I'."

#: The judge's prompt (``template``) and its rubric for each belief type (``rubrics``).
_JUDGE = package_json("cog_tasks.egosocial", "belief_judge.json")
RUBRICS: dict[BeliefType, str] = _JUDGE["rubrics"]
JUDGE_TEMPLATE: str = _JUDGE["template"]


@dataclass(frozen=True)
class BeliefReading:
    """What a reply states for one kind of belief, or why nothing (``problem``)."""

    text: str | None
    problem: str | None = None


def _opens_belief(reply: str, label: re.Match[str]) -> bool:
    """Whether a label introduces a belief: braces or a separator follow, or it is a heading."""
    if reply.startswith("{", label.end()) or label.group("separator"):
        return True
    line_start = reply.rfind("\n", 0, label.start()) + 1
    line_end = reply.find("\n", label.end())
    rest = reply[label.end() : line_end if line_end >= 0 else len(reply)]
    return not rest.strip() and bool(_HEADING_PREFIX.fullmatch(reply[line_start : label.start()]))


def _unbraced_end(reply: str, start: int, next_label: int) -> int:
    """Where a belief without braces ends: before the next label's line prefix (``### ``)."""
    line_start = reply.rfind("\n", start, next_label) + 1
    if line_start > start and _HEADING_PREFIX.fullmatch(reply[line_start:next_label]):
        return line_start
    return next_label


def _closing_brace(reply: str, start: int) -> int:
    """The index of the brace that closes the one at ``start`` (nested braces kept), or -1."""
    depth = 0
    for index in range(start, len(reply)):
        depth += {"{": 1, "}": -1}.get(reply[index], 0)
        if depth == 0:
            return index
    return -1


def labelled_beliefs(reply: str) -> list[tuple[BeliefType, str, bool]]:
    """Every labelled belief of a reply, in order, as (kind, text, braced)."""
    labels = [label for label in _LABEL.finditer(reply) if _opens_belief(reply, label)]
    found: list[tuple[BeliefType, str]] = []
    consumed = 0
    for index, label in enumerate(labels):
        if label.start() < consumed:
            continue
        start = label.end()
        close = _closing_brace(reply, start) if reply.startswith("{", start) else -1
        if close >= 0:
            text, consumed = reply[start + 1 : close], close + 1
        else:
            later = [other.start() for other in labels[index + 1 :]]
            consumed = _unbraced_end(reply, start, later[0]) if later else len(reply)
            text = reply[start:consumed]
        kind: BeliefType = f"{label.group('kind').lower()}_belief"  # type: ignore[assignment]
        found.append((kind, text.strip(" \n\t.,;{}*_#`\"'"), close >= 0))
    return found


def read_beliefs(reply: str, prompt: str = "") -> dict[BeliefType, BeliefReading]:
    """The Self-Belief and External-Belief of a reply, without echoes of ``prompt``."""
    readings: dict[BeliefType, BeliefReading] = {}
    labelled = labelled_beliefs(reply)
    for belief_type in BELIEF_TYPES:
        mine = [(text, braced) for kind, text, braced in labelled if kind == belief_type]
        # The asked form is braced: where a kind has a braced belief, unbraced ones
        # (an instruction paraphrased before the answer) are not read.
        texts = [text for text, braced in mine if braced or not any(b for _, b in mine)]
        stated = [text for text in texts if not is_echo(text, prompt)]
        distinct = {reading.words(text) for text in stated}
        if len(distinct) == 1:
            readings[belief_type] = BeliefReading(stated[0])
        elif distinct:
            readings[belief_type] = BeliefReading(None, "two different")
        else:
            readings[belief_type] = BeliefReading(None, "echo" if texts else "not stated")
    return readings


def split_beliefs(reply: str, prompt: str = "") -> dict[BeliefType, str | None]:
    """The Self-Belief and External-Belief texts of a reply (``None`` when there is none)."""
    return {kind: reading.text for kind, reading in read_beliefs(reply, prompt).items()}


def is_echo(belief: str, prompt: str) -> bool:
    """Whether a belief only repeats the prompt (its words, in order, are all in the prompt)."""
    words = reading.words(belief)
    return not words or f" {words} " in f" {reading.words(prompt)} "


def judge_prompt(belief_type: BeliefType, situation: str, facts: BeliefFacts, belief: str) -> str:
    """The judge's prompt for one belief in its ``situation`` (the authors' user message)."""
    facts_text = facts.self_text() if belief_type == "self_belief" else facts.external_text()
    return JUDGE_TEMPLATE.format(
        situation=situation,
        facts=facts_text,
        rubric=RUBRICS[belief_type],
        belief_name="Self-Belief" if belief_type == "self_belief" else "External-Belief",
        belief=belief,
    )


def parse_grade(judge_reply: str) -> bool | None:
    """``True`` for a reply grading C (correct), ``False`` for I (incorrect), else ``None``."""
    judge_reply = reading.normalize(judge_reply)
    grades = {match.group("grade")[0].upper() for match in _GRADE.finditer(judge_reply)}
    return grades == {"C"} if len(grades) == 1 else None


#: Dealer bust chances at or above this are a weak up-card, at or below
#: :data:`STRONG_BELOW` a strong one, as the labelled set reads the rubric.
WEAK_FROM, STRONG_BELOW = 0.35, 0.27
LABELS_FILE = "judge_labels.json"


@dataclass(frozen=True)
class LabelledBelief:
    """A belief statement labelled by hand (``correct``; ``kind`` right, wrong or borderline)."""

    id: str
    hand: BlackjackHand
    belief_type: BeliefType
    belief: str
    correct: bool
    kind: str
    facts: dict[str, Any]

    def situation(self) -> str:
        """The situation as the authors' prompts show it (cards in words)."""
        cards = ", ".join(card_words(card) for card in self.hand.player)
        return (
            f"You are a player in blackjack. The dealer's face-up card is "
            f"{card_words(self.hand.dealer_up)}; the dealer has another hidden card. "
            f"Your cards are {cards}."
        )


def load_labelled_beliefs() -> list[LabelledBelief]:
    """The hand-labelled belief statements shipped with the package (35 of them)."""
    text = resources.files("cog_tasks.egosocial").joinpath(LABELS_FILE).read_text("utf-8")
    return [
        LabelledBelief(
            id=row["id"],
            hand=BlackjackHand(player=tuple(row["player"]), dealer_up=row["dealer_up"]),
            belief_type=row["type"],
            belief=row["belief"],
            correct=row["label"] == "C",
            kind=row["kind"],
            facts=row["facts"],
        )
        for row in json.loads(text)["statements"]
    ]


def label_facts(facts: BeliefFacts, belief_type: BeliefType) -> dict[str, Any]:
    """The computed facts in the labelled set's terms, to compare with each label's facts."""
    if belief_type == "self_belief":
        return {"total": facts.total, "bust": facts.bust, "move": facts.move}
    if facts.dealer_bust >= WEAK_FROM:
        position = "weak"
    elif facts.dealer_bust <= STRONG_BELOW:
        position = "strong"
    else:
        position = "middle"
    return {"dealer_up_value": facts.dealer_up_value, "dealer_position": position}
