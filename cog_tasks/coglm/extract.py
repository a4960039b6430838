r"""Extract which option a free-text answer chose (the ``ours`` reader of :data:`EXTRACTORS`).

:func:`extract_choice` returns ``None`` where no single option is named; hedges
are invalid (docs/chat_protocol.md).
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Sequence

from cog_tasks.coglm.authors_rule import authors_gpt_choice, authors_llama_choice
from cog_tasks.common import reading
from cog_tasks.common.params import ParameterError

LETTERS = string.ascii_uppercase

Extractor = Callable[[str | None, Sequence[str]], int | None]

_SPEAKER_TAG = re.compile(r"^\s*(?:assistant|answer|response|model|a)\s*:\s*(?=\S)", re.IGNORECASE)
_OPTION_WORD = r"(?:option|choice|letter|candidate)?\s*"
# A bracketed letter, a capital letter, or a lowercase letter before punctuation or the
# end ("the answer is b."); a lowercase word like the article in "the answer is a
# combination of ..." is not a letter.
_LETTER = (
    r"(?:[\(\[\{\*]+([A-Za-z])[\)\]\}\*]*"
    r"|(?-i:([A-Z]))[\)\]\}\*]*"
    r"|(?-i:([a-z]))(?=[ \t]*(?:[\.\),;:!]|$)))"
)
# At most one line break between a statement and its letter (no blank line).
_GAP = r"[ \t]*(?:\n[ \t]*)?"
# Explicit statements of the final choice, strongest first.
_ANSWER_IS = (
    r"(?:final\s+|correct\s+|best\s+)?answer[ \t]*(?:is|would[ \t]+be|will[ \t]+be|:|=)"
    rf"[ \t]*:?{_GAP}\**"
)
_I_CHOOSE = r"\bI\s+(?:choose|pick|select|would\s+choose|will\s+choose|go\s+with)[ \t]*:?"
_PICKED = rf"{_OPTION_WORD}{_LETTER}(?![A-Za-z])"
_EXPLICIT_PATTERNS = (
    re.compile(_ANSWER_IS + _PICKED, re.IGNORECASE),
    re.compile(_I_CHOOSE + _GAP + _PICKED, re.IGNORECASE),
)
# "... is B.", "This is option B.", "would be C. Whether ...": a capital letter after "is"/"be"
# and before punctuation or the end of the line.
_IS_LETTER = re.compile(
    r"\b(?:is|be)[ \t]+(?:(?i:option|choice)[ \t]+)?\(?([A-Z])\)?(?=[\.\),;:!]|[ \t]*$)",
    re.MULTILINE,
)
_NUMBERED_LINE = re.compile(r"^\s*\d+\s*[\.\)]\s*(\S.*?)\s*$")
_BOXED = re.compile(r"\\boxed\{((?:[^{}]|\{[^{}]*\})*)\}")
_LATEX_TEXT = re.compile(r"\\(?:text|textbf|mathrm|mathbf)\{([^{}]*)\}")
_BOXED_LETTER = re.compile(r"^\(?([A-Z])\)?(?:\s*[\.\):]\s*|\s+|$)(.*)$", re.DOTALL)
_OPTION_MENTION = re.compile(r"\b(?i:option|choice)\s+\(?([A-Z])\)?(?![A-Za-z])")
_REJECTION_AFTER = re.compile(
    r"^\s*(?:is|was|would\s+be|seems|appears)?\s*(?:also\s+)?"
    r"(?:not\b|incorrect|wrong|false|unlikely|less\b|ruled\s+out|doesn|does\s+not|can\s*not|can't)",
    re.IGNORECASE,
)
_REJECTION_BEFORE = re.compile(r"(?:\bnot|\brather\s+than|\binstead\s+of|\bunlike)\s*$", re.I)
_APPROVAL_AFTER = re.compile(
    r"^\s*(?:is|would\s+be|seems)\s+(?:correct|right|true|the\s+(?:most\s+|best\s+|correct|right))",
    re.IGNORECASE,
)
_ARITHMETIC_AFTER = re.compile(r"^[ \t]*([=+\-−×÷<>])")
# Right after an answer's letter: another letter in a list ("A or B", "A, B, C, or D").
_MORE_LETTERS = re.compile(
    r"^[\)\]\}\*]*[ \t]*(?:,|/|&|\bor\b|\band\b)[ \t]*(?:or[ \t]+|and[ \t]+)?"
    r"(?:(?i:option|choice)[ \t]+)?\(?([A-Z])(?![A-Za-z])"
)
# Right after an answer's letter: it is rejected ("A is wrong").
_REJECTED_LETTER = re.compile(
    r"^[ \t]*(?:is|was|would\s+be|seems)[ \t]+(?:also[ \t]+)?"
    r"(?:not\b|incorrect|wrong|false|ruled\s+out)",
    re.IGNORECASE,
)
# A lettered option in running text ("B. a zebra"), as an echo of the option list shows it.
_LISTED_LETTER = re.compile(r"(?<![A-Za-z])([A-Z])[\.\)][ \t]*")
HEDGE = -1
"""What a rule returns for an answer naming several options: the reply is invalid."""
_LEADING_LETTER_LINE = re.compile(r"^\s*\(?([A-Z])\s*[\.\):]\s*(.*)$")
_BARE_LETTER = re.compile(r"^\s*[\(\[\*]*([A-Z])[\)\]\*]*\s*[\.\!]?\s*$")
_PAREN_LETTER = re.compile(r"\(([A-Z])\)")
_OTHER_LETTER = re.compile(r"\([A-Z]\)|\b(?:or|and|vs\.?)\s+[A-Z]\b")


def _letter_index(letter: str, num_choices: int) -> int | None:
    index = LETTERS.index(letter.upper())
    return index if index < num_choices else None


def _from_choice_text(text: str, choices: Sequence[str]) -> int | None:
    """Match the answer against the choices' own text (exact, else one mentioned, not negated)."""
    answer = reading.words(text)
    if not answer:
        return None
    exact = reading.spelled_option(text, choices)
    if exact is not None:
        return exact
    normalized = [reading.words(choice) for choice in choices]
    mentioned = [
        i
        for i, choice in enumerate(normalized)
        if choice
        and any(
            not _REJECTION_BEFORE.search(answer[: found.start()])
            for found in re.finditer(
                rf"(?<![\w+\-=<>×÷%/]){re.escape(choice)}(?![\w+=<>×÷%/])", answer
            )
        )
    ]
    maximal = [
        i
        for i in mentioned
        if not any(j != i and normalized[i] in normalized[j] for j in mentioned)
    ]
    return maximal[0] if len(maximal) == 1 else None


