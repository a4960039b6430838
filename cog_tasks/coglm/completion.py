r"""CogLM's text-completion protocol: score each candidate as a continuation.

The paper scores text-completion models by appending each candidate to the
question, after a newline and the cue "The answer is: ", and picking the
candidate the model finds most likely once the length of the text is taken
out. This module holds the prompt strings and the choice rules so that the
lm-eval tasks, the benchmark script and the tests share one definition.

The full scored string for candidate ``c`` is
``question + "\\n" + "The answer is: " + c``. lm-eval splits it into the
context ``question + "\\nThe answer is:"`` and the continuation ``" " + c``; the
string the model reads is the same.

Choice rules (all return the index of the chosen candidate):

- :func:`pick_by_sum`: highest summed log-likelihood of the continuation
  (lm-eval ``acc``);
- :func:`pick_by_mean` with character lengths: highest log-likelihood per
  character of the candidate (lm-eval ``acc_norm``);
- :func:`pick_by_mean` with token counts: highest mean log-likelihood per
  continuation token (``acc_per_token``);
- :func:`pick_by_whole_mean_loss`: the authors' rule, lowest mean causal-LM
  loss over the whole scored string, question tokens included
  (``acc_authors``). It needs the context's own log-likelihood (every context
  token after the first, given the ones before it), which the lm-eval tasks
  request once per question (:func:`context_split`).

:func:`choice_picks` applies all four; the lm-eval tasks and both benchmark
scripts call it, so there is one definition of each rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from cog_tasks.common.errors import UserError

ANSWER_CUE = "The answer is:"
CONTINUATION_DELIMITER = " "
# The lm-eval metric whose choice rule the calibrated accuracies are computed from.
CALIBRATED_PICK_METRIC = "acc_per_token"
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
    """Count the tokens of each candidate's continuation, as lm-eval splits them.

    lm-eval encodes ``context + continuation`` in one go and takes the tokens
    after the encoded context as the continuation; this mirrors that split.

    Args:
        tokenizer: The model's tokenizer.
        question: The question text.
        choices: The candidates.

    Returns:
        One count (at least 1) per candidate.
    """
    context = completion_context(question)
    context_length = len(tokenizer.encode(context, add_special_tokens=False))
    counts = []
    for choice in choices:
        whole = tokenizer.encode(completion_text(question, choice), add_special_tokens=False)
        counts.append(max(1, len(whole) - context_length))
    return counts


def context_split(tokenizer: Tokenizer | None, question: str) -> tuple[str, int]:
    """Split the context so that its own log-likelihood can be requested.

    The authors' loss covers every token of the scored string but the first.
    lm-eval scores a continuation given a context, so the context is requested
    as ``head`` (its first token) followed by the rest: lm-eval then returns
    the log-likelihood of every context token after the first, and this
    function says how many tokens that is.

    Args:
        tokenizer: The model's tokenizer, or ``None`` to split at the first
            space and count whitespace-separated words (an approximation, as
            for ``acc_per_token`` without a tokenizer).
        question: The question text.

    Returns:
        ``(head, scored)``: the text of the context's first token and the
        number of context tokens after it.

    Raises:
        UserError: If the first token does not encode back to itself, so that
            lm-eval would split the context elsewhere.
    """
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
    """Candidate with the highest log-likelihood per unit of length.

    Args:
        loglikelihoods: Summed log-likelihood of each continuation.
        lengths: Length of each candidate (characters or tokens), all positive.
    """
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
    """The authors' rule: lowest mean loss over the context and the candidate.

    The authors feed ``context + " " + candidate`` with ``labels=input_ids``
    and take the candidate with the lowest loss, the mean negative
    log-likelihood of every token but the first; ties go to the first
    candidate (``list.index(min(...))``). With lm-eval's split that loss is
    ``-(context_loglikelihood + ll_i) / (context_tokens + lengths_i)``.

    Args:
        loglikelihoods: Summed continuation log-likelihood of each candidate.
        lengths: Continuation tokens of each candidate.
        context_loglikelihood: Summed log-likelihood of the context's tokens
            after the first (see :func:`context_split`).
        context_tokens: How many tokens that is.
    """
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
    doc: dict[str, Any],
    loglikelihoods: Sequence[float],
    context_loglikelihood: float | None = None,
) -> dict[str, int]:
    """The option each choice rule picks: ``acc``, ``acc_norm``, ``acc_per_token``, ``acc_authors``.

    Args:
        doc: An lm-eval document of the ``coglm`` tasks (``choices``,
            ``choice_lengths``, ``context_tokens``, ``num_choices``, ``id``).
        loglikelihoods: Summed continuation log-likelihood of each option.
        context_loglikelihood: Log-likelihood of the context's tokens after
            its first (the extra request of the lm-eval tasks); without it
            (samples of tasks version 1.0) ``acc_authors`` is left out.

    Options with the same text (39 items repeat a distractor) are one
    candidate: each takes the score of its first occurrence. Their tokens are
    the same, so only float rounding (a different batch or packed row) can
    tell them apart, and the authors' loop, which gives them equal losses,
    picks the first.

    Raises:
        ValueError: If the number of scores does not match the number of options.
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
    """:func:`choice_picks` for the responses of a logged lm-eval sample.

    From tasks version 1.1 a sample carries one response more than it has
    options: the context's own log-likelihood, last. Version 1.0 samples have
    none, and their picks leave ``acc_authors`` out.

    Args:
        doc: The sample's document.
        loglikelihoods: The log-likelihood of each response, in order.
    """
    if len(loglikelihoods) == doc["num_choices"] + 1:
        return choice_picks(doc, loglikelihoods[:-1], loglikelihoods[-1])
    return choice_picks(doc, loglikelihoods)
