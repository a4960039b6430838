"""Blackjack: hands dealt by rlcard, questions checked by rules.

The authors graded free-text answers with GPT-4o or people. Here every
question is multiple choice and its answer is computed in code, so scoring is
deterministic:

- self-belief: your total, whether you are bust, and whether basic strategy
  says hit or stand (only hit and stand are allowed; the dealer stands on 17);
- external belief: how likely the dealer's two cards already reach 17 or more,
  computed exactly from the cards you cannot see, and whether the dealer can be
  holding a blackjack.

Hands come from rlcard's ``blackjack`` environment: a seeded deal, then 0-2
hits (no hit on 17 or more). rlcard shows the dealer's second card, which is the up-card here; the
first stays hidden.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from cog_tasks.egosocial.cards import card_words, cards_words
from cog_tasks.egosocial.records import EgoItem

RANK_VALUES = {"A": 11, "T": 10, "J": 10, "Q": 10, "K": 10} | {str(n): n for n in range(2, 10)}
PROBABILITY_BANDS = ("below 25%", "from 25% to 50%", "from 50% to 75%", "75% or more")

SYSTEM = (
    "You are sitting at a blackjack table, playing against the dealer. Aces count 1 or 11, "
    "face cards count 10, and a total above 21 is bust. You may only hit or stand, and the "
    "dealer draws until reaching at least 17. Answer as the player."
)


def hand_value(ranks: list[str]) -> tuple[int, bool]:
    """Best blackjack total of some ranks and whether it is soft (an ace counted as 11)."""
    total = sum(RANK_VALUES[rank] for rank in ranks)
    aces = ranks.count("A")
    while total > 21 and aces:
        total -= 10
        aces -= 1
    return total, aces > 0


def basic_strategy(ranks: list[str], dealer_up: str) -> str:
    """Hit/stand basic strategy (no doubling or splitting), dealer stands on all 17s.

    Args:
        ranks: The player's card ranks (not bust).
        dealer_up: The dealer's up-card rank.

    Returns:
        ``"hit"`` or ``"stand"``.
    """
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


@dataclass(frozen=True)
class BlackjackHand:
    """A dealt situation.

    Attributes:
        player: The player's cards (rlcard strings like ``"HT"``).
        dealer_up: The dealer's visible card.
    """

    player: tuple[str, ...]
    dealer_up: str

    @property
    def player_ranks(self) -> list[str]:
        """Ranks of the player's cards."""
        return [card[1:] for card in self.player]


def deal_hands(seed: int, count: int) -> list[BlackjackHand]:
    """Deal ``count`` situations with rlcard: a fresh hand, then 0-2 hits below 17.

    Args:
        seed: Seeds both the environment and the number of hits.
        count: Number of hands.

    Returns:
        The situations, in order.
    """
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
        player = env.game.players[0].hand
        dealer = env.game.dealer.hand
        hands.append(
            BlackjackHand(
                player=tuple(card.get_index() for card in player),
                dealer_up=dealer[1].get_index(),
            )
        )
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
    ranks = hand.player_ranks
    total, _ = hand_value(ranks)
    bust = total > 21
    visible = [*ranks, hand.dealer_up[1:]]
    rows = []
    rows.append(("total", _total_options(ranks, total), 0, "What is the total of your hand now?"))
    rows.append(
        (
            "bust",
            ["Yes, I am bust.", "No, I am not bust."],
            0 if bust else 1,
            "Are you bust?",
        )
    )
    if not bust:
        move = basic_strategy(ranks, hand.dealer_up[1:])
        rows.append(
            (
                "strategy",
                ["I should hit.", "I should stand."],
                0 if move == "hit" else 1,
                "Following basic strategy, should you hit or stand?",
            )
        )
    chance = dealer_reaches_17(hand.dealer_up[1:], visible)
    rows.append(
        (
            "dealer_17",
            list(PROBABILITY_BANDS),
            probability_band(chance),
            "Judging from the cards you can see, how likely is it that the dealer's two cards "
            "already total 17 or more?",
        )
    )
    up_value = RANK_VALUES[hand.dealer_up[1:]]
    rows.append(
        (
            "dealer_blackjack",
            ["Yes, the dealer could have a blackjack.", "No, the dealer cannot have a blackjack."],
            0 if up_value in (10, 11) else 1,
            "Could the dealer be holding a blackjack (an ace and a 10-value card) right now?",
        )
    )
    return rows


def generate_blackjack(seed: int, hands: int) -> list[EgoItem]:
    """Generate Blackjack items: four or five questions for each dealt hand.

    Args:
        seed: Seed for the deal and the option order.
        hands: Number of hands.

    Returns:
        Items with ids ``blackjack-s<seed>-<hand>-<question type>``.
    """
    rng = random.Random(seed)
    items = []
    for hand_index, hand in enumerate(deal_hands(seed, hands)):
        story = (
            f"Your cards are {cards_words(hand.player)}. The dealer's face-up card is "
            f"{card_words(hand.dealer_up)}; the dealer's other card is face down."
        )
        for question_type, options, answer, question in hand_questions(hand):
            order = list(range(len(options)))
            if question_type == "total":
                rng.shuffle(order)
            items.append(
                EgoItem(
                    id=f"blackjack-s{seed}-{hand_index:04d}-{question_type}",
                    scenario="blackjack",
                    ability="socialization",
                    system=SYSTEM,
                    story=story,
                    question=question,
                    options=tuple(options[position] for position in order),
                    answer=order.index(answer),
                    metadata={
                        "question_type": question_type,
                        "belief": "external" if question_type.startswith("dealer") else "self",
                        "player_cards": " ".join(hand.player),
                        "dealer_up": hand.dealer_up,
                    },
                )
            )
    return items
