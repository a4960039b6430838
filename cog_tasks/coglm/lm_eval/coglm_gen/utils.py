"""lm-eval glue for the generative CogLM tasks: documents, prompt, extraction, scores."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import datasets

from cog_tasks.coglm.extract import LETTERS, get_extractor
from cog_tasks.coglm.lm_eval.coglm.utils import (  # the YAML's aggregation, re-exported
    pooled_calibrated_accuracy as pooled_calibrated_accuracy,
)
from cog_tasks.coglm.metrics import calibrated_accuracy_per_item
from cog_tasks.coglm.prompts import chat_prompt
from cog_tasks.coglm.records import load_records

INVALID = "[invalid]"


def load_ability(ability: str, **_metadata: Any) -> datasets.DatasetDict:
    """``custom_dataset`` hook: one ability's records, through the resolver, as a ``test`` split."""
    rows = [record.to_dict() for record in load_records([ability])]
    return datasets.DatasetDict({"test": datasets.Dataset.from_list(rows)})


def doc_to_text(doc: dict[str, Any]) -> str:
    """The chat protocol's user message (question, lettered options, answer format)."""
    return chat_prompt(doc["question"], doc["choices"])


def doc_to_target(doc: dict[str, Any]) -> str:
    """The correct option's letter."""
    return LETTERS[doc["answer"]]


def _letters(
    responses: Sequence[Sequence[str]], docs: Sequence[dict[str, Any]], extractor: str
) -> list[list[str]]:
    read = get_extractor(extractor)
    filtered = []
    for generations, doc in zip(responses, docs, strict=True):
        picks = [read(text, doc["choices"]) for text in generations]
        filtered.append([INVALID if pick is None else LETTERS[pick] for pick in picks])
    return filtered


def extract_letters(
    responses: Sequence[Sequence[str]], docs: Sequence[dict[str, Any]]
) -> list[list[str]]:
    """``custom`` filter ``extract``: the letter each generation chose, or ``[invalid]``."""
    return _letters(responses, docs, "ours")


def extract_letters_authors(
    responses: Sequence[Sequence[str]], docs: Sequence[dict[str, Any]]
) -> list[list[str]]:
    """``custom`` filter ``authors``: the letter the authors' Llama-2-chat rule reads."""
    return _letters(responses, docs, "authors")


def process_results(doc: dict[str, Any], results: Sequence[str]) -> dict[str, Any]:
    """Score one document: ``acc``, ``calibrated_acc`` (a pair), its per-item form, ``invalid``."""
    letter = results[0]
    chosen = None if letter == INVALID else LETTERS.index(letter)
    correct = chosen == doc["answer"]
    num_choices = doc["num_choices"]  # chance: listed options (the paper's Eq. 1)
    return {
        "acc": float(correct),
        "calibrated_acc": (correct, num_choices),
        "calibrated_acc_per_item": calibrated_accuracy_per_item([correct], [num_choices]),
        "invalid": float(chosen is None),
    }
