"""Chain of cognition: how a stronger model's reply is shown (:data:`RATIONALE_FORMS`)."""

from __future__ import annotations

import os
import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from cog_tasks.coglm.extract import LETTERS, Extractor, extract_choice, strip_answer_statements
from cog_tasks.common.params import ParameterError
from cog_tasks.common.stats import Interval, ratio_interval, wilson_interval

RATIONALE_FORMS = ("hidden", "masked", "raw")
DEFAULT_RATIONALE_FORM = "hidden"
Spans = dict[str, list[tuple[int, int]]]
HIDDEN_TEXT = "[…]"
"""What replaces an option's text in a hidden rationale."""
HIDDEN_PATTERN = re.escape(HIDDEN_TEXT)  # it, in a regular expression

# Option texts are compared word by word; a span this similar to an option is its copy.
NEAR_COPY_RATIO = 0.8
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*|[+\-=<>×÷%/]")
# A fragment of an option's text is this many of its content words in a row.
FRAGMENT_WORDS = 2
# A word and a one-word option that begin alike over this many letters share a root.
ROOT_LETTERS = 6
# A word sharing this many first letters, and this share of the shorter, with a word only one
# option holds is its form ("anxiety" of "anxious", "emission" of "emit").
FORM_LETTERS, FORM_SHARE = 3, 0.5
# An article before hidden text tells its first sound ("an […]" for "Umbrella").
_ARTICLE_BEFORE_HIDDEN = re.compile(rf"\b(?:[Aa]n?)[ \t]+(?={HIDDEN_PATTERN})")
_FUNCTION_WORDS = frozenset(
    "a an the and or but nor so of to in on at by for from with as into onto than then "
    "is are was were be been being am do does did has have had will would can could "
    "should may might must shall it its it's this that these those there here he she "
    "they them his her their we you your i me my our us not no all any each some very "
    "if when which who whom what while because also only just about option options choice".split()
)
_ORDINAL = (
    r"first|second|third|fourth|fifth|sixth|last|1st|2nd|3rd|4th|5th|6th|former|latter|final|"
    r"penultimate|initial|(?:second|next)[- ]to[- ]last|last[- ]but[- ]one"
)
_POINTER_NOUN = r"option|choice|answer|candidate|alternative|possibility|selection"
_ORDINAL_POINTER = re.compile(
    rf"\b(?:the[ \t]+)?(?:very[ \t]+)?(?:{_ORDINAL})[ \t]+(?:{_POINTER_NOUN})s?\b"
    rf"|\b(?:the[ \t]+)?(?:very[ \t]+)?(?:last|final|penultimate|(?:second|next)[- ]to[- ]last)"
    r"[ \t]+one\b"
    rf"|\b(?:{_POINTER_NOUN}|one)[ \t]+(?:(?:that|which)[ \t]+is[ \t]+)?(?:listed|mentioned|given|"
    rf"presented|shown|provided|placed)[ \t]+(?:as[ \t]+)?(?:the[ \t]+)?(?:{_ORDINAL}|at[ \t]+"
    r"the[ \t]+(?:top|end|bottom))\b"
    rf"|\b(?:the[ \t]+)?(?:{_ORDINAL})[ \t]+[a-z]+[ \t]+(?:mentioned|listed|named|given)\b"
    rf"|\b(?:{_POINTER_NOUN})[ \t]+(?:number[ \t]+|no\.[ \t]*|#[ \t]*)?"
    r"(?:one|two|three|four|five|six|[1-6])\b",
    re.IGNORECASE,
)
_NUMERALS = "zero one two three four five six seven eight nine ten eleven twelve".split()
_DIGITS = {word: str(value) for value, word in enumerate(_NUMERALS)}
# A number, time or amount ("9:30 am", "50%", "3.5", "seven"), and its bound ("less than 2").
_NUMBER = re.compile(
    r"(?:\b(?:(less|fewer|under|below)|more|greater|over|above)(?:[ \t]+than)?[ \t]+)?(?<![\w.])"
    rf"(\d+(?:[:.,]\d+)*|{'|'.join(_DIGITS)})(?:[ \t]*(?:[ap]\.?m\b\.?|%|percent\b))?"
    r"(?![\d%])(?!(?<=[a-z])\w)",  # digits may lead a term ("3n"), number words may not
    re.IGNORECASE,
)
# Where options differ in number: the verb right after hidden text, plural pronouns after it.
_AGREEING = re.compile(
    rf"(?<={HIDDEN_PATTERN})(['\")\]]*)[ \t]+(?:is|are|was|were|has|have|does|do)\b"
    rf"|({HIDDEN_PATTERN}[^\n]*?)\b(?:they|them|their|themselves|it|its|itself)\b",
    re.IGNORECASE,
)
_PLURAL_OPTION = re.compile(
    r"\W*(?:the[ \t]+)?(?:[\w'’]+[ \t]+)?(?:two|three|four|five|both|these|those|many|several|"
    r"\w{2,}[^\W\d_sui']s)\b",
    re.IGNORECASE,
)
_STANDING_LETTER = re.compile(r"(?<![\w'’\-.])([A-Z])(?![\w'’\-])")
# An order of this many steps or more that fits one option's order points at it.
ORDER_STEPS = 3
_STEP_BREAK = re.compile(r"[,;]|->|→|=>|\bthen\b", re.IGNORECASE)
# Where a rationale's clause ends: each clause's first step is its place in an order.
_CLAUSE_BREAK = re.compile(
    r"(?:\n|[.!?](?=\s|$)|[,;:→]|->|=>"
    r"|\b(?:and|then|next|finally|followed[ \t]+by|after[ \t]+that)\b)"
    r"(?![ \t]*(?:before|after)\b)",
    re.IGNORECASE,
)
_IN_STEP_GAP = re.compile(r"[ \t\-\w'’]*")


