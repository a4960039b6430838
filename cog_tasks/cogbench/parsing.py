"""Strict parsing of CogBench model outputs (README, "What is read"); tolerant of profiles."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass

from cog_tasks.cogbench.metrics import LIKERT
from cog_tasks.common import reading
from cog_tasks.common.params import ParameterError

LIKERT_WORDS: dict[str, int] = {
    **dict(zip(("one", "two", "three", "four", "five"), LIKERT, strict=True)),
    **dict(zip("一二三四五", LIKERT, strict=True)),
    **{"strongly disagree": 1, "strongly agree": 5, "somewhat disagree": 2, "somewhat agree": 4},
    **{"disagree": 2, "neutral": 3, "agree": 4},
}
_REASON_LABELS = r"(?:thoughts?|reason(?:ing)?|explanation)"
_MARKUP = re.compile(r"[*#`]+")
_BARE_NUMBER = re.compile(r"^\s*[\[(]?\s*([1-5])\s*[\])]?\s*[.!]?\s*$")
_DIGIT_VALUE = re.compile(r"(?P<digit>[1-5])(?:\s*/\s*5|\s+out\s+of\s+5)?")
_DIGIT_AND_PHRASE = re.compile(
    r"(?P<digit>[1-5])\s*(?:[.,:=\-–—]\s*|\()\s*(?P<phrase>[^()]+?)\s*\)?", re.IGNORECASE
)
_ENCLOSING = "[]()\"'“”‘’<>"


def _clean(text: str) -> str:
    """The reply in the shared reading spelling (``reading.normalize``), without markdown."""
    return _MARKUP.sub("", reading.normalize(text))


def _phrase_value(phrase: str) -> int | None:
    """The value of a whole Likert phrase or number word (``None`` for anything else)."""
    return LIKERT_WORDS.get(" ".join(phrase.lower().split()))


def read_value(value: str) -> int | None:
    """Read the 1-5 value after ``Rating:``: a digit, a phrase, or both alike; else ``None``."""
    text = value.strip().rstrip(".!").strip().strip(_ENCLOSING).strip()
    digit = _DIGIT_VALUE.fullmatch(text)
    if digit:
        return int(digit.group("digit"))
    both = _DIGIT_AND_PHRASE.fullmatch(text)
    if both:
        number = int(both.group("digit"))
        return number if _phrase_value(both.group("phrase")) == number else None
    return _phrase_value(text)


def _labelled_likert(text: str, labels: str) -> int | None:
    """The value of the lines starting with ``labels``, if every label agrees, uncorrected."""
    label = reading.label(labels)
    opening = re.compile(rf"^[ \t>\-]*{label}(?P<value>[^\n]*)$", re.IGNORECASE | re.MULTILINE)
    anywhere = re.compile(rf"{label}(?P<value>[^\n]*)$", re.IGNORECASE | re.MULTILINE)
    opened = list(opening.finditer(text))
    if not opened:
        return None
    stated = [read_value(match.group("value")) for match in opened]
    elsewhere = [read_value(match.group("value")) for match in anywhere.finditer(text)]
    if None in stated or reading.retracted(text[opened[0].end() :]):
        return None
    return reading.one_answer(stated + elsewhere).value


_CLOSING_RATING = re.compile(
    r"[.!?][ \t]+rating[ \t]*[:=][ \t]*(?P<value>[^\n]*?)[ \t]*\Z", re.IGNORECASE
)
_RATING_LABEL = re.compile(r"\brating[ \t]*[:=]", re.IGNORECASE)


def _closing_rating(text: str) -> int | None:
    """The value of the reply's only ``Rating:`` label, if it closes the reply after a sentence."""
    if len(_RATING_LABEL.findall(text)) != 1:
        return None
    match = _CLOSING_RATING.search(text)
    return read_value(match.group("value")) if match else None


def _bare_number(text: str) -> int | None:
    """The rating of a reply that is nothing but one 1-5 number (``4``, ``(4)``, ``4.``)."""
    match = _BARE_NUMBER.match(text)
    return int(match.group(1)) if match else None


@dataclass(frozen=True)
class RatingAnswer:
    """A parsed questionnaire answer (``rating`` ``None`` when not unambiguous)."""

    rating: int | None
    reason: str


def parse_rating_answer(text: str) -> RatingAnswer:
    """Read a rating (labelled line, bare number or closing label) and its reasoning (README)."""
    cleaned = _clean(text).strip()
    rating = _labelled_likert(cleaned, "rating")
    if rating is None:
        rating = _bare_number(cleaned)
    if rating is None:
        rating = _closing_rating(cleaned)
    reason_match = re.search(
        rf"\b{_REASON_LABELS}\b\s*:\s*(?P<reason>.*?)(?=\brating\b\s*:|\Z)",
        cleaned,
        re.IGNORECASE | re.DOTALL,
    )
    if reason_match:
        reason = reason_match.group("reason")
    else:
        reason = re.sub(r"(?im)^.*\brating\b\s*:.*$", "", cleaned)
    return RatingAnswer(rating=rating, reason=" ".join(reason.split()))


def parse_judge_score(text: str) -> int | None:
    """Read a 1-5 Rationality score: a ``Score:`` line with one value, or just the number."""
    cleaned = _clean(text)
    score = _labelled_likert(cleaned, "(?:score|rationality)")
    return score if score is not None else _bare_number(cleaned)


