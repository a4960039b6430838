"""Chain of cognition: how a stronger model's reply is shown to the weaker model.

Two forms (:data:`RATIONALE_FORMS`):

- ``hidden`` (default): :func:`hide_options` removes every pointer to an
  option, so the weaker model sees the reasoning and not which option was
  chosen (or rejected).
- ``raw``: the reply as written, answer included. The paper does not say
  whether its rationales contained the answer; this form is the other reading.

:func:`leak_counts` measures how often a hidden rationale still reads as the
option the full reply chose.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from cog_tasks.coglm.extract import LETTERS, Extractor, extract_choice, strip_answer_statements
from cog_tasks.common.stats import Interval, wilson_interval

RATIONALE_FORMS = ("hidden", "raw")
DEFAULT_RATIONALE_FORM = "hidden"
HIDDEN_TEXT = "[…]"
"""What replaces an option's text in a hidden rationale."""

# Option texts are compared word by word; a span this similar to an option is its copy.
NEAR_COPY_RATIO = 0.8
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*|[+\-=<>×÷%/]")


@dataclass(frozen=True)
class LeakCounts:
    """How many hidden rationales still point at the chosen option.

    Attributes:
        replies: Replies looked at.
        readable: Replies from which the extractor reads an option.
        same_option: Readable replies whose hidden form reads as the same option.
        verbatim: Readable replies whose hidden form still contains the chosen
            option's text (normalized: case and punctuation ignored).
    """

    replies: int
    readable: int
    same_option: int
    verbatim: int

    def same_option_interval(self) -> Interval:
        """The share of readable replies that still read as the same option, 95 % Wilson."""
        return wilson_interval(self.same_option, self.readable, unit="reply")

    def verbatim_interval(self) -> Interval:
        """The share of readable replies whose rationale holds the option's text, 95 % Wilson."""
        return wilson_interval(self.verbatim, self.readable, unit="reply")


def _words(text: str) -> list[re.Match[str]]:
    return list(_WORD.finditer(text))


def _near_copies(text: str, choice: str) -> list[tuple[int, int]]:
    """Character spans of ``text`` that copy ``choice`` word for word or nearly so."""
    wanted = [word.lower() for word in _WORD.findall(choice)]
    found = _words(text)
    words = [match.group().lower() for match in found]
    size = len(wanted)
    if not size:
        return []
    vocabulary = set(wanted)
    shortest = max(1, int(size * NEAR_COPY_RATIO))
    longest = size + max(0, size - shortest) + 1
    spans: list[tuple[int, int]] = []
    start = 0
    while start < len(words):
        best: tuple[float, int] | None = None
        if words[start] in vocabulary:
            for length in range(shortest, longest + 1):
                window = words[start : start + length]
                if len(window) < length or window[-1] not in vocabulary:
                    continue
                if sum(word in vocabulary for word in window) < shortest:
                    continue
                ratio = SequenceMatcher(None, wanted, window, autojunk=False).ratio()
                if ratio >= NEAR_COPY_RATIO and (best is None or ratio > best[0]):
                    best = (ratio, length)
        if best is None:
            start += 1
            continue
        end = start + best[1] - 1
        spans.append((found[start].start(), found[end].end()))
        start = end + 1
    return spans


def hide_option_texts(text: str, choices: Sequence[str]) -> str:
    """Replace every copy or near copy of an option's text by :data:`HIDDEN_TEXT`.

    Longer options are hidden first, so "Not true" goes before "True". A copy
    may run over several lines (a numbered list of an option's steps).
    """
    for choice in sorted({c.strip() for c in choices if c.strip()}, key=len, reverse=True):
        for start, end in reversed(_near_copies(text, choice)):
            text = text[:start] + HIDDEN_TEXT + text[end:]
    return text


def _letter_class(num_choices: int) -> str:
    return f"[{LETTERS[0]}-{LETTERS[max(num_choices, 1) - 1]}]"


def _option_phrase(match: re.Match[str]) -> str:
    """The phrase for a lettered mention ("an option"), capitalised at a sentence start."""
    phrase = "some options" if match.group(2) else "an option"
    starts_sentence = re.search(r"(?:^|[.!?][ \t]+)$", match.string[: match.start()], re.M)
    return phrase.capitalize() if starts_sentence else phrase


