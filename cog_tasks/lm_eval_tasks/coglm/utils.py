"""lm-eval glue for the CogLM tasks: documents, prompt, per-document scores.

Everything of substance lives in :mod:`cog_tasks.coglm` and
:mod:`cog_tasks.metrics.coglm`; this module only adapts it to lm-eval's hooks.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Sequence
from typing import Any

import datasets

from cog_tasks.coglm.completion import (
    CALIBRATED_PICK_METRIC,
    Tokenizer,
    choice_picks,
    completion_context,
    continuation_token_counts,
)
from cog_tasks.coglm.records import load_records
from cog_tasks.metrics.coglm import calibrated_accuracy, calibrated_accuracy_per_item

logger = logging.getLogger(__name__)

# lm-eval passes the --model_args to custom_dataset as metadata; these keys may name
# a Hugging Face tokenizer (hf and vllm use "pretrained", API models "model").
TOKENIZER_KEYS = ("tokenizer", "pretrained", "model")


@functools.lru_cache(maxsize=4)
def _load_tokenizer(name: str, trust_remote_code: bool) -> Tokenizer | None:
    from transformers import AutoTokenizer

    try:
        return AutoTokenizer.from_pretrained(name, trust_remote_code=trust_remote_code)
    except (OSError, ValueError) as error:
        logger.warning("CogLM: no tokenizer could be loaded from %r (%s)", name, error)
        return None


def _tokenizer_from_metadata(metadata: dict[str, Any]) -> Tokenizer | None:
    trust = str(metadata.get("trust_remote_code", False)).lower() == "true"
    for key in TOKENIZER_KEYS:
        name = metadata.get(key)
        if isinstance(name, str) and name:
            tokenizer = _load_tokenizer(name, trust)
            if tokenizer is not None:
                return tokenizer
    return None


def load_ability(ability: str, **metadata: Any) -> datasets.DatasetDict:
    """``custom_dataset`` hook: one ability's records, through the resolver.

    Each document gets ``choice_lengths``, the length of every candidate's
    continuation in tokens of the evaluated model's tokenizer (found from the
    ``--model_args``), used by ``acc_per_token``. Without a loadable tokenizer
    the lengths fall back to whitespace-separated words and a warning says so.

    Args:
        ability: Ability code, from the task's ``dataset_kwargs``.
        **metadata: lm-eval's task metadata (``version``, the model arguments ...).

    Returns:
        A ``DatasetDict`` with a single ``test`` split.
    """
    tokenizer = _tokenizer_from_metadata(metadata)
    if tokenizer is None:
        logger.warning(
            "CogLM %s: no tokenizer in --model_args (%s); acc_per_token normalizes "
            "by words instead of tokens",
            ability,
            "/".join(TOKENIZER_KEYS),
        )
    rows = []
    for record in load_records([ability]):
        row = record.to_dict()
        if tokenizer is not None:
            row["choice_lengths"] = continuation_token_counts(
                tokenizer, record.question, record.choices
            )
            row["length_unit"] = "token"
        else:
            row["choice_lengths"] = [max(1, len(choice.split())) for choice in record.choices]
            row["length_unit"] = "word"
        rows.append(row)
    return datasets.DatasetDict({"test": datasets.Dataset.from_list(rows)})


def doc_to_text(doc: dict[str, Any]) -> str:
    """The context every candidate is appended to (question, newline, cue)."""
    return completion_context(doc["question"])


def process_results(doc: dict[str, Any], results: Sequence[tuple[float, bool]]) -> dict:
    """Score one document from the candidates' continuation log-likelihoods.

    Returns:
        ``acc``, ``acc_norm`` and ``acc_per_token`` (0/1), ``calibrated_acc``
        as a ``(correct, num_choices)`` pair for the pooled aggregation, and
        ``calibrated_acc_per_item`` (the item's own chance-corrected score).
    """
    gold, num_choices = doc["answer"], doc["num_distinct_choices"]  # chance: distinct options
    picks = choice_picks(doc, [loglikelihood for loglikelihood, _ in results])
    scores: dict[str, Any] = {metric: float(pick == gold) for metric, pick in picks.items()}
    correct = picks[CALIBRATED_PICK_METRIC] == gold
    scores["calibrated_acc"] = (correct, num_choices)
    scores["calibrated_acc_per_item"] = calibrated_accuracy_per_item([correct], [num_choices])
    return scores


def pooled_calibrated_accuracy(items: Sequence[tuple[bool, int]]) -> float:
    """Aggregation of ``calibrated_acc``: ``(acc - c) / (1 - c)``, ``c = mean(1/n)``."""
    return calibrated_accuracy([correct for correct, _ in items], [n for _, n in items])
