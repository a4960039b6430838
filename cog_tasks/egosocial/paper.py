"""EgoSocialArena's published numbers: the Number Guessing hit rates of the authors' README."""

from __future__ import annotations

from cog_tasks.common.headlines import PaperRow

SOURCE = "EgoSocialArena authors' README (commit 17f4cb2), Number Guessing tables"
PROTOCOL = (
    "one 10-round game per level against the rule-based opponent; hit rate = rounds whose "
    "prediction matched the opponent's number, over 10; Level 3 plays the previous target "
    "unrounded (Claude 3.5 Sonnet hits 7.5 and 5.6)"
)
DIFFERS = (
    "the authors' game (whole numbers 1-100, target 0.8 x the average, 10 health points; "
    "Level 3 plays the previous target rounded down, as their integer-only opponent code "
    "does) told in our words by default (rules=authors sends their own text, read from "
    "their repository at run time); the prediction and the choice come in one reply in "
    "our format; their README's Level 3 hits on decimals (7.5, 5.6) cannot occur here"
)
#: Hit rate per level (L1, L2, L3) of each model in the authors' README.
_HIT_RATES: dict[str, tuple[float, float, float]] = {
    "GPT-4-Turbo": (0.1, 0.2, 0.1),
    "GPT-3.5-Turbo": (0.1, 0.1, 0.0),
    "GPT-4o": (0.1, 0.4, 0.1),
    "o1-preview": (0.9, 0.9, 0.9),
    "Claude-3-5-Sonnet-20240620": (0.5, 0.1, 0.4),
    "Llama3-8b-chat-hf": (0.0, 0.0, 0.0),
    "Llama3-70b-chat-hf": (0.1, 0.1, 0.1),
    "Llama3.1-405b-Instruct-Turbo": (0.8, 0.2, 0.2),
    "Llama3-8b-Instruct-Turbo": (0.0, 0.0, 0.0),
}

PAPER_ROWS: tuple[PaperRow, ...] = tuple(
    PaperRow(
        benchmark="egosocial",
        measure=f"number_guessing_hit_rate_L{level}",
        model=model,
        value=rates[level - 1],
        source=SOURCE,
        protocol=PROTOCOL,
        differs=DIFFERS,
    )
    for model, rates in _HIT_RATES.items()
    for level in (1, 2, 3)
)