@dataclass(frozen=True)
class LeakCounts:
    """Replies: all, ``readable`` and of those ``same_option``, ``verbatim``, ``pointers``.

    ``pointers``: :func:`points_at_options`; ``kept_chars``: (shown, replied) per reply.
    """

    replies: int
    readable: int
    same_option: int
    verbatim: int
    pointers: int = 0
    kept_chars: tuple[tuple[int, int], ...] = ()

    def share(self, count: str) -> Interval:
        """``count`` (``same_option``, ``verbatim``, ``pointers``) of the readable, 95 % Wilson."""
        return wilson_interval(getattr(self, count), self.readable, unit="reply")

    def kept_interval(self) -> Interval:
        """Characters shown over characters replied, pooled over replies (bootstrap)."""
        return ratio_interval(self.kept_chars, unit="reply", bounds=(0.0, 1.0))


def _words(text: str) -> list[re.Match[str]]:
    return list(_WORD.finditer(text))


def _near_copies(text: str, choice: str) -> list[tuple[int, int]]:
    """Character spans of ``text`` that copy ``choice`` word for word or nearly so."""
    wanted = [_DIGITS.get(word.lower(), word.lower()) for word in _WORD.findall(choice)]
    found = _words(text)
    words = [_DIGITS.get(word.lower(), word.lower()) for word in map(re.Match.group, found)]
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
    """Replace every copy or near copy of an option's text by :data:`HIDDEN_TEXT`, longest first."""
    listed = dict.fromkeys(c.strip() for c in choices if c.strip())
    for choice in sorted(listed, key=len, reverse=True):
        text = _hide_spans(text, _near_copies(text, choice))
    return text


