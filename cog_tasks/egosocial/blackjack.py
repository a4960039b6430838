"""Blackjack: hands dealt by rlcard, questions and belief facts checked by rlcard's rules."""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from cog_tasks.common.files import DataFileError
from cog_tasks.egosocial.cards import SUIT_WORDS, card_words, cards_words
from cog_tasks.egosocial.records import EgoItem, shuffle_options

RANK_VALUES = {"A": 11, "T": 10, "J": 10, "Q": 10, "K": 10} | {str(n): n for n in range(2, 10)}
PROBABILITY_BANDS = ("below 25%", "from 25% to 50%", "from 50% to 75%", "75% or more")

SYSTEM = (
    "You are sitting at a blackjack table, playing against the dealer. Aces count 1 or 11, "
    "face cards count 10, and a total above 21 is bust. You may only hit or stand, and the "
    "dealer draws until reaching at least 17. Answer as the player."
)


def hand_value(ranks: list[str] | tuple[str, ...]) -> tuple[int, bool]:
    """The blackjack total of some ranks by rlcard's judger, and whether it is soft."""
    from rlcard.games.base import Card
    from rlcard.games.blackjack.judger import BlackjackJudger

    total = BlackjackJudger(None).judge_score([Card("S", rank) for rank in ranks])
    hard = sum(1 if rank == "A" else RANK_VALUES[rank] for rank in ranks)
    return total, total != hard


def basic_strategy(ranks: list[str], dealer_up: str) -> str:
    """Hit/stand basic strategy (no doubling or splitting), dealer stands on all 17s."""
    total, soft = hand_value(ranks)
    up = RANK_VALUES[dealer_up]
    if soft:
        if total >= 19:
            return "stand"
        if total == 18:
            return "stand" if up <= 8 else "hit"
        return "hit"
    if total >= 17:
        return "stand"
    if total >= 13:
        return "stand" if up <= 6 else "hit"
    if total == 12:
        return "stand" if 4 <= up <= 6 else "hit"
    return "hit"


def unseen_ranks(visible: list[str]) -> Counter[str]:
    """Ranks left in one 52-card deck after removing the visible cards."""
    deck = Counter({rank: 4 for rank in RANK_VALUES})
    deck.subtract(visible)
    return deck


def dealer_reaches_17(dealer_up: str, visible: list[str]) -> Fraction:
    """Exact chance that the dealer's hidden card brings two cards to 17 or more."""
    deck = unseen_ranks(visible)
    good = sum(count for rank, count in deck.items() if hand_value([dealer_up, rank])[0] >= 17)
    return Fraction(good, sum(deck.values()))


def probability_band(probability: Fraction) -> int:
    """Index into :data:`PROBABILITY_BANDS` (bands are closed below, open above)."""
    return min(int(probability * 4), len(PROBABILITY_BANDS) - 1)


def dealer_bust_probability(dealer_up: str, visible: list[str]) -> Fraction:
    """Exact chance that the dealer busts, drawing while below 17, given every visible rank."""
    deck = unseen_ranks(visible)
    return _bust_from((dealer_up,), tuple(sorted(deck.items())))


@cache
def _bust_from(hand: tuple[str, ...], deck: tuple[tuple[str, int], ...]) -> Fraction:
    total, _ = hand_value(hand)
    if total > 21:
        return Fraction(1)
    if total >= 17:
        return Fraction(0)
    remaining = sum(count for _, count in deck)
    chance = Fraction(0)
    for rank, count in deck:
        if count:
            rest = tuple((r, c - (r == rank)) for r, c in deck)
            chance += Fraction(count, remaining) * _bust_from(tuple(sorted((*hand, rank))), rest)
    return chance


def bust_risk(ranks: list[str], dealer_up: str) -> Fraction:
    """Exact chance that one more card takes the player over 21."""
    deck = unseen_ranks([*ranks, dealer_up])
    busting = sum(count for rank, count in deck.items() if hand_value([*ranks, rank])[0] > 21)
    return Fraction(busting, sum(deck.values()))


