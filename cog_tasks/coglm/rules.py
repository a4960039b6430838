"""The names of CogLM's scoring options, without the code that applies them (cheap to import).

:data:`CHANCE_RULES`: ``listed`` (default) or ``distinct`` options count toward
chance. :data:`RULES`: the log-likelihood family's choice rule, option name -> pick metric.
"""

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