def _spelled_at(text: str, start: int, choice: str) -> int | None:
    """Where ``choice``'s text, spelled from ``start`` (punctuation and case aside), ends."""
    chars = reading.words(choice).replace(" ", "")
    found = re.compile(r"\W*".join(map(re.escape, chars)), re.I).match(text, start)
    return found.end() if chars and found else None


def _lists_options(text: str, choices: Sequence[str]) -> bool:
    """Whether ``text`` gives an option as its letter and its text ("B. a zebra"), not discussed."""
    for match in _LISTED_LETTER.finditer(text):
        index = _letter_index(match.group(1), len(choices))
        end = None if index is None else _spelled_at(text, match.end(), choices[index])
        if end is not None and not reading.discussed(re.split(r"[.;!?\n(]", text[end:])[0]):
            return True
    return False


def _more_letters(after: str, num_choices: int) -> bool:
    """Whether another option's letter follows in a list ("A or B"), not one rejected there."""
    more = _MORE_LETTERS.match(after)
    return (
        more is not None
        and _letter_index(more.group(1), num_choices) is not None
        and not _REJECTED_LETTER.match(after[more.end() :])
    )


def _hedged(text: str, letter_end: int, choices: Sequence[str]) -> bool:
    """Whether the answer letter ending at ``letter_end`` is hedged, corrected or rejected."""
    letter, after = text[letter_end - 1], text[letter_end:]
    return (
        _more_letters(after, len(choices))
        or reading.afterthought(after, letter, LETTERS[: len(choices)])
        or bool(_REJECTED_LETTER.match(after))
        or _lists_options(_line_tail(text, letter_end), choices)
    )


def _rest_supports(rest: str, index: int, choices: Sequence[str]) -> bool:
    """Whether the text after a leading "B." agrees with option ``index`` (or names none)."""
    named = _from_choice_text(rest, choices)
    if named is not None:
        return named == index
    return _OTHER_LETTER.search(rest) is None and not _lists_options(rest, choices)


def _line_tail(text: str, start: int) -> str:
    """The rest of the line from ``start``, without a closing full stop or emphasis."""
    return text[start:].split("\n", 1)[0].rstrip(" \t.*")