_SUITS_BY_NAME = {word.removesuffix("s"): letter for letter, word in SUIT_WORDS.items()}
_RANKS_BY_NAME = {"10": "T", **{rank: rank for rank in "A23456789JQK"}}
_DEALER_CARD = re.compile(r"dealer current card is \{([^}]*)\}", re.IGNORECASE)
_PLAYER_CARDS = re.compile(r"Your current cards are \{([^}]*)\}", re.IGNORECASE)


def _prompt_card(text: str, where: str) -> str:
    suit, _, rank = text.strip().partition(" ")
    letter, value = _SUITS_BY_NAME.get(suit.lower()), _RANKS_BY_NAME.get(rank.strip().upper())
    if letter is None or value is None:
        raise DataFileError(f"{where}: cannot read the card {text.strip()!r}")
    return letter + value


def parse_prompt_cards(user: str, where: str) -> BlackjackHand:
    """Read the cards of an authors' prompt (``{Spade 2, Club A}``); errors name ``where``."""
    dealer, player = _DEALER_CARD.search(user), _PLAYER_CARDS.search(user)
    if dealer is None or player is None:
        raise DataFileError(f"{where}: no '{{...}}' dealer card and player cards in the prompt")
    cards = [part for part in player.group(1).split(",") if part.strip()]
    if not cards:
        raise DataFileError(f"{where}: the player holds no cards")
    return BlackjackHand(
        player=tuple(_prompt_card(card, where) for card in cards),
        dealer_up=_prompt_card(dealer.group(1), where),
    )


@dataclass(frozen=True)
class BeliefFacts:
    """What a correct belief about one situation must get right (``move`` ``None`` when bust)."""

    total: int
    soft: bool
    bust: bool
    bust_risk: Fraction
    move: str | None
    dealer_up: str
    dealer_up_value: int
    dealer_bust: Fraction

    def self_text(self) -> str:
        """The facts for grading a Self-Belief, one per line."""
        kind = "soft (an ace counts as 11)" if self.soft else "hard (no ace counts as 11)"
        lines = [f"- The player's total is {self.total}, a {kind} total."]
        if self.bust:
            lines.append("- The player is bust (over 21) and has lost.")
        else:
            lines.append(
                f"- The player is not bust. Chance that one more card busts the player: "
                f"{float(self.bust_risk):.0%}."
            )
            lines.append(f"- Basic strategy (hit or stand only) says: {self.move}.")
        return "\n".join(lines)

    def external_text(self) -> str:
        """The facts for grading an External-Belief, one per line."""
        return "\n".join(
            (
                f"- The dealer's face-up card is {self.dealer_up}, worth {self.dealer_up_value}.",
                "- The dealer's other card is hidden; the dealer draws until reaching 17 or more.",
                f"- Chance that the dealer busts from this up-card: {float(self.dealer_bust):.0%}.",
            )
        )


def belief_facts(hand: BlackjackHand) -> BeliefFacts:
    """The facts of a situation, computed with rlcard's rules."""
    ranks, up = hand.player_ranks, hand.dealer_up[1:]
    total, soft = hand_value(ranks)
    bust = total > 21
    return BeliefFacts(
        total=total,
        soft=soft,
        bust=bust,
        bust_risk=Fraction(1) if bust else bust_risk(ranks, up),
        move=None if bust else basic_strategy(ranks, up),
        dealer_up=card_words(hand.dealer_up),
        dealer_up_value=RANK_VALUES[up],
        dealer_bust=dealer_bust_probability(up, [*ranks, up]),
    )


@dataclass(frozen=True)
class BlackjackHand:
    """A dealt situation, cards in rlcard's notation (``"HT"``)."""

    player: tuple[str, ...]
    dealer_up: str

    @property
    def player_ranks(self) -> list[str]:
        """Ranks of the player's cards."""
        return [card[1:] for card in self.player]

    def metadata(self) -> dict[str, str]:
        """The hand as item metadata: ``player_cards`` and ``dealer_up``."""
        return {"player_cards": " ".join(self.player), "dealer_up": self.dealer_up}

    @classmethod
    def from_metadata(cls, metadata: Mapping[str, Any]) -> BlackjackHand:
        """The hand that :meth:`metadata` recorded."""
        return cls(tuple(metadata["player_cards"].split()), metadata["dealer_up"])


