"""The names of CogLM's scoring options, without the code that applies them (cheap to import).

- Chance rule (:data:`CHANCE_RULES`): how an item's chance level counts its
  options. ``listed`` (default, the paper's Eq. 1 and the authors' scripts):
  one over the listed options; ``distinct``: one over the distinct option
  texts (39 items repeat a wrong option). Applied by
  :func:`cog_tasks.coglm.metrics.chance_count`.
- Choice rule (:data:`RULES`) of the log-likelihood family: which option a
  model's log-likelihoods pick (:func:`cog_tasks.coglm.completion.choice_picks`),
  by option name -> pick metric. ``authors`` (default, the paper's): lowest
  mean loss over question and option; ``per-token``: highest mean
  log-likelihood per option token (the headline before tasks version 2.0);
  ``sum``: highest summed log-likelihood (lm-eval's ``acc``); ``per-char``:
  per character of the option (lm-eval's ``acc_norm``).
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
