"""Playing cards in rlcard's notation (suit letter then rank: ``"HT"`` is the ten of hearts)."""

from __future__ import annotations

RANK_WORDS = {"A": "ace", "T": "10", "J": "jack", "Q": "queen", "K": "king"}
SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
#: Ranks from low to high, as rlcard writes them.
RANK_ORDER = "23456789TJQKA"


def card_words(card: str) -> str:
    """``"HT"`` -> ``"the 10 of hearts"``; a ``ValueError`` if not in rlcard's notation."""
    suit, rank = card[:1], card[1:]
    if suit not in SUIT_WORDS or rank not in RANK_ORDER or len(rank) != 1:
        raise ValueError(f"not an rlcard card: {card!r}")
    return f"the {RANK_WORDS.get(rank, rank)} of {SUIT_WORDS[suit]}"


def cards_words(cards: tuple[str, ...] | list[str]) -> str:
    """Several cards joined with commas (``"none"`` for no cards)."""
    return ", ".join(card_words(card) for card in cards) if cards else "none"