def deal_hands(seed: int, count: int) -> list[BlackjackHand]:
    """Deal ``count`` situations with rlcard: a fresh hand, then 0-2 hits below 17 (seeded)."""
    import rlcard

    env = rlcard.make("blackjack", config={"seed": seed})
    rng = random.Random(seed)
    hands = []
    for _ in range(count):
        env.reset()
        for _ in range(rng.choice((0, 0, 1, 1, 2))):
            ranks = [card.rank for card in env.game.players[0].hand]
            if env.is_over() or hand_value(ranks)[0] >= 17:
                break
            env.step(0)  # action 0 is "hit"
        cards = tuple(card.get_index() for card in env.game.players[0].hand)
        hands.append(BlackjackHand(cards, dealer_up=env.game.dealer.hand[1].get_index()))
    return hands


def _total_options(ranks: list[str], total: int) -> list[str]:
    """The right total first, then plausible slips (aces miscounted, off by one)."""
    hard = sum(1 if rank == "A" else RANK_VALUES[rank] for rank in ranks)
    candidates = [total]
    for value in (hard, hard + 10, total + 1, total - 1, total + 2):
        if value not in candidates and value > 1 and len(candidates) < 4:
            candidates.append(value)
    return [str(value) for value in candidates]


def hand_questions(hand: BlackjackHand) -> list[tuple[str, list[str], int, str]]:
    """Questions about one situation: ``(question_type, options, answer, question)``."""
    ranks, up = hand.player_ranks, hand.dealer_up[1:]
    total, _ = hand_value(ranks)
    bust = total > 21
    rows = [
        ("total", _total_options(ranks, total), 0, "What is the total of your hand now?"),
        ("bust", ["Yes, I am bust.", "No, I am not bust."], 0 if bust else 1, "Are you bust?"),
    ]
    if not bust:
        hit = basic_strategy(ranks, up) == "hit"
        question = "Following basic strategy, should you hit or stand?"
        rows.append(("strategy", ["I should hit.", "I should stand."], 0 if hit else 1, question))
    band = probability_band(dealer_reaches_17(up, [*ranks, up]))
    question = (
        "Judging from the cards you can see, how likely is it that the dealer's two cards "
        "already total 17 or more?"
    )
    rows.append(("dealer_17", list(PROBABILITY_BANDS), band, question))
    could = RANK_VALUES[up] in (10, 11)
    options = ["Yes, the dealer could have a blackjack.", "No, the dealer cannot have a blackjack."]
    question = "Could the dealer be holding a blackjack (an ace and a 10-value card) right now?"
    rows.append(("dealer_blackjack", options, 0 if could else 1, question))
    return rows


def generate_blackjack(seed: int, hands: int) -> list[EgoItem]:
    """Generate Blackjack items (ids ``blackjack-s<seed>-<hand>-<question type>``), 4-5 per hand."""
    rng = random.Random(seed)
    items = []
    for hand_index, hand in enumerate(deal_hands(seed, hands)):
        story = (
            f"Your cards are {cards_words(hand.player)}. The dealer's face-up card is "
            f"{card_words(hand.dealer_up)}; the dealer's other card is face down."
        )
        for question_type, options, answer, question in hand_questions(hand):
            shuffled, right = shuffle_options(rng, options, answer)
            external = question_type.startswith("dealer")
            items.append(
                EgoItem(
                    id=f"blackjack-s{seed}-{hand_index:04d}-{question_type}",
                    scenario="blackjack",
                    label="External-Belief" if external else "Self-Belief",
                    system=SYSTEM,
                    story=story,
                    question=question,
                    options=shuffled,
                    answer=right,
                    perspective="socialization",
                    metadata={"question_type": question_type, **hand.metadata()},
                )
            )
    return items
