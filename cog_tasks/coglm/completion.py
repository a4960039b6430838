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

The authors' script instead picks the lowest mean causal-LM loss over the
whole string, question tokens included (one forward pass per candidate);
``benchmarks/coglm_speed.py`` reproduces that rule and measures how often
each rule above agrees with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

ANSWER_CUE = "The answer is:"
CONTINUATION_DELIMITER = " "
# The lm-eval metric whose choice rule the calibrated accuracies are computed from.
CALIBRATED_PICK_METRIC = "acc_per_token"


class Tokenizer(Protocol):
    """The part of a Hugging Face tokenizer used to count tokens."""

    def encode(self, text: str, add_special_tokens: bool = ...) -> list[int]:
        """Return the token ids of ``text``."""
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


def choice_picks(doc: dict[str, Any], loglikelihoods: Sequence[float]) -> dict[str, int]:
    """The option each choice rule picks (``acc``, ``acc_norm``, ``acc_per_token``).

    Args:
        doc: An lm-eval document of the ``coglm`` tasks (``choices``,
            ``choice_lengths``, ``num_choices``, ``id``).
        loglikelihoods: Summed continuation log-likelihood of each option.

    Raises:
        ValueError: If the number of scores does not match the number of options.
    """
    choices, num_choices = doc["choices"], doc["num_choices"]
    if len(loglikelihoods) != num_choices:
        raise ValueError(
            f"CogLM {doc['id']}: {len(loglikelihoods)} scores for {num_choices} choices"
        )
    return {
        "acc": pick_by_sum(loglikelihoods),
        "acc_norm": pick_by_mean(loglikelihoods, [len(choice) for choice in choices]),
        "acc_per_token": pick_by_mean(loglikelihoods, doc["choice_lengths"]),
    }