# The words an answer's letter carries: the rest of its sentence, unless a reason opens it.
_OWN_WORDS = re.compile(
    r"[\)\]\}\*]*[ \t]*:?[ \t]*(?!(?i:because|since|as|which|for|so|but|and|or|if|when)\b)"
    r"([^\W_][^\n.!?]*)"
)


def _own_option(text: str, end: int, choices: Sequence[str]) -> int | None:
    r"""The option the words of a letter ending at ``end`` name ("\boxed{C} he fears frog")."""
    own = _OWN_WORDS.match(text, end)
    if own:
        return _from_choice_text(own.group(1), choices)
    if text[end : end + 1] == ".":
        return reading.spelled_option(text[end + 1 :].split("\n", 1)[0].strip(" .*"), choices)
    return None


def _stated_pick(text: str, match: re.Match[str], choices: Sequence[str]) -> int | None:
    """The option an explicit statement names, :data:`HEDGE`, or ``None`` (no option)."""
    letter = next(group for group in match.groups() if group)
    letter_end = max(match.end(i) for i in range(1, len(match.groups()) + 1) if match.group(i))
    spelled = reading.spelled_option(letter + _line_tail(text, letter_end), choices)
    if spelled is not None:
        return spelled
    index = _letter_index(letter, len(choices))
    sign = _ARITHMETIC_AFTER.match(text[letter_end:])
    if sign:
        # "B - the red box" uses the dash as a separator: it must name option B's text.
        rest = _line_tail(text, letter_end + sign.end())
        if sign.group(1) != "-" or index is None or _from_choice_text(rest, choices) != index:
            return None
    own = _own_option(text, letter_end, choices)
    if _hedged(text, letter_end, choices) or own not in (None, index):
        return HEDGE
    return index


def _explicit_pick(text: str, choices: Sequence[str]) -> int | None:
    for pattern in _EXPLICIT_PATTERNS:
        # Several explicit statements must agree (the policy of cog_tasks.common.reading).
        agreed = reading.one_answer(_stated_pick(text, m, choices) for m in pattern.finditer(text))
        if agreed.outcome != reading.NONE:
            return HEDGE if agreed.outcome == reading.AMBIGUOUS else agreed.value
    return None


def _boxed_pick(text: str, choices: Sequence[str]) -> int | None:
    r"""The option every ``\boxed{...}`` that names one names; different ones are :data:`HEDGE`."""
    picks = []
    for match in _BOXED.finditer(text):
        content = _LATEX_TEXT.sub(r"\1", match.group(1)).strip()
        lettered = _BOXED_LETTER.match(content)
        pick = None
        if lettered:
            index = _letter_index(lettered.group(1), len(choices))
            rest = lettered.group(2).strip()
            if index is not None and (not rest or _rest_supports(rest, index, choices)):
                pick = index
        elif re.fullmatch(r"\(?[a-z]\)?", content):
            pick = _letter_index(content.strip("()"), len(choices))
        if pick is None:
            pick = reading.spelled_option(content, choices)
        if pick is not None:
            own = _own_option(text, match.end(), choices)
            picks.append(pick if own in (None, pick) else HEDGE)
    agreed = reading.one_answer(picks)
    return HEDGE if agreed.outcome == reading.AMBIGUOUS else agreed.value


def _is_letter_pick(text: str, num_choices: int) -> int | None:
    """The option of every "is B." statement if they all agree; more letters are :data:`HEDGE`."""
    picks = set()
    for match in _IS_LETTER.finditer(text):
        if _more_letters(text[match.end(1) :], num_choices):
            return HEDGE
        picks.add(_letter_index(match.group(1), num_choices))
    return reading.one_answer(picks).value


def _numbered_list_pick(text: str, choices: Sequence[str]) -> int | None:
    """The option that a numbered list ("1. x", "2. y" ...) spells, joined with commas."""
    runs: list[list[str]] = [[]]
    for line in text.splitlines():
        item = _NUMBERED_LINE.match(line)
        if item:
            runs[-1].append(item.group(1).rstrip("."))
        elif runs[-1]:
            runs.append([])
    return reading.one_answer(
        reading.spelled_option(", ".join(run), choices) for run in runs if len(run) > 1
    ).value


