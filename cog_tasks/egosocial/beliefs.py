"""Grading free-text blackjack beliefs, as the authors ran Blackjack.

The authors asked the model for a ``Self-Belief`` (its own cards and plan) and
an ``External-Belief`` (the dealer's cards) and had the answers judged. Here a
judge model grades each belief against facts computed from the cards
(:func:`cog_tasks.egosocial.blackjack.belief_facts`) with the rubric below,
written for this project, and ends its reply with ``GRADE: C`` or
``GRADE: I``. A belief the reply does not state, or states only by copying
the prompt (an echoed ``{belief about yourself}`` template), is wrong without
asking the judge; a judge reply without a grade is asked again once, then
counts as wrong and is reported (``judge_unparsed_rate``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from importlib import resources
from typing import Any, Literal

from cog_tasks.egosocial.blackjack import BeliefFacts, BlackjackHand, card_words

BeliefType = Literal["self_belief", "external_belief"]
BELIEF_TYPES: tuple[BeliefType, ...] = ("self_belief", "external_belief")

_SELF = re.compile(
    r"self[\s-]*belief\s*(?:is|:)?\s*(?P<text>.*?)(?=external[\s-]*belief|$)",
    re.IGNORECASE | re.DOTALL,
)
_EXTERNAL = re.compile(
    r"external[\s-]*belief\s*(?:is|:)?\s*(?P<text>.*)", re.IGNORECASE | re.DOTALL
)
_GRADE = re.compile(r"GRADE\s*:\s*([CI])\b")

RUBRICS: dict[BeliefType, str] = {
    "self_belief": (
        "A Self-Belief is CORRECT when all of these hold:\n"
        "1. It states the player's total as in the facts. For a soft total, naming both "
        "counts (for example '8 or 18') is fine as long as the higher count is understood "
        "as the playing total.\n"
        "2. It does not contradict whether the player is bust.\n"
        "3. If the player is not bust, its plan (hit or stand) agrees with the basic-strategy "
        "move in the facts, or it explains a different plan with a bust risk that agrees "
        "with the facts (high when the facts give a high chance, low when low).\n"
        "4. It makes no false claim about the player's cards.\n"
        "Otherwise it is INCORRECT. A vague belief that states no total is INCORRECT."
    ),
    "external_belief": (
        "An External-Belief is CORRECT when all of these hold:\n"
        "1. It names the dealer's face-up card or its value as in the facts.\n"
        "2. It treats the hidden card as unknown (guessing a likely value is fine, claiming "
        "to know it is not).\n"
        "3. Its judgement of the dealer's position agrees with the dealer's bust chance in "
        "the facts: around 35% or more means a weak up-card likely to bust, around 25% or "
        "less means a strong up-card unlikely to bust; in between either view is fine if "
        "it is hedged.\n"
        "4. It makes no false claim about the rules the dealer follows.\n"
        "Otherwise it is INCORRECT. A belief that says nothing about the dealer's cards is "
        "INCORRECT."
    ),
}

JUDGE_TEMPLATE = """You are grading one belief that a player wrote during a game of blackjack.

The situation the player was shown:
[BEGIN SITUATION]
{situation}
[END SITUATION]

Facts computed from the cards with the game's rules:
{facts}

Rubric:
{rubric}

The player's {belief_name}:
[BEGIN BELIEF]
{belief}
[END BELIEF]

Compare the belief with the facts using the rubric. Explain your reasoning in a few sentences,
then end with exactly one line 'GRADE: C' if the belief is correct or 'GRADE: I' if it is not."""


def split_beliefs(reply: str) -> dict[BeliefType, str | None]:
    """The Self-Belief and External-Belief texts of a reply (``None`` when absent or empty)."""
    found: dict[BeliefType, str | None] = {}
    for belief_type, pattern in (("self_belief", _SELF), ("external_belief", _EXTERNAL)):
        match = pattern.search(reply)
        text = match.group("text").strip(" \n\t.{}") if match else ""
        found[belief_type] = text or None
    return found


def _normalised(text: str) -> str:
    return " ".join(re.sub(r"[^a-z0-9]+", " ", text.lower()).split())


def is_echo(belief: str, prompt: str) -> bool:
    """Whether a belief only repeats the prompt (its words, in order, are all in the prompt).

    ``{belief about yourself}``, the authors' output template, is an echo; so
    is any sentence copied from the situation.
    """
    words = _normalised(belief)
    return not words or f" {words} " in f" {_normalised(prompt)} "


def stated_beliefs(reply: str, prompt: str) -> dict[BeliefType, str | None]:
    """:func:`split_beliefs`, with echoed templates and copied prompt text counted as not stated."""
    return {
        belief_type: None if text is None or is_echo(text, prompt) else text
        for belief_type, text in split_beliefs(reply).items()
    }


def judge_prompt(belief_type: BeliefType, situation: str, facts: BeliefFacts, belief: str) -> str:
    """The judge's prompt for one belief.

    Args:
        belief_type: ``self_belief`` or ``external_belief``.
        situation: What the player was shown (the authors' user message).
        facts: The facts of the situation.
        belief: The belief text to grade.
    """
    facts_text = facts.self_text() if belief_type == "self_belief" else facts.external_text()
    return JUDGE_TEMPLATE.format(
        situation=situation,
        facts=facts_text,
        rubric=RUBRICS[belief_type],
        belief_name="Self-Belief" if belief_type == "self_belief" else "External-Belief",
        belief=belief,
    )


def parse_grade(judge_reply: str) -> bool | None:
    """``True`` for ``GRADE: C``, ``False`` for ``GRADE: I`` (the last one wins), else ``None``."""
    grades = _GRADE.findall(judge_reply)
    return grades[-1] == "C" if grades else None


#: Dealer bust chances at or above this are a weak up-card, at or below
#: :data:`STRONG_BELOW` a strong one, as the labelled set reads the rubric.
WEAK_FROM, STRONG_BELOW = 0.35, 0.27
LABELS_FILE = "judge_labels.json"


@dataclass(frozen=True)
class LabelledBelief:
    """A belief statement labelled by hand, for measuring a judge.

    Attributes:
        id: ``belief-NN``.
        hand: The situation.
        belief_type: ``self_belief`` or ``external_belief``.
        belief: The statement.
        correct: The hand label (correct under the rubric, or not).
        kind: ``right``, ``wrong`` or ``borderline``.
        facts: The facts the label relies on (total, bust, move; or the
            dealer's up-card value and position).
    """

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
