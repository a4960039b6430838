"""Majority vote over sampled answers (self-consistency).

Unread samples (``None``) do not vote; a tie goes to the tied option voted for
first in sampling order and is reported (``Vote.tie``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Vote:
    """Outcome of a majority vote.

    Attributes:
        choice: Winning option index, or ``None`` when no sample was read.
        counts: Votes per option index.
        invalid: Number of samples that could not be read.
        tie: Whether the top count was shared by several options.
    """

    choice: int | None
    counts: dict[int, int]
    invalid: int
    tie: bool


def majority_vote(picks: Sequence[int | None]) -> Vote:
    """Return the majority option of per-sample picks in sampling order (``None``: unread)."""
    valid = [pick for pick in picks if pick is not None]
    counts = Counter(valid)
    if not counts:
        return Vote(choice=None, counts={}, invalid=len(picks), tie=False)
    top = max(counts.values())
    leaders = {option for option, count in counts.items() if count == top}
    winner = next(pick for pick in valid if pick in leaders)
    return Vote(
        choice=winner,
        counts=dict(sorted(counts.items())),
        invalid=len(picks) - len(valid),
        tie=len(leaders) > 1,
    )
