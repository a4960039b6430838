"""Majority vote over sampled answers (self-consistency).

Each sample's answer is first reduced to an option index with
:func:`cog_tasks.coglm.extract.extract_choice`; unparseable samples (``None``)
do not vote. The option with the most votes wins.

Tie-breaking: when several options share the top count, the winner is the
tied option that was voted for first in sampling order. This is deterministic
for a given sequence of samples and, unlike "lowest letter wins", does not
favour the options listed first. The tie is reported (``Vote.tie``). When no
sample can be parsed the vote has no winner and the item counts as invalid.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Vote:
    """Outcome of a majority vote.

    Attributes:
        choice: Winning option index, or ``None`` when no sample was parseable.
        counts: Votes per option index.
        invalid: Number of samples that could not be parsed.
        tie: Whether the top count was shared by several options.
    """

    choice: int | None
    counts: dict[int, int]
    invalid: int
    tie: bool


def majority_vote(picks: Sequence[int | None]) -> Vote:
    """Return the majority option of sampled picks (see module doc for ties).

    Args:
        picks: Per-sample option index, ``None`` for an unparseable sample, in
            sampling order.

    Returns:
        The vote.
    """
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