def coerce_rating(value: object) -> int | None:
    """Read a rating stored in a data file: 1-5, or ``None`` when unset or unreadable."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        return int(value) if float(value).is_integer() and int(value) in LIKERT else None
    if isinstance(value, str):
        stripped = value.strip()
        if stripped.lstrip("-").isdigit():
            return coerce_rating(int(stripped))
        return parse_rating_answer(stripped).rating if stripped else None
    return None


@dataclass(frozen=True)
class KnowledgeItem:
    """A distilled knowledge statement with its 1-5 fit-with-profile score (``None``: unread)."""

    statement: str
    score: int | None


_SCORE_FIRST = re.compile(r"^\(?\[?(?P<score>[1-5])[\])]?\s*[|:\-–)]\s*(?P<text>.+)$")
_SCORE_LAST = re.compile(
    r"^(?P<text>.+?)\s*[|(\[\-–]\s*(?:score\s*[:=]?\s*)?(?P<score>[1-5])\s*(?:/\s*5)?\s*[)\]]?\s*$",
    re.IGNORECASE,
)
_LIST_MARK = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")

_CODE_FENCE = re.compile(r"^```[a-z]*\s*\n(?P<body>.*)\n\s*```$", re.DOTALL | re.IGNORECASE)
KNOWLEDGE_FORMS: tuple[str, ...] = ("json", "lines")


def _knowledge_from_json(text: str) -> list[KnowledgeItem] | None:
    """The items of a reply (optionally fenced) that is a non-empty JSON list of ``knowledge``."""
    body = text.strip()
    fenced = _CODE_FENCE.match(body)
    if fenced:
        body = fenced.group("body").strip()
    try:
        data = json.loads(body)
    except json.JSONDecodeError:
        return None
    if not isinstance(data, list) or not data:
        return None
    items = []
    for entry in data:
        statement = entry.get("knowledge") if isinstance(entry, Mapping) else None
        if not isinstance(statement, str) or not statement.strip():
            return None
        items.append(KnowledgeItem(statement.strip(), coerce_rating(entry.get("score"))))
    return items


def _knowledge_from_lines(text: str) -> list[KnowledgeItem] | None:
    """The ``<score> | <statement>`` (or ``statement (score: 4)``) lines of a reply, or ``None``."""
    items = []
    for raw_line in _clean(text).splitlines():
        line = _LIST_MARK.sub("", raw_line).strip()
        if len(line.split()) < 3:
            continue
        match = _SCORE_FIRST.match(line) or _SCORE_LAST.match(line)
        if match:
            items.append(KnowledgeItem(match.group("text").strip(), int(match["score"])))
    return items or None


def _echoes(statement: str, source: str) -> bool:
    """Whether ``statement`` only repeats ``source`` (its words, in order, are all in it)."""
    words = " ".join(re.findall(r"\w+", statement.lower()))
    return not words or f" {words} " in " " + " ".join(re.findall(r"\w+", source.lower())) + " "


def read_knowledge(text: str, form: str, source: str = "") -> list[KnowledgeItem] | None:
    """Distilled knowledge in ``form`` (``json``/``lines``) but repeats and echoes, or ``None``."""
    if form not in KNOWLEDGE_FORMS:
        raise ParameterError(f"unknown knowledge form {form!r}; use one of {KNOWLEDGE_FORMS}")
    items = _knowledge_from_json(text) if form == "json" else _knowledge_from_lines(text)
    if items is None:
        return None
    unique: dict[str, KnowledgeItem] = {}
    for item in items:
        if not (source and _echoes(item.statement, source)):
            unique.setdefault(item.statement.lower(), item)
    return list(unique.values()) or None


def profile_to_text(profile: Mapping[str, str]) -> str:
    """Render a profile as ``Key: value`` lines, in its own key order."""
    return "\n".join(f"{key}: {value}" for key, value in profile.items())


def profile_from_text(text: str) -> dict[str, str]:
    """Read ``Key: value`` lines into a profile dict (lines without a colon are ignored)."""
    profile: dict[str, str] = {}
    for line in _clean(text).splitlines():
        key, colon, value = line.partition(":")
        if colon and key.strip() and value.strip():
            profile[_LIST_MARK.sub("", key).strip()] = value.strip()
    return profile


@dataclass(frozen=True)
class ProfileUpdate:
    """Result of parsing a profile-update answer (the old keys, in the old order)."""

    profile: dict[str, str]
    changed: tuple[str, ...]
    recognised: int


def _normalise_key(key: str) -> str:
    return re.sub(r"[^a-z0-9]+", "", key.lower())


def _distinct_values(value: str) -> str:
    """Drop repeated comma-separated items (case-insensitive), keeping their order."""
    seen: dict[str, str] = {}
    for item in (part.strip() for part in value.split(",")):
        if item:
            seen.setdefault(item.lower(), item)
    return ", ".join(seen.values())


def parse_profile_update(text: str, profile: Mapping[str, str]) -> ProfileUpdate:
    """Apply the text after the last ``Updated Profile:`` to ``profile`` (empty or absent: kept)."""
    cleaned = _clean(text)
    labelled = list(re.finditer(r"updated\s+profile\s*:", cleaned, re.IGNORECASE))
    section = cleaned[labelled[-1].end() :] if labelled else cleaned
    keys = {_normalise_key(key): key for key in profile}
    updated = dict(profile)
    recognised = 0
    for line in section.splitlines():
        name, colon, value = _LIST_MARK.sub("", line).partition(":")
        key = keys.get(_normalise_key(name)) if colon else None
        if key is None:
            continue
        recognised += 1
        new_value = _distinct_values(" ".join(value.split()))
        if new_value:
            updated[key] = new_value
    changed = tuple(key for key in profile if updated[key] != profile[key])
    return ProfileUpdate(profile=updated, changed=changed, recognised=recognised)
