"""A leak detector for hidden chain-of-cognition rationales, rules of its own (:data:`RULES`)."""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate, pairwise, takewhile

from cog_tasks.coglm.rationale import HIDDEN_PATTERN, HIDDEN_TEXT

RULES = tuple(
    "order ordinal token brackets words forms letter list agreement quantity article comparative "
    "label position pair".split()
)
MIN_ORDER_STEPS = 3
"""Steps named in one option's order that make an ``order`` leak."""
_KEY_LETTERS = 4
_STOP = frozenset(
    "the and for with from into then that this some going visit visiting take taking "
    "make making have having doing does before after".split()
)
_STEP_SPLIT = re.compile(r",|;|->|→|\bthen\b", re.IGNORECASE)
_WORD = re.compile(r"[a-z][a-z'’]+")
_NUMBER_WORDS = "one|two|three|four|five|six"
_PLACE = (
    r"first|second|third|fourth|fifth|sixth|last|final|penultimate|initial|latter|former|"
    r"1st|2nd|3rd|4th|5th|6th|second[- ]to[- ]last|next[- ]to[- ]last|last[- ]but[- ]one|"
    r"top|bottom|middle"
)
_NOUN = r"option|choice|answer|alternative|candidate|possibility|selection"
_ORDINALS = re.compile(
    rf"\b(?:the|this|that)\s+(?:very\s+)?(?:{_PLACE})\s+(?:listed\s+|given\s+|mentioned\s+)?"
    rf"(?:{_NOUN})s?\b(?<!final answer)(?<!final choice)(?<!final selection)"
    r"|\bthe\s+(?:very\s+)?(?:last|final|penultimate|second[- ]to[- ]last|next[- ]to[- ]last)"
    r"\s+one\b"
    rf"|\b(?:{_NOUN}|one)\s+(?:that\s+is\s+|which\s+is\s+)?(?:listed|mentioned|given|"
    rf"presented|shown|provided|placed)\s+(?:as\s+)?(?:the\s+)?(?:{_PLACE}|at\s+the\s+"
    r"(?:top|end|bottom))\b"
    rf"|\b(?:option|choice|answer|alternative)[ \t]*(?:#|no\.?|number)?[ \t]*"
    rf"(?:[1-6]|{_NUMBER_WORDS})\b",
    re.IGNORECASE,
)
#: Words that tell no option apart (``words`` rule): grammar, and what names options; not "less".
_GRAMMAR = frozenset(
    "a an the and or but nor of to in on at by for from with as into onto than then is are was "
    "were be been being am do does did has have had will would can could should may might must "
    "it its this that these those there here he she they them his her their we you your i me my "
    "our us not no all any some each every very if when which who whom what while because also "
    "only just about one two so such both either neither other same option choice answer".split()
)
#: An answer's letter stated in words ("The correct option is: D"), entities or not.
_STATED_LETTER = re.compile(
    r"\b(?:option|choice|answer)[ \t]+(?:is|would[ \t]+be|will[ \t]+be)[ \t]*:?[ \t]*"
    r"\(?(?-i:([A-H]))\)?(?=[ \t]*(?:[.,;:!?]|$))",
    re.IGNORECASE | re.MULTILINE,
)
_ENDING = re.compile(r"(?<=[a-z']{3})(?:(ies)|ing|ed|(?<!s)s)$")
_TOKEN = re.compile(
    r"(?<![\w.])\d+(?:[:.,]\d+)*(?:\s*(?:a\.?m\.?|p\.?m\.?|%|percent))?(?![\w])", re.IGNORECASE
)

_LIST_LINE = re.compile(r"^[ \t]*(\d+)[.)][ \t]*(.*)$", re.MULTILINE)
_AGREEING = re.compile(
    HIDDEN_PATTERN + r"(?:['\")\]]*[ \t]+(?:is|are|was|were|has|have|does|do)\b"
    r"|[^\n]*?\b(?:they|them|their|it|its|itself)\b)",
    re.IGNORECASE,
)
_PLURAL = frozenset("two three four five both these those many several".split())
_NUMERALS = "zero one two three four five six seven eight nine ten eleven twelve".split()
_BELOW = "less|fewer|lower|smaller|under|below"
_QUANTITY = re.compile(
    rf"(?:\b({_BELOW}|more|greater|higher|larger|over|above)(?:\s+than)?\s+)?(?<![\w.])"
    rf"(\d+(?:\.\d+)?|{'|'.join(_NUMERALS)})(?!\d|\.\d)(?!(?<=[a-z])\w)"
    rf"(?:[\s-]*({HIDDEN_PATTERN}|[a-z]))?"
    rf"(?:\w*\s+or\s+({_BELOW}|more|higher|above|greater))?",
    re.IGNORECASE,
)


