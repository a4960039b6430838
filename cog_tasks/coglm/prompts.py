"""Prompts of the CogLM chat protocol, shared by Inspect, lm-eval and the studies.

The question is shown with lettered options and the model is asked to state
its choice as "The answer is option X" (the format the paper asks for), with
a short explanation. Variants add step-by-step reasoning (chain of thought) or
a stronger model's rationale (chain of cognition).

:data:`ERASURE_PROMPTS` are system prompts that tell the model it has not yet
developed one ability. They carry the content of the paper's Table 10 (an
age band from Piaget's theory and the missing ability), written anew.
"""

from __future__ import annotations

from collections.abc import Sequence

from cog_tasks.coglm.abilities import ABILITY_BY_CODE
from cog_tasks.coglm.extract import LETTERS
from cog_tasks.coglm.rationale import DEFAULT_RATIONALE_FORM, shown_rationale

ANSWER_PHRASE = "The answer is option"

DIRECT_INSTRUCTION = (
    f'Reply with "{ANSWER_PHRASE}" followed by the letter of the option you choose, '
    "then explain your choice briefly."
)
COT_INSTRUCTION = (
    "Think the question through step by step. Then finish your reply with "
    f'"{ANSWER_PHRASE}" followed by the letter of the option you choose.'
)
RATIONALE_HEADER = "Another model reasoned about this question as follows:"
NO_REASONING = "(It gave no reasoning beyond its choice, which is not shown.)"

_INFANT = "Picture yourself as a baby, somewhere between birth and two years old."
_YOUNG_CHILD = "Picture yourself as a young child, somewhere between two and seven years old."
_SCHOOL_CHILD = "Picture yourself as a child, somewhere between seven and eleven years old."
_ADOLESCENT = "Picture yourself as an adolescent, somewhere between eleven and eighteen years old."
_PIAGET = "Following Piaget's account of how thinking develops,"

ERASURE_PROMPTS: dict[str, str] = {
    "const": f"{_INFANT} {_PIAGET} you have not yet grasped that things go on existing, "
    "unchanged and stable, whether or not you can see them.",
    "early": f"{_INFANT} {_PIAGET} you cannot yet attach meanings to the objects around you, "
    "and you have no firm sense that objects in the world are permanent.",
    "semio": f"{_YOUNG_CHILD} {_PIAGET} you cannot yet let a symbol stand for an object "
    "or an idea.",
    "empat": f"{_YOUNG_CHILD} {_PIAGET} you see everything from your own point of view and "
    "cannot yet put yourself in another person's place.",
    "rever": f"{_SCHOOL_CHILD} {_PIAGET} you do not yet understand that a physical change can "
    "be undone, and you cannot run a line of thought backwards.",
    "conse": f"{_SCHOOL_CHILD} {_PIAGET} you believe that changing how an object looks, such as "
    "its length or its shape, can change what it basically is, such as its mass or volume.",
    "induc": f"{_SCHOOL_CHILD} {_PIAGET} you cannot yet work out general rules from the "
    "outcomes you observe.",
    "deduc": f"{_ADOLESCENT} {_PIAGET} you cannot yet reason from given assumptions or rules "
    "to the answer of a practical problem.",
    "propo": f"{_ADOLESCENT} {_PIAGET} you cannot yet make sense of propositions or tell how "
    "one statement logically relates to another.",
    "plan": f"{_ADOLESCENT} {_PIAGET} you cannot yet work out a plan that solves a given problem.",
}


def erasure_prompt(code: str) -> str:
    """Return the system prompt that erases one ability.

    Args:
        code: Ability code (``const`` ... ``plan``).

    Raises:
        ValueError: If the code is unknown.
    """
    if code not in ABILITY_BY_CODE:
        raise ValueError(f"unknown CogLM ability code {code!r}; known: {list(ABILITY_BY_CODE)}")
    return ERASURE_PROMPTS[code]


def lettered_options(choices: Sequence[str]) -> str:
    """Render options as lines ``A. first``, ``B. second`` ..."""
    if len(choices) > len(LETTERS):
        raise ValueError(f"at most {len(LETTERS)} options can be lettered, got {len(choices)}")
    return "\n".join(
        f"{letter}. {choice}" for letter, choice in zip(LETTERS, choices, strict=False)
    )


def chat_prompt(
    question: str,
    choices: Sequence[str],
    *,
    cot: bool = False,
    rationale: str | None = None,
    rationale_form: str = DEFAULT_RATIONALE_FORM,
) -> str:
    """Build the user message of the chat protocol.

    Args:
        question: The question text.
        choices: The options, lettered A, B, C ... in order.
        cot: Ask for step-by-step reasoning before the answer.
        rationale: Another model's reply to show before the instruction
            (chain of cognition); ``None`` for none.
        rationale_form: How the rationale is shown
            (:data:`cog_tasks.coglm.rationale.RATIONALE_FORMS`): ``hidden``
            (default) without any option's letter or text, so the model sees
            the reasoning, not the answer; ``raw`` as written.

    Returns:
        The prompt text.
    """
    parts = [question.strip(), "Options:\n" + lettered_options(choices)]
    if rationale is not None:
        reasoning = shown_rationale(rationale, choices, rationale_form) or NO_REASONING
        parts.append(f"{RATIONALE_HEADER}\n{reasoning}")
    parts.append(COT_INSTRUCTION if cot else DIRECT_INSTRUCTION)
    return "\n\n".join(parts)
