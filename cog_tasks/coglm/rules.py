"""The names of CogLM's chance and choice rules, without the code that applies them."""

from __future__ import annotations

from cog_tasks.coglm.completion import AUTHORS_PICK_METRIC

CHANCE_RULES = ("listed", "distinct")
DEFAULT_CHANCE = "listed"
RULES: dict[str, str] = {
    "authors": AUTHORS_PICK_METRIC,
    "per-token": "acc_per_token",
    "sum": "acc",
    "per-char": "acc_norm",
}
DEFAULT_RULE = "authors"