#: Grammar that fits some options only: a determiner before hidden text, a comparison after it.
_ARTICLE = re.compile(rf"\b(?:the|an?|this|that|these|those)[ \t]+{HIDDEN_PATTERN}", re.IGNORECASE)
_COMPARATIVE = re.compile(rf"{HIDDEN_PATTERN}(?:[ \t]+[\w'’]+){{0,2}}[ \t]+than\b", re.IGNORECASE)
#: A place in a list named with a noun, then hidden or "mentioned" ("the third animal, which
#: is […]", "the last animal mentioned").
_POSITION = re.compile(
    r"\bthe[ \t]+(?:very[ \t]+)?(?:first|second|third|fourth|fifth|sixth|last|final|penultimate)"
    rf"[ \t]+([a-z]+)(?:[ \t]+(?:mentioned|listed|named|given)\b|[^.!?\n]*?{HIDDEN_PATTERN})",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Leak:
    """What a hidden rationale still shows: the ``rule`` (:data:`RULES`) and the ``text``."""

    rule: str
    text: str


def _key(word: str) -> str:
    return word.lower()[:_KEY_LETTERS]


def _steps(choice: str) -> tuple[frozenset[str], ...]:
    """Per step of an option, the keys of its words (:data:`_STOP` words left out)."""
    return tuple(
        frozenset(_key(w) for w in _WORD.findall(part.lower()) if w not in _STOP and len(w) > 2)
        for part in _STEP_SPLIT.split(choice)
        if part.strip()
    )


def _first_mentions(text: str, own: dict[str, int]) -> list[int]:
    """Steps in the order of their first mention in ``text``."""
    seen: list[int] = []
    for word in _WORD.findall(text.lower()):
        step = own.get(_key(word))
        if step is not None and step not in seen:
            seen.append(step)
    return seen


def _fits(named: Sequence[int], order: Sequence[int]) -> bool:
    """Whether ``named`` steps occur in ``order`` in the same order."""
    where = {step: at for at, step in enumerate(order)}
    places = [where[step] for step in named if step in where]
    return len(places) == len(named) and places == sorted(places)


def order_leaks(text: str, choices: Sequence[str], question: str = "") -> list[Leak]:
    """The ``order`` leaks of ``text``: steps named in an order only one option has."""
    options = [_steps(choice) for choice in choices]
    steps = sorted(
        {step for option in options if len(option) >= MIN_ORDER_STEPS for step in option},
        key=sorted,
    )
    index = {step: at for at, step in enumerate(steps)}
    orders = {
        tuple(index[s] for s in option)
        for option in options
        if option and all(s in index for s in option)
    }
    if len(orders) < 2:
        return []
    counts = Counter(key for step in steps for key in step)
    own = {key: index[step] for step in steps for key in step if counts[key] == 1}
    named = _first_mentions(text, own)
    asked = _first_mentions(question, own)
    # The longest run of named steps, in their order, that fits exactly one option's order.
    best: list[int] = []
    for start in range(len(named)):
        for end in range(len(named), start + MIN_ORDER_STEPS - 1, -1):
            run = named[start:end]
            fitting = [order for order in orders if _fits(run, order)]
            if len(fitting) == 1 and len(run) > len(best) and not _fits(run, asked):
                best = run
    if not best:
        return []
    return [Leak("order", " < ".join("/".join(sorted(steps[s])) for s in best))]


def ordinal_leaks(text: str, question: str = "") -> list[Leak]:
    """The ``ordinal`` leaks of ``text`` that the question does not hold itself."""
    asked = question.lower()
    return [
        Leak("ordinal", match.group())
        for match in _ORDINALS.finditer(text)
        if " ".join(match.group().lower().split()) not in " ".join(asked.split())
    ]


def _tokens(text: str) -> set[str]:
    return {
        re.sub(r"([ap])\.?m\.?$", r"\1m", re.sub(r"\s+", "", match.group().lower()))
        for match in _TOKEN.finditer(text)
    }


def token_leaks(text: str, choices: Sequence[str], question: str = "") -> list[Leak]:
    """The ``token`` leaks of ``text``: numbers or times only one option holds."""
    per_option = [_tokens(choice) for choice in choices]
    asked = _tokens(question)
    found = _tokens(text)
    leaks = []
    for at, tokens in enumerate(per_option):
        others = set().union(*(t for i, t in enumerate(per_option) if i != at))
        for token in sorted(tokens - others - asked):
            # A bare number also counts when the option has it with a unit ("9:30" of "9:30am").
            bare = re.sub(r"(am|pm|%|percent)$", "", token)
            if token in found or (bare != token and bare in found and bare not in others):
                leaks.append(Leak("token", token))
    return leaks


def _word_keys(text: str) -> set[str]:
    """Lower-case words of ``text`` (3+ letters, not :data:`_GRAMMAR`) without -s, -ed, -ing."""
    words = {w.removesuffix("'s") for w in _WORD.findall(text.lower().replace("’", "'"))}
    keys = {word: _ENDING.sub(lambda m: "y" if m.group(1) else "", word) for word in words}
    return {key for word, key in keys.items() if len(key) > 2 and not {word, key} & _GRAMMAR}


def _related(word: str, other: str) -> bool:
    """Whether the shorter word (4+ letters) begins the longer, or 4+ and half its letters do."""
    short, long = sorted((word, other), key=len)
    shared = len(os.path.commonprefix([short, long]))
    return len(short) >= 4 and (long.startswith(short) or shared >= max(4, len(short) / 2))


def word_leaks(text: str, choices: Sequence[str], question: str = "") -> list[Leak]:
    """``words``: words only one option holds, not the question; ``forms``: their other forms."""
    held = Counter(key for choice in choices for key in _word_keys(choice))
    asked = _word_keys(question)
    forms = asked | {key[:n] for key in asked for n in range(4, len(key))}  # and their starts
    own = [key for key, n in held.items() if n == 1 and not any(_related(key, q) for q in asked)]
    words = sorted(_word_keys(text))
    return [
        Leak("words", word)
        for word in words
        if held[word] == 1
        and word not in forms
        and not any(word[:n] in asked for n in range(4, len(word)))
    ] + [
        Leak("forms", word)
        for word in words
        if not held[word] and any(_related(word, o) for o in own)
    ]


def letter_leaks(text: str, num_choices: int) -> list[Leak]:
    """The ``letter`` leaks of ``text``: an option's letter stated as the answer."""
    return [
        Leak("letter", match.group())
        for match in _STATED_LETTER.finditer(text)
        if ord(match.group(1)) - ord("A") < num_choices
    ]


def _unbalanced(text: str) -> bool:
    text = text.replace(HIDDEN_TEXT, "")
    for opening, closing in ("()", "[]"):
        depths = [0, *accumulate((c == opening) - (c == closing) for c in text)]
        if min(depths) < 0 or depths[-1]:
            return True
    return False


def bracket_leaks(hidden: str, reply: str) -> list[Leak]:
    """A ``brackets`` leak when hiding unbalanced the brackets of a balanced reply."""
    if _unbalanced(hidden) and not _unbalanced(reply):
        return [Leak("brackets", "unbalanced")]
    return []


def _in_step(word: str, step: str) -> bool:
    """Whether ``word`` is a word of ``step`` or the bare verb of its "-ing" word ("go", "have")."""
    root = re.escape(word[:-1] if word.endswith("e") and len(word) > 2 else word)
    return bool(re.search(rf"\b(?:{re.escape(word)}|{root}\w?ing)\b", step))


def list_leaks(text: str, choices: Sequence[str]) -> list[Leak]:
    """The ``list`` leaks: the step words numbered lines begin with fit one option's order only."""
    orders = {tuple(p.strip().lower() for p in _STEP_SPLIT.split(c) if p.strip()) for c in choices}
    orders = {order for order in orders if len(order) >= MIN_ORDER_STEPS}
    fitting, kept = set(orders), []
    for number, line in _LIST_LINE.findall(text):
        words = _WORD.findall(line.split(HIDDEN_TEXT)[0].lower())
        at = int(number) - 1
        for word in takewhile(lambda w: any(_in_step(w, s) for o in orders for s in o), words):
            kept.append(f"{number}. {word}")
            fitting = {o for o in fitting if at < len(o) and _in_step(word, o[at])}
    narrowed = kept and 0 < len(fitting) < len(orders)
    return [Leak("list", "; ".join(kept))] if len(orders) > 1 and narrowed else []


def agreement_leaks(text: str, choices: Sequence[str]) -> list[Leak]:
    """``agreement``: a verb or plural pronoun after hidden text where options differ in number."""
    firsts = [re.findall(r"[\w'’]+", choice.lower().removeprefix("the "))[:2] for choice in choices]
    plural = {any(w in _PLURAL or re.fullmatch(r"\w{2,}[^sui']s", w) for w in ws) for ws in firsts}
    if len(plural) < 2:
        return []
    return [Leak("agreement", match.group()) for match in _AGREEING.finditer(text)]


def _quantities(text: str) -> set[tuple[str, float, str]]:
    """``(bound, value, unit's letter)`` of each number but list numbers ("?": a hidden unit)."""
    found = set()
    for before, value, unit, after in _QUANTITY.findall(re.sub(r"(?m)^\s*\d+[.)]\s", "", text)):
        word = (before or after).lower()
        bound = word and "<>"[word not in _BELOW.split("|")]
        value = str(_NUMERALS.index(value.lower())) if value.lower() in _NUMERALS else value
        found.add((bound, float(value), "?" if unit == HIDDEN_TEXT else unit.lower()))
    return found


def quantity_leaks(text: str, choices: Sequence[str], question: str = "") -> list[Leak]:
    """``quantity``: a number, bound, unit of one option only that the question does not state."""
    held = [_quantities(choice) for choice in choices]
    asked, leaks = _quantities(question), []
    for bound, value, unit in sorted(_quantities(text)):
        units = {
            (at, u)
            for at, q in enumerate(held)
            for b, v, u in q
            if (b, v) == (bound, value) and unit in ("?", "", u)
        }
        stated = any(
            v == value and (not unit or u in {"", *(x for _, x in units)}) for _, v, u in asked
        )
        if len({at for at, _ in units}) == 1 and not stated:
            leaks.append(Leak("quantity", f"{bound}{value:g} {unit}"))
    return leaks


def grammar_leaks(text: str) -> list[Leak]:
    """``article`` and ``comparative``: grammar around hidden text that fits some options only."""
    return [Leak("article", m.group()) for m in _ARTICLE.finditer(text)] + [
        Leak("comparative", m.group()) for m in _COMPARATIVE.finditer(text)
    ]


def label_leaks(text: str, num_choices: int, question: str = "") -> list[Leak]:
    """``label``: an option's letter leading a number ("B1") or dashed to another ("B-B-D")."""
    letter = f"[A-{chr(ord('A') + num_choices - 1)}]"
    labels = re.finditer(rf"\b{letter}\d+\b|\b{letter}(?:[ \t]*[-–][ \t]*{letter})+\b", text)
    asked = re.sub(r"\s", "", question)
    return [Leak("label", m.group()) for m in labels if re.sub(r"\s", "", m.group()) not in asked]


def position_leaks(text: str) -> list[Leak]:
    """``position``: a place in a list named with its noun, told or hidden ("the third animal")."""
    return [Leak("position", m.group()) for m in _POSITION.finditer(text)]


def _pairs(text: str) -> set[tuple[str, str]]:
    """Each two words in a row within a clause, as :func:`_word_keys` keys them."""
    pairs = set()
    for clause in re.split(r"[.,;:!?()\n]", text.lower()):
        keys = [key for word in _WORD.findall(clause) for key in _word_keys(word)]
        pairs |= set(pairwise(keys))
    return pairs


def pair_leaks(text: str, choices: Sequence[str], question: str = "") -> list[Leak]:
    """``pair``: two words in a row that only one option holds so, and the question does not."""
    held = Counter(pair for choice in choices for pair in _pairs(choice))
    own = {pair for pair, n in held.items() if n == 1} - _pairs(question)
    return [Leak("pair", " ".join(pair)) for pair in sorted(_pairs(text) & own)]


def find_leaks(hidden: str, reply: str, choices: Sequence[str], question: str = "") -> list[Leak]:
    """Every leak of a hidden rationale by every rule, in :data:`RULES` order."""
    return [
        *order_leaks(hidden, choices, question),
        *ordinal_leaks(hidden, question),
        *token_leaks(hidden, choices, question),
        *bracket_leaks(hidden, reply),
        *word_leaks(hidden, choices, question),
        *letter_leaks(hidden, len(choices)),
        *list_leaks(hidden, choices),
        *agreement_leaks(hidden, choices),
        *quantity_leaks(hidden, choices, question),
        *grammar_leaks(hidden),
        *label_leaks(hidden, len(choices), question),
        *position_leaks(hidden),
        *pair_leaks(hidden, choices, question),
    ]
