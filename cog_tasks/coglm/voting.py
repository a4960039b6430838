"""Majority vote over sampled answers (self-consistency); a tie goes to the first voted."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Vote:
    """A majority vote (``choice`` ``None``: no sample read; ``tie``: top count shared)."""

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
    return Vote(winner, dict(sorted(counts.items())), len(picks) - len(valid), len(leaders) > 1)