def hide_letters(text: str, num_choices: int) -> str:
    """Remove the letters that name options: "option B", "(B)", "B." labels, "is B.", "than B".

    "Option B" and "options A and C" become "an option" and "some options";
    labels at the start of a line are dropped; other letters that stand for an
    option (followed by punctuation or by "is", "was", "or" ...), and every
    other capital letter but "A" standing alone, become "one option".
    """
    letter = _letter_class(num_choices)
    label = rf"[\(\[]?{letter}[\)\]]?"
    grouped = re.compile(
        rf"\b((?i:option|choice|answer|letter|candidate)(s?))\s*{label}"
        rf"(?:\s*(?:,|\band\b|\bor\b|&|/)\s*{label})*(?![\w'])"
    )
    text = grouped.sub(_option_phrase, text)
    text = re.sub(rf"[ \t]*\({letter}\)", "", text)
    text = re.sub(
        rf"(?m)^(\s*(?:[-*•]|\d+[\.\)])?\s*\**){label}\**(?:[\.\):]|\s+-\s)\s*", r"\1", text
    )
    verbs = r"is|was|are|were|would|seems|and|or|vs|nor|but"
    text = re.sub(
        rf"(?<![\w'’]){letter}(?![\w'’])(?=\s*(?:[\.\),;:!?]|$)|\s+(?:{verbs})\b)",
        "one option",
        text,
    )
    # Other capital letters than "A" (an article) standing alone name an option.
    if num_choices > 1:
        others = f"[{LETTERS[1]}-{LETTERS[num_choices - 1]}]"
        text = re.sub(rf"(?<![\w'’\-.]){others}(?![\w'’\-])", "one option", text)
    return text


def hide_options(text: str, choices: Sequence[str]) -> str:
    """A reply without its answer statements, option letters and option texts.

    Args:
        text: A model's reply.
        choices: The options of the question.

    Returns:
        The reply's reasoning, with every option's text (near copies
        included) replaced by :data:`HIDDEN_TEXT` and the letters naming
        options removed. Lines left with no words are dropped.
    """
    text = strip_answer_statements(text, choices)
    text = hide_option_texts(text, choices)
    text = hide_letters(text, len(choices))
    lines = [line.strip() for line in text.splitlines()]
    return "\n".join(line[:1].upper() + line[1:] for line in lines if re.search(r"[^\W_]", line))


def shown_rationale(text: str, choices: Sequence[str], form: str = DEFAULT_RATIONALE_FORM) -> str:
    """The rationale as shown to the weaker model in the given form.

    Raises:
        ValueError: If ``form`` is not one of :data:`RATIONALE_FORMS`.
    """
    if form not in RATIONALE_FORMS:
        raise ValueError(f"unknown rationale form {form!r}; known: {', '.join(RATIONALE_FORMS)}")
    return hide_options(text, choices) if form == "hidden" else text.strip()


def _normalized(text: str) -> str:
    return " ".join(word.lower() for word in _WORD.findall(text))


def leak_counts(
    replies: Iterable[tuple[str, Sequence[str]]],
    extractor: Extractor = extract_choice,
    form: str = DEFAULT_RATIONALE_FORM,
) -> LeakCounts:
    """Count the rationales that still point at the option their full reply chose.

    Args:
        replies: (reply, options) pairs.
        extractor: The answer reader (the default one unless told).
        form: The rationale form to check (:data:`RATIONALE_FORMS`).

    Returns:
        The counts.
    """
    total = readable = same = verbatim = 0
    for reply, choices in replies:
        total += 1
        chosen = extractor(reply, choices)
        if chosen is None:
            continue
        readable += 1
        shown = shown_rationale(reply, choices, form)
        same += extractor(shown, choices) == chosen
        copy = _normalized(choices[chosen])
        verbatim += bool(copy) and f" {copy} " in f" {_normalized(shown)} "
    return LeakCounts(total, readable, same, verbatim)