def _mentioned_pick(text: str, num_choices: int) -> int | None:
    """The one option named as "Option X" and not rejected; more letters are :data:`HEDGE`."""
    kept: dict[int, bool] = {}
    for match in _OPTION_MENTION.finditer(text):
        index = _letter_index(match.group(1), num_choices)
        after, before = text[match.end() :], text[: match.start()]
        if index is None or _REJECTION_AFTER.match(after) or _REJECTION_BEFORE.search(before):
            continue
        if _more_letters(after, num_choices):
            return HEDGE
        kept[index] = kept.get(index, False) or bool(_APPROVAL_AFTER.match(after))
    approved = [index for index, approval in kept.items() if approval or len(kept) == 1]
    return approved[0] if len(approved) == 1 else None


_STATEMENT_LEAD = r"(?:(?:so|thus|therefore|hence)\s*,?\s*)?(?:the\s+|my\s+)?" + _ANSWER_IS
_ANSWER_STATEMENTS = (
    re.compile(_STATEMENT_LEAD + _BOXED.pattern, re.IGNORECASE),
    _BOXED,
    re.compile(_STATEMENT_LEAD + _PICKED, re.IGNORECASE),
    re.compile(_I_CHOOSE + r"[ \t]*" + _PICKED, re.IGNORECASE),
    re.compile(
        r"\b(?i:option|choice)\s+\(?[A-Z]\)?(?![A-Za-z])\s+(?i:is\s+(?:the\s+)?"
        r"(?:correct|right|best|answer)(?:\s+(?:answer|choice|option))?)"
    ),
)


def strip_answer_statements(text: str, choices: Sequence[str], replacement: str = "") -> str:
    """Remove the statements of a final choice (and lines only restating an option) from a reply.

    ``replacement`` stands where each statement was, so its sentence's rest can be told apart.
    """
    texts = "|".join(re.escape(choice.strip()) for choice in choices if choice.strip())
    restated = re.compile(rf"[ \t]*[\.:\)\-]?[ \t]*(?:{texts})\b[ \t]*", re.IGNORECASE)
    for pattern in _ANSWER_STATEMENTS:
        remaining, position = [], 0
        for match in pattern.finditer(text):
            remaining += [text[position : match.start()], replacement]
            rest = restated.match(text, match.end()) if texts else None
            position = rest.end() if rest else match.end()
        text = "".join([*remaining, text[position:]])
    kept = []
    for line in text.splitlines():
        letter_line = _LEADING_LETTER_LINE.match(line)
        if letter_line and reading.spelled_option(letter_line.group(2), choices) is not None:
            continue
        if re.search(r"\w", line):
            line = re.sub(r"^[\s,.;:!]+|\s+(?=[,.;:!])", "", line.strip())
            line = re.sub(r"\s*[,;:]+\s*(?=[.!?])", "", line)
            kept.append(re.sub(r"([.!?])(?:\s*[.!?:,;])+", r"\1", line))
    return "\n".join(kept)


def extract_choice(text: str | None, choices: Sequence[str]) -> int | None:
    """The 0-based option a reply chose, or ``None`` (also when its closing line names another)."""
    text = reading.normalize(text)
    found = _extract(text, choices)
    closing = reading.closing_line(text).rpartition(":")[2]
    spelled = reading.spelled_option(closing, choices) if found is not None else None
    return None if spelled is not None and spelled != found else found


def _mislettered_line(text: str, choices: Sequence[str]) -> bool:
    """Whether a line leads with one option's letter and another option's whole text."""
    for line in text.splitlines():
        leading = _LEADING_LETTER_LINE.match(line)
        if leading:
            index = _letter_index(leading.group(1), len(choices))
            if reading.names_another(index, leading.group(2).strip(" .*"), choices):
                return True
    return False


def _restates(rest: str, index: int | None, choices: Sequence[str]) -> bool:
    """Whether the words after a letter are empty or exactly its own option's text."""
    return not reading.words(rest) or reading.spelled_option(rest, choices) == index