def _stem(word: str) -> str:
    """A crude English stem: "cats", "faulty", "dividing" and "divided" lose their endings."""
    word = word.lower()
    for suffix, replacement in (("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            word = word[: len(word) - len(suffix)] + replacement
            break
    for suffix in ("ly", "y", "er", "e"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: len(word) - len(suffix)]
            break
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiousl":
        word = word[:-1]  # "runn" of "running"
    return word


def _content_words(text: str) -> list[tuple[str, int, int]]:
    """``(stem, start, end)`` of every word of ``text`` that is not a function word."""
    return [
        (_stem(match.group()), match.start(), match.end())
        for match in _words(text)
        if match.group()[0].isalnum() and match.group().lower() not in _FUNCTION_WORDS
    ]


def _same_root(word: str, option: str, letters: int = ROOT_LETTERS, share: float = 0.8) -> bool:
    """Whether two stems are equal or share ``letters``+ first letters, ``share`` of the shorter."""
    if word == option:
        return True
    shared = len(os.path.commonprefix([word, option]))
    return shared >= letters and shared >= share * min(len(word), len(option))


def _in_order(run: Sequence[str], option: Sequence[str]) -> bool:
    """Whether ``run`` occurs in ``option`` as consecutive content words, in order."""
    size = len(run)
    return any(list(option[i : i + size]) == list(run) for i in range(len(option) - size + 1))


def _fragment_spans(text: str, choices: Sequence[str]) -> list[tuple[int, int]]:
    """Spans of :data:`FRAGMENT_WORDS`+ content words of ``text`` pointing at one option."""
    options = [[stem for stem, _, _ in _content_words(choice)] for choice in choices]
    words = _content_words(text)
    spans: list[tuple[int, int]] = []
    for option in options:
        if len(option) == 1:  # a one-word option: its inflected and derived forms
            spans += [(start, end) for stem, start, end in words if _same_root(stem, option[0])]
            continue
        if len(option) < FRAGMENT_WORDS:
            continue
        run: list[tuple[str, int, int]] = []
        for stem, start, end in [*words, ("", len(text), len(text))]:
            # a word stands for the option's word it is, or is a form of ("forgot", "forgotten")
            forms = (v for v in option if _same_root(stem, v, FORM_LETTERS, FORM_SHARE))
            own = stem if stem in option else next(forms, "")
            word = (own, start, end)
            gap = text[run[-1][2] : start] if run else ""
            if own and not re.search(r"[\n.!?;…]", gap):
                run.append(word)
                continue
            stems = [stem for stem, _, _ in run]
            shared = all(set(stems) <= set(other) for other in options)
            points = not shared or (
                _in_order(stems, option) and not all(_in_order(stems, o) for o in options)
            )
            if len(set(stems)) >= FRAGMENT_WORDS and points:
                spans.append((run[0][1], run[-1][2]))
            run = [word] if own else []
    return spans


def _hide_spans(text: str, spans: Iterable[tuple[int, int]]) -> str:
    """``text`` with the spans (overlapping ones merged) replaced by :data:`HIDDEN_TEXT`."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    for start, end in reversed(merged):
        text = text[:start] + HIDDEN_TEXT + text[end:]
    return text


@dataclass(frozen=True)
class _StepOrders:
    """Options ordering the same steps differently: stems per step, ``own`` stems, orders."""

    stems: tuple[frozenset[str], ...]
    own: tuple[frozenset[str], ...]
    orders: tuple[tuple[int, ...], ...]


def _step_orders(choices: Sequence[str]) -> list[_StepOrders]:
    """The groups of options that order the same :data:`ORDER_STEPS` or more steps differently."""
    groups: dict[frozenset[tuple[str, ...]], set[tuple[tuple[str, ...], ...]]] = {}
    for choice in choices:
        parts = (
            tuple(stem for stem, _, _ in _content_words(part)) for part in _STEP_BREAK.split(choice)
        )
        steps = tuple(part for part in parts if part)
        if len(set(steps)) == len(steps) >= ORDER_STEPS:
            groups.setdefault(frozenset(steps), set()).add(steps)
    found = []
    for members, orders in groups.items():
        if len(orders) < 2:
            continue
        steps = sorted(members)
        stems = tuple(frozenset(step) for step in steps)
        own = tuple(
            mine - frozenset().union(*(other for other in stems if other is not mine))
            for mine in stems
        )
        index = {step: at for at, step in enumerate(steps)}
        found.append(
            _StepOrders(stems, own, tuple(sorted(tuple(index[s] for s in o) for o in orders)))
        )
    return found


def _step_mentions(text: str, group: _StepOrders) -> list[tuple[int, int, int]]:
    """``(step, start, end)`` of every mention of a step in ``text``, in order."""
    words = _content_words(text)
    owner = {stem: step for step, stems in enumerate(group.own) for stem in stems}

    def joined(left: int, right: int) -> bool:
        return bool(_IN_STEP_GAP.fullmatch(text[words[left][2] : words[right][1]]))

    mentions: list[list[int]] = []  # step, first word, last word
    for at, (stem, _, _) in enumerate(words):
        step = owner.get(stem)
        if step is None:
            continue
        if mentions and mentions[-1][0] == step and joined(mentions[-1][2], at):
            mentions[-1][2] = at
            continue
        first, before = at, mentions[-1][2] if mentions else -1
        while first - 1 > before and words[first - 1][0] in group.stems[step]:
            if not joined(first - 1, first):
                break
            first -= 1
        mentions.append([step, first, at])
    return [(step, words[first][1], words[last][2]) for step, first, last in mentions]


def _clause_leads(text: str, mentions: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    """The first mention of each clause (:data:`_CLAUSE_BREAK`); hidden text leads with step -1."""
    ends = [match.end() for match in _CLAUSE_BREAK.finditer(text)]
    hidden = [(-1, m.start(), m.end()) for m in re.finditer(HIDDEN_PATTERN, text)]
    leads: dict[int, tuple[int, int, int]] = {}
    for mention in sorted([*mentions, *hidden], key=lambda mention: mention[1]):
        leads.setdefault(bisect_right(ends, mention[1]), mention)
    return list(leads.values())


def _in_sequence(steps: Sequence[int], sequence: Sequence[int]) -> bool:
    """Whether ``steps`` occur in ``sequence`` in their order, gaps allowed."""
    remaining = iter(sequence)
    return all(step in remaining for step in steps)


def _order_spans(text: str, choices: Sequence[str], question: str = "") -> list[tuple[int, int]]:
    """Spans of the step mentions whose order points at one option (see :func:`hide_orders`)."""
    spans: list[tuple[int, int]] = []
    for group in _step_orders(choices):
        asked = [step for step, _, _ in _step_mentions(question, group)]
        leads = _clause_leads(text, _step_mentions(text, group))
        for first in range(len(leads)):
            named: list[int] = []
            orders, last = group.orders, first
            for at in range(first, len(leads)):
                step = leads[at][0]
                if step < 0:
                    break
                if named and step == named[-1]:  # the same step again ("yoga (rule: yoga ...)")
                    last = at
                    continue
                if step in named:
                    break
                fitting = tuple(
                    o for o in orders if not named or o.index(step) > o.index(named[-1])
                )
                if not fitting:
                    break
                named.append(step)
                orders, last = fitting, at
            if len(named) >= ORDER_STEPS and len(orders) == 1 and not _in_sequence(named, asked):
                spans += [(start, end) for _, start, end in leads[first : last + 1]]
    return spans


def hide_orders(text: str, choices: Sequence[str], question: str = "") -> str:
    """Replace the step names whose order singles out one option by :data:`HIDDEN_TEXT`."""
    while spans := _order_spans(text, choices, question):
        text = _hide_spans(text, spans)
    return text


def hide_steps(text: str, choices: Sequence[str]) -> str:
    """Hide the steps of options ordering the same steps (``plan``), and step words before them."""
    groups = _step_orders(choices)
    text = _hide_spans(text, [(s, e) for g in groups for _, s, e in _step_mentions(text, g)])
    words = {word.lower() for choice in choices for word in _WORD.findall(choice)}
    verbs = {word[:-3] for word in words if word.endswith("ing")}  # "go", "hav", "swimm"
    words |= verbs | {verb + "e" for verb in verbs} | {v[:-1] for v in verbs if v[-1:] == v[-2:-1]}
    kept = "|".join(sorted(map(re.escape, words), key=len, reverse=True))  # "Go for […]"
    before = re.compile(rf"\b(?:{kept})[ \t]+(?={HIDDEN_PATTERN})", re.IGNORECASE)
    while groups and (shorter := before.sub("", text)) != text:
        text = shorter
    # A numbered line is a place in the order, even cut short ("11. Do y"): its words go.
    return (
        re.sub(r"(?m)^([ \t]*\d+[.)])[ \t]*\S.*$", rf"\1 {HIDDEN_TEXT}", text) if groups else text
    )


def _numbers(text: str) -> Spans:
    """Spans of each number, time or amount by bound, digits and unit's letter ("<2", "<2l")."""
    found: Spans = {}
    for match in _NUMBER.finditer(text):
        bound = "<" if match[1] else ">" if match.start(2) > match.start() else ""
        unit = re.match(r"[ \t-]*([^\W\d_])", text[match.end() :])
        key = bound + _DIGITS.get(match[2].lower(), match[2])
        for unit_key in {key, key + (unit[1].lower() if unit else "")}:
            found.setdefault(unit_key, []).append(match.span())
    return found


def _stems(text: str) -> Spans:
    """Spans of each content word of ``text`` by its stem, and word and stem without "s", "'s"."""
    found: Spans = {}
    for stem, start, end in _content_words(text):
        word = re.sub("['’]?s$", "", text[start:end].lower())
        for key in {stem, word, _stem(word)}:
            found.setdefault(key, []).append((start, end))
    return found


def hide_own(
    text: str, choices: Sequence[str], question: str = "", index: Callable[[str], Spans] = _numbers
) -> str:
    """Hide the numbers (``index=_stems``: words, forms) only one option holds, not the question."""
    per_option = [set(index(choice)) for choice in choices]
    asked, forms = index(question), index is _stems
    own = [
        key
        for at, keys in enumerate(per_option)
        for key in keys
        if not any(key in other for i, other in enumerate(per_option) if i != at)
        and not {key, key.lstrip("<>"), _stem(key) if forms else key} & asked.keys()
    ]
    spans = []
    for key, found in index(text).items():
        form = forms and key not in asked
        if any(
            key.lstrip("<>") == o or form and _same_root(key, o, FORM_LETTERS, FORM_SHARE)
            for o in own
        ):
            spans += found
    return _hide_spans(text, spans)


def hide_agreement(text: str, choices: Sequence[str]) -> str:
    """Hide the verb and plural pronouns after hidden text where options differ in number."""
    if len({bool(_PLURAL_OPTION.match(choice)) for choice in choices}) < 2:
        return text
    while (shorter := _AGREEING.sub(lambda m: m[2] + HIDDEN_TEXT if m[2] else m[1], text)) != text:
        text = shorter
    return text


def _balanced(text: str) -> str:
    """``text`` without unmatched brackets (:data:`HIDDEN_TEXT` counts as a word)."""
    marker = "\x00"
    text = text.replace(HIDDEN_TEXT, marker)
    drop: set[int] = set()
    for opening, closing in ("()", "[]"):
        opened: list[int] = []
        for at, character in enumerate(text):
            if character == opening:
                opened.append(at)
            elif character == closing:
                if opened:
                    opened.pop()
                else:
                    drop.add(at)
        drop.update(opened)
    kept = "".join(c for at, c in enumerate(text) if at not in drop)
    return kept.replace(marker, HIDDEN_TEXT)


def _sentence_start(match: re.Match[str]) -> bool:
    return bool(re.search(r"(?:^|[.!?][ \t]+)$", match.string[: match.start()], re.M))


def hide_ordinals(text: str) -> str:
    """Replace "the fourth option", "the last choice", "option 2" ... by "one option"."""
    return _ORDINAL_POINTER.sub(
        lambda match: "One option" if _sentence_start(match) else "one option", text
    )


def points_at_options(text: str, choices: Sequence[str], question: str = "") -> bool:
    """Whether ``text`` holds an ordinal pointer, an option's fragment or an order of steps."""
    return bool(
        _ORDINAL_POINTER.search(text)
        or _fragment_spans(text, choices)
        or _order_spans(text, choices, question)
    )


def question_letters(question: str) -> frozenset[str]:
    """Capital letters standing alone in a question as entities ("If A leads to B")."""
    found = _STANDING_LETTER.finditer(question)
    opening = re.compile(r"(?:^|[.!?:][ \t]+)$", re.MULTILINE)  # an article opens ("ctx: A series")
    return frozenset(
        m.group(1) for m in found if m.group(1) != "A" or not opening.search(question, 0, m.start())
    )


def _option_phrase(match: re.Match[str]) -> str:
    """The phrase for a lettered mention ("an option"), capitalised at a sentence start."""
    phrase = "some options" if match.group(2) else "an option"
    return phrase.capitalize() if _sentence_start(match) else phrase


def hide_letters(text: str, num_choices: int, entities: frozenset[str] = frozenset()) -> str:
    """Remove the letters naming options ("option B", "(B)", "B." labels), but ``entities``."""
    letter = f"[{LETTERS[0]}-{LETTERS[max(num_choices, 1) - 1]}]"
    label = rf"(?:\({letter}\)|\[{letter}\]|{letter})"
    grouped = re.compile(
        rf"\b((?i:option|choice|answer|letter|candidate)(s?))\s*{label}"
        rf"(?:\s*(?:,|\band\b|\bor\b|&|/)\s*{label})*(?![\w'])"
    )
    text = grouped.sub(_option_phrase, text)
    # A letter right before hidden text labels that option's text, entity or not ("B. […]").
    text = re.sub(rf"(?<![\w'’])\(?{label}\)?[.):]?[ \t]*(?={HIDDEN_PATTERN})", "", text)
    # A letter stated as the answer names an option, entity or not ("The option is: D").
    stated = r"\b((?i:option|choice|answer)[ \t]+(?i:is|would[ \t]+be)[ \t]*:?[ \t]*)"
    text = re.sub(rf"{stated}{label}(?![\w'’])(?![ \t]+[a-z])", r"\1one option", text)
    text = re.sub(rf"[ \t]*\({letter}\)", "", text)
    text = re.sub(
        rf"(?m)^(\s*(?:[-*•]|\d+[\.\)])?\s*\**){label}\**(?:[\.\):]|\s+-\s)\s*", r"\1", text
    )
    free = "".join(c for c in LETTERS[:num_choices] if c not in entities)
    if not free:
        return text
    verbs = r"is|was|are|were|would|seems|and|or|vs|nor|but"
    text = re.sub(
        rf"(?<![\w'’])[{free}](?![\w'’])(?=\s*(?:[\.\),;:!?]|$)|\s+(?:{verbs})\b)",
        "one option",
        text,
    )
    # A free letter leading a number labels an option's part ("B1-B2-B3"); letters joined by
    # dashes, arrows or commas are a run of options ("B-B-B-D").
    text = re.sub(rf"(?<![\w'’.])[{free}]\d+(?![\w'’])", "one option", text)
    joined = r"[ \t]*(?:-|–|->|→|,)[ \t]*"
    text = re.sub(rf"(?<![\w'’.])[{free}](?:{joined}[{free}])+(?![\w'’])", "one option", text)
    # Other capital letters than "A" (an article) standing alone name an option.
    others = free.replace("A", "")
    if others:
        text = re.sub(rf"(?<![\w'’\-.])[{others}](?![\w'’\-])", "one option", text)
    return text


# A sentence ends at a line's end or after ".", "!" or "?" and a space; a list label is no end.
_SENTENCE_END = re.compile(r"(?<!^\d\.)(?<!^\d\d\.)(?<=[.!?])[ \t]+")


def hide_sentences(text: str) -> str:
    """Every sentence holding :data:`HIDDEN_TEXT` hidden whole, and each run of them as one.

    Whatever shares a sentence with a hidden option (an article, a verb agreeing with it, a
    comparative, a position, a step label) could fit one option only, so none of it is kept.
    """
    lines = []
    for line in text.splitlines():
        kept = [
            HIDDEN_TEXT if HIDDEN_TEXT in sentence else sentence
            for sentence in _SENTENCE_END.split(line.strip())
        ]
        runs = [s for at, s in enumerate(kept) if s != HIDDEN_TEXT or kept[at - 1 : at] != [s]]
        lines.append(" ".join(runs))
    return "\n".join(
        line for at, line in enumerate(lines) if line != HIDDEN_TEXT or lines[at - 1 : at] != [line]
    )


def hide_options(
    text: str, choices: Sequence[str], question: str = "", sentences: bool = True
) -> str:
    """A reply without answer statements, option letters, ordinals, option texts and orders.

    ``sentences``: and without any sentence that held one of them (:func:`hide_sentences`).
    """
    reply = text
    text = strip_answer_statements(text, choices, HIDDEN_TEXT if sentences else "")
    text = hide_option_texts(text, choices)
    text = _hide_spans(text, _fragment_spans(text, choices))
    text = hide_own(text, choices, question, _stems)
    text = hide_orders(text, choices, question)
    text = hide_steps(text, choices)
    text = hide_own(text, choices, question)
    text = hide_ordinals(text)
    text = hide_letters(text, len(choices), question_letters(question))
    text = hide_agreement(text, choices)
    text = _ARTICLE_BEFORE_HIDDEN.sub("", text)
    if sentences:
        text = hide_sentences(text)
    if _balanced(reply) == reply:
        text = _balanced(text)
    lines = [line.strip() for line in text.splitlines()]
    return "\n".join(line[:1].upper() + line[1:] for line in lines if re.search(r"[^\W_]", line))


def shown_rationale(
    text: str, choices: Sequence[str], form: str = DEFAULT_RATIONALE_FORM, question: str = ""
) -> str:
    """The rationale as shown to the weaker model in ``form`` (:data:`RATIONALE_FORMS`)."""
    if form not in RATIONALE_FORMS:
        raise ParameterError(
            f"unknown rationale form {form!r}; known: {', '.join(RATIONALE_FORMS)}"
        )
    if form == "raw":
        return text.strip()
    return hide_options(text, choices, question, sentences=form == "hidden")


def _normalized(text: str) -> str:
    return " ".join(word.lower() for word in _WORD.findall(text))


def leak_counts(
    replies: Iterable[tuple[str, Sequence[str], str]],
    extractor: Extractor = extract_choice,
    form: str = DEFAULT_RATIONALE_FORM,
) -> LeakCounts:
    """Count the rationales of ``(reply, options, question)`` still pointing at the choice."""
    total = readable = same = verbatim = pointers = 0
    kept: list[tuple[int, int]] = []
    for reply, choices, question in replies:
        total += 1
        chosen = extractor(reply, choices)
        if chosen is None:
            continue
        readable += 1
        shown = shown_rationale(reply, choices, form, question)
        same += extractor(shown, choices) == chosen
        copy = _normalized(choices[chosen])
        verbatim += bool(copy) and f" {copy} " in f" {_normalized(shown)} "
        pointers += points_at_options(shown, choices, question)
        kept.append((len(shown), len(reply.strip())))
    return LeakCounts(total, readable, same, verbatim, pointers, tuple(kept))
