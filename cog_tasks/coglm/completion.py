"""CogLM's text-completion protocol: score each candidate as a continuation."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from cog_tasks.common.errors import UserError

ANSWER_CUE = "The answer is:"
CONTINUATION_DELIMITER = " "
# The metric named for the authors' rule (its calibrated form is calibrated_acc_authors).
AUTHORS_PICK_METRIC = "acc_authors"


class Tokenizer(Protocol):
    """The part of a Hugging Face tokenizer used to count tokens."""

    def encode(self, text: str, add_special_tokens: bool = ...) -> list[int]:
        """Return the token ids of ``text``."""
        ...

    def decode(self, token_ids: list[int]) -> str:
        """Return the text of ``token_ids``."""
        ...


def completion_context(question: str) -> str:
    """The text every candidate is appended to: the question and the cue."""
    return f"{question}\n{ANSWER_CUE}"


def completion_text(question: str, choice: str) -> str:
    """The whole scored string for one candidate (context plus continuation)."""
    return f"{completion_context(question)}{CONTINUATION_DELIMITER}{choice}"


def continuation_token_counts(
    tokenizer: Tokenizer, question: str, choices: Sequence[str]
) -> list[int]:
    """Count the tokens of each candidate's continuation (at least 1), as lm-eval splits them."""
    context = completion_context(question)
    context_length = len(tokenizer.encode(context, add_special_tokens=False))
    counts = []
    for choice in choices:
        whole = tokenizer.encode(completion_text(question, choice), add_special_tokens=False)
        counts.append(max(1, len(whole) - context_length))
    return counts


def context_split(tokenizer: Tokenizer | None, question: str) -> tuple[str, int]:
    """The context as ``(first token, tokens after it)``; no tokenizer: first word, words after."""
    context = completion_context(question)
    if tokenizer is None:
        words = context.split(" ")
        return words[0], len(context.split()) - 1
    ids = tokenizer.encode(context, add_special_tokens=False)
    head = tokenizer.decode(ids[:1])
    if (
        len(ids) < 2
        or not context.startswith(head)
        or head != head.rstrip()
        or tokenizer.encode(head, add_special_tokens=False) != ids[:1]
    ):
        raise UserError(
            f"the first token of {context[:40]!r}... does not encode back to itself in this "
            "model's tokenizer, which the coglm family's authors' rule needs; use coglm_gen"
        )
    return head, len(ids) - 1


def _argmax(values: Sequence[float]) -> int:
    """Index of the largest value; the first one wins ties (like ``numpy.argmax``)."""
    if not values:
        raise ValueError("cannot choose among zero candidates")
    return max(range(len(values)), key=lambda index: (values[index], -index))


def pick_by_sum(loglikelihoods: Sequence[float]) -> int:
    """Candidate with the highest summed continuation log-likelihood."""
    return _argmax(loglikelihoods)


def pick_by_mean(loglikelihoods: Sequence[float], lengths: Sequence[int]) -> int:
    """Candidate with the highest log-likelihood per unit of length (characters or tokens)."""
    if len(loglikelihoods) != len(lengths):
        raise ValueError(f"{len(loglikelihoods)} log-likelihoods but {len(lengths)} lengths")
    if min(lengths) <= 0:
        raise ValueError("every length must be positive")
    return _argmax([ll / length for ll, length in zip(loglikelihoods, lengths, strict=True)])


def pick_by_whole_mean_loss(
    loglikelihoods: Sequence[float],
    lengths: Sequence[int],
    context_loglikelihood: float,
    context_tokens: int,
) -> int:
    """The authors' rule: lowest mean loss over context and candidate; ties go to the first."""
    if len(loglikelihoods) != len(lengths):
        raise ValueError(f"{len(loglikelihoods)} log-likelihoods but {len(lengths)} lengths")
    if context_tokens + min(lengths) <= 0:
        raise ValueError("the scored string must have at least one predicted token")
    return _argmax(
        [
            (context_loglikelihood + ll) / (context_tokens + length)
            for ll, length in zip(loglikelihoods, lengths, strict=True)
        ]
    )


def choice_picks(
    doc: dict[str, Any], loglikelihoods: Sequence[float], context_loglikelihood: float | None = None
) -> dict[str, int]:
    """The option each choice rule picks: ``acc``, ``acc_norm``, ``acc_per_token``, ``acc_authors``.

    Options with the same text take the score of their first occurrence; without
    ``context_loglikelihood`` (tasks version 1.0) ``acc_authors`` is left out.
    """
    choices, num_choices = doc["choices"], doc["num_choices"]
    if len(loglikelihoods) != num_choices:
        raise ValueError(
            f"CogLM {doc['id']}: {len(loglikelihoods)} scores for {num_choices} choices"
        )
    first_index: dict[str, int] = {}
    loglikelihoods = [
        loglikelihoods[first_index.setdefault(choice, index)]
        for index, choice in enumerate(choices)
    ]
    picks = {
        "acc": pick_by_sum(loglikelihoods),
        "acc_norm": pick_by_mean(loglikelihoods, [len(choice) for choice in choices]),
        "acc_per_token": pick_by_mean(loglikelihoods, doc["choice_lengths"]),
    }
    if context_loglikelihood is not None:
        picks[AUTHORS_PICK_METRIC] = pick_by_whole_mean_loss(
            loglikelihoods, doc["choice_lengths"], context_loglikelihood, doc["context_tokens"]
        )
    return picks


def sample_picks(doc: dict[str, Any], loglikelihoods: Sequence[float]) -> dict[str, int]:
    """:func:`choice_picks` for a logged lm-eval sample's responses (from 1.1, context last)."""
    if len(loglikelihoods) == doc["num_choices"] + 1:
        return choice_picks(doc, loglikelihoods[:-1], loglikelihoods[-1])
    return choice_picks(doc, loglikelihoods)
