"""One reading policy for every reply a cog-tasks reader (``ours``) reads.

1. **One answer.** A reply yields an answer only when it gives exactly one in the asked form
   (repeats count once, :func:`one_answer`).
2. **Different answers are ambiguous**: two values, a retraction ("Actually", "No wait"), a
   hedge ("or", "maybe") (:data:`RETRACTION`, :data:`HEDGE`), a letter whose own words name
   another option; other options discussed after the answer are no answers (:func:`discussed`).
3. **One spelling** (:func:`normalize`, :func:`label`): compatibility forms as ASCII, markdown
   marks dropped, arrows as ``->``; superscript and circled digits are never values.
4. **Fixed places.** The asked label first, then the closing line; never a guess from prose.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

T = TypeVar("T", bound=Hashable)
Outcome = Literal["answer", "ambiguous", "none"]
ANSWER: Outcome = "answer"
AMBIGUOUS: Outcome = "ambiguous"
NONE: Outcome = "none"

#: Digits that are not digits of an answer: superscript, subscript, circled, parenthesised.
_NOT_DIGITS = re.compile(
    "[\u2070\u00b9\u00b2\u00b3\u2074-\u2079\u2080-\u2089\u2460-\u24ff\u2776-\u2793\u3251-\u325f]"
)
#: Stand-in for a digit that is not one: not a digit, not a word character after NFKC.
NOT_A_DIGIT = "\u00a4"
_ARROWS = re.compile("[\u2192\u21d2\u21e8\u2794\u279c\u279d\u279e\u27f6\u27f9\u21a6]")
_MARKDOWN = re.compile(r"\*+|`+|(?<!\w)_{1,2}|_{1,2}(?!\w)|^#+[ \t]*", re.MULTILINE)

#: A self-correction or retraction: what follows it replaces or withdraws an answer.
RETRACTION = re.compile(
    r"\b(?:actually|on (?:second thought|reflection|further (?:thought|reflection))|no,? wait"
    r"|correction|i meant|changed? my mind|scratch that|let me (?:correct|reconsider|revise)"
    r"|alternatively|(?:is|was|seems) (?:wrong|incorrect|not (?:right|correct)))\b"
    r"|\b(?:wait|i mean|rather|instead),|\bno,[ \t]*(?=\d)",
    re.IGNORECASE,
)
#: A hedge: a second answer offered beside the first.
HEDGE = re.compile(r"\b(?:or|either|maybe|perhaps|possibly)\b|\bbut\b[^\n]*\balso\b", re.IGNORECASE)

#: After a lettered answer: a hedge or self-correction naming a letter ("A. Or maybe B.",
#: "A (or possibly B)", "A. No wait, B.", "A. On reflection the answer is B."). It opens
#: a clause ("medication A and/or B" is none); the letter follows within four words.
AFTERTHOUGHT = re.compile(
    r"(?:^|[.;,:!?(\n\u2014-])[ \t]*(?i:or|maybe|possibly|perhaps|alternatively|actually"
    r"|no,?[ \t]+wait|wait|correction|on[ \t]+(?:second[ \t]+thought|reflection)|i[ \t]+meant)\b"
    r"\W+(?:[a-z]+\W+){0,4}?(?:(?i:option|choice)\W+)?\(?([A-Z])(?![A-Za-z])"
)


@dataclass(frozen=True)
class Reading(Generic[T]):
    """What a reader took from a reply: ``outcome`` ``answer``, ``ambiguous`` or ``none``."""

    value: T | None
    outcome: Outcome


def one_answer(values: Iterable[T | None]) -> Reading[T]:
    """The one answer among ``values`` (``None`` is no answer; different ones are ambiguous)."""
    distinct = list(dict.fromkeys(value for value in values if value is not None))
    if len(distinct) == 1:
        return Reading(distinct[0], ANSWER)
    return Reading(None, AMBIGUOUS if distinct else NONE)


def normalize(text: str | None) -> str:
    """``text`` in the one spelling every reader reads (see the module docstring)."""
    text = _NOT_DIGITS.sub(NOT_A_DIGIT, text or "")
    text = unicodedata.normalize("NFKC", text)
    text = _ARROWS.sub("->", text)
    return _MARKDOWN.sub("", text)


def label(words: str) -> str:
    """A regex source (``re.IGNORECASE``) for the label ``words``, a remark, then ``:``, ``=``..."""
    return (
        rf"(?<![\w-]){words}(?![\w-])(?:[ \t]*\([^()\n]*\))?[ \t]*"
        r"(?:[:=\-\u2013\u2014][ \t]*|(?<=[\w)])[ \t]+)"
    )


def closing_line(text: str) -> str:
    """The last line of ``text`` that holds a word or a digit."""
    lines = [line for line in text.splitlines() if re.search(r"\w", line)]
    return lines[-1].strip() if lines else ""


def retracted(after: str) -> bool:
    """Whether the text after an answer retracts or corrects it (:data:`RETRACTION`)."""
    return bool(RETRACTION.search(after))


def hedged(text: str) -> bool:
    """Whether ``text`` offers a second answer beside the first (:data:`HEDGE`)."""
    return bool(HEDGE.search(text))


def afterthought(after: str, letter: str, letters: str) -> bool:
    """Whether the text ``after`` a lettered answer offers another of ``letters``."""
    return any(
        match.group(1) != letter.upper() and match.group(1) in letters
        for match in AFTERTHOUGHT.finditer(after)
    )


#: Words that give a mentioned option as an answer ("(B) is also right"), unless negated; a
#: mention alone or with "or" is an answer too, "(B) Ice cream is a dessert" discusses it.
_APPROVAL = re.compile(r"\b(?:correct|right|true|valid|best|answer|also|too)\b", re.I)
_NEGATION = re.compile(r"\b(?:not|no|never|cannot|incorrect|wrong|false|unlikely)\b|n't\b", re.I)


def discussed(clause: str) -> bool:
    """Whether ``clause``, after another option's mention, discusses it, not gives it."""
    opening = (clause.split() or ["or"])[0].lower()
    return opening not in ("or", "and") and (
        bool(_NEGATION.search(clause)) or not _APPROVAL.search(clause)
    )


_WORD_HYPHEN = re.compile(r"(?<=[^\W\d])-(?=[^\W\d])")
# Punctuation dropped before texts are compared; arithmetic signs are kept ("D - 5" != "D + 5").
_NOT_KEPT = re.compile(r"[^\w\s+\-=<>×÷%/]")


def words(text: str) -> str:
    """``text``'s words for comparing texts: lower case, no quotes or punctuation, signs kept."""
    lowered = re.sub(r"[\"'`“”‘’]", "", text.lower().strip().replace("−", "-"))
    return " ".join(_NOT_KEPT.sub(" ", _WORD_HYPHEN.sub(" ", lowered)).split()).strip(" -/")


def spelled_option(text: str, options: Sequence[str]) -> int | None:
    """The one option whose whole text ``text`` spells (as :func:`words`), else ``None``."""
    spelled = words(text)
    exact = [i for i, option in enumerate(options) if spelled and words(option) == spelled]
    return exact[0] if len(exact) == 1 else None


def names_another(index: int | None, text: str, options: Sequence[str]) -> bool:
    """Whether the words a letter carries spell another option's whole text ("A. <B's text>")."""
    return spelled_option(text, options) not in (None, index)