def _opening_pick(body: str, choices: Sequence[str]) -> tuple[int | None, bool]:
    """The option a reply's first line leads with ("B. ...", "C)"), or :data:`HEDGE`, or ``None``.

    Also whether that line only restates the option ("B. a zebra"). ``None`` where the
    first line is no answer: an echo of the option list (two lines restating options)
    or a letter before a sum ("A + B = C").
    """
    lines = [line for line in body.splitlines() if line.strip()]
    leading = _LEADING_LETTER_LINE.match(lines[0]) if lines else None
    if leading is None or _ARITHMETIC_AFTER.match(lines[0][leading.end(1) :]):
        return None, False
    index = _letter_index(leading.group(1), len(choices))
    rest = leading.group(2).strip()
    restating = [
        line
        for line in lines
        if (found := _LEADING_LETTER_LINE.match(line))
        and reading.spelled_option(found.group(2), choices) is not None
    ]
    if index is None or len(restating) > 1:
        return None, False
    rejected = _REJECTED_LETTER.match(f" {rest}") or reading.afterthought(
        rest, leading.group(1), LETTERS[: len(choices)]
    )
    if rejected or reading.names_another(index, rest, choices):
        return HEDGE, False
    return index, _restates(rest, index, choices)


def _extract(text: str, choices: Sequence[str]) -> int | None:
    """The option the rules above read from a normalised reply (before the closing line)."""
    if not text.strip():
        return None
    num_choices = len(choices)
    body = _SPEAKER_TAG.sub("", text.strip(), count=1)
    opening, opening_restates = _opening_pick(body, choices)
    for rule in (_boxed_pick, _explicit_pick):
        # Read with and without a leading speaker tag: "Answer: A. On reflection the
        # answer is B." names A only with its tag, and both readings must agree, and
        # with an opening "B." line ("B. ... The answer is \\boxed{D}" is two answers).
        picks = [found for found in (rule(body, choices), rule(text, choices)) if found is not None]
        if picks:
            picks.append(opening)
            agreed = reading.one_answer(picks)
            return agreed.value if agreed.value != HEDGE else None
    if _mislettered_line(body, choices):
        return None
    if opening == HEDGE or opening_restates:
        return None if opening == HEDGE else opening
    if _BOXED.search(body):
        # A box that names no option: the answer's place is unreadable, never guessed from prose.
        return None
    for found in (
        _is_letter_pick(body, num_choices),
        reading.spelled_option(
            next((line for line in body.splitlines() if line.strip()), ""), choices
        ),
        _numbered_list_pick(body, choices),
        _mentioned_pick(body, num_choices),
    ):
        if found is not None:
            return None if found == HEDGE else found
    bare = _BARE_LETTER.match(body)
    if bare:
        return _letter_index(bare.group(1), num_choices)
    # The first line that leads with an option, unless lines only restate several
    # options (an echo of the option list: invalid).
    led, restated = [], set()
    for line in body.splitlines():
        leading = _LEADING_LETTER_LINE.match(line)
        if leading and not _ARITHMETIC_AFTER.match(line[leading.end(1) :]):
            index = _letter_index(leading.group(1), num_choices)
            rest = leading.group(2).strip()
            if _REJECTED_LETTER.match(f" {rest}") or reading.afterthought(
                rest, leading.group(1), LETTERS[:num_choices]
            ):
                return None
            if index is not None and _rest_supports(rest, index, choices):
                led.append(index)
                if _restates(rest, index, choices):
                    restated.add(index)
    if led:
        return led[0] if len(restated) < 2 else None
    by_text = _from_choice_text(body, choices)
    parenthesized = (_letter_index(m, num_choices) for m in _PAREN_LETTER.findall(body))
    return by_text if by_text is not None else reading.one_answer(parenthesized).value


EXTRACTORS: dict[str, Extractor] = {
    "ours": extract_choice,
    "authors": authors_llama_choice,
    "authors-gpt": authors_gpt_choice,
}
"""Answer readers by name: ``ours`` (default), the authors' Llama-2-chat and GPT rules."""
DEFAULT_EXTRACTOR = "ours"


def get_extractor(name: str) -> Extractor:
    """Return the answer reader called ``name`` (see :data:`EXTRACTORS`)."""
    if name not in EXTRACTORS:
        raise ParameterError(f"unknown CogLM extractor {name!r}; known: {', '.join(EXTRACTORS)}")
    return EXTRACTORS[name]


def coerce_prediction(
    prediction: int | str | None, choices: Sequence[str], extractor: str = DEFAULT_EXTRACTOR
) -> int | None:
    """Turn an index, a letter or free text into an option index (or ``None``)."""
    if isinstance(prediction, bool) or prediction is None:
        return None
    if isinstance(prediction, int):
        return prediction if 0 <= prediction < len(choices) else None
    return get_extractor(extractor)(str(prediction), choices)
