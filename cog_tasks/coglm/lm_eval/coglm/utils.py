"""lm-eval glue for the CogLM tasks: documents, prompt, requests, per-document scores."""

from __future__ import annotations

import functools
import logging
from collections.abc import Sequence
from typing import Any

import datasets
from lm_eval.api.instance import Instance
from lm_eval.api.task import ConfigurableTask

from cog_tasks.coglm.completion import (
    AUTHORS_PICK_METRIC,
    Tokenizer,
    choice_picks,
    completion_context,
    context_split,
    continuation_token_counts,
)
from cog_tasks.coglm.metrics import calibrated_accuracy, calibrated_accuracy_per_item
from cog_tasks.coglm.records import CogLMDataError, load_records

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
    """``custom_dataset`` hook: one ability's records as a ``test`` split, with token counts."""
    tokenizer = _tokenizer_from_metadata(metadata)
    if tokenizer is None:
        logger.warning(
            "CogLM %s: no tokenizer in --model_args (%s); the choice rules count "
            "words instead of tokens",
            ability,
            "/".join(TOKENIZER_KEYS),
        )
    rows = []
    for record in load_records([ability]):
        row = record.to_dict()
        row["context_head"], row["context_tokens"] = context_split(tokenizer, record.question)
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


class CogLMTask(ConfigurableTask):
    """The ``multiple_choice`` task plus each context's own request (plain zero-shot only)."""

    def __init__(self, config: dict[str, Any]) -> None:
        """Build the task from its YAML (the ``class`` key is lm-eval's, not a task field)."""
        super().__init__(config={k: v for k, v in config.items() if k != "class"})

    def construct_requests(self, doc: dict[str, Any], ctx: Any, **kwargs: Any) -> list[Instance]:
        """The candidates' requests, then the context's own (refused if lm-eval changed it)."""
        requests = super().construct_requests(doc, ctx, **kwargs)
        if ctx != doc_to_text(doc):
            raise CogLMDataError(
                f"coglm ({doc['id']}): the log-likelihood tasks score the plain zero-shot "
                "context, which --apply_chat_template, --num_fewshot and --system_instruction "
                "change; for chat models use lm-eval's coglm_gen or Inspect's coglm_chat"
            )
        head = doc["context_head"]
        context_request = Instance(
            request_type="loglikelihood",
            doc=doc,
            arguments=(head, ctx[len(head) :]),
            idx=len(requests),
            metadata=requests[-1].metadata,
        )
        return [*requests, context_request]


def process_results(doc: dict[str, Any], results: Sequence[tuple[float, bool]]) -> dict:
    """Score one document: ``acc_authors`` and its pooled and per-item calibrated accuracies."""
    gold, num_choices = doc["answer"], doc["num_choices"]
    *candidates, (context_loglikelihood, _) = results
    picks = choice_picks(doc, [ll for ll, _ in candidates], context_loglikelihood)
    correct = picks[AUTHORS_PICK_METRIC] == gold
    return {
        AUTHORS_PICK_METRIC: float(correct),
        f"calibrated_{AUTHORS_PICK_METRIC}": (correct, num_choices),
        "calibrated_acc_per_item": calibrated_accuracy_per_item([correct], [num_choices]),
    }


def pooled_calibrated_accuracy(items: Sequence[tuple[bool, int]]) -> float:
    """Aggregation of ``calibrated_acc``: ``(acc - c) / (1 - c)``, ``c = mean(1/n)``."""
    return calibrated_accuracy([correct for correct, _ in items], [n for _, n in items])
