r"""Prompts of the CogLM chat protocol (:data:`PROMPTS`) and the erasure system prompts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cog_tasks.coglm.abilities import ABILITY_BY_CODE
from cog_tasks.coglm.extract import LETTERS
from cog_tasks.coglm.llama_text import llama_text_request
from cog_tasks.coglm.rationale import DEFAULT_RATIONALE_FORM, shown_rationale
from cog_tasks.common.errors import UserError
from cog_tasks.common.files import package_json
from cog_tasks.common.params import ParameterError

ANSWER_PHRASE = "The answer is option"
DIRECT_INSTRUCTION = (
    f'Reply with "{ANSWER_PHRASE}" followed by the letter of the option you choose, '
    "then explain your choice briefly."
)
COT_INSTRUCTION = (
    "Think the question through step by step. Then finish your reply with "
    f'"{ANSWER_PHRASE}" followed by the letter of the option you choose.'
)
BOXED_INSTRUCTION = (
    "Choose exactly one of the options and reply with nothing but "
    '"The answer is \\boxed{X}", with the letter of that option in place of X.'
)
BOXED_COT_INSTRUCTION = (
    "Reason about the question step by step, choose exactly one of the options, and close "
    'your reply with "The answer is \\boxed{X}", with the letter of that option in place of X.'
)
RATIONALE_HEADER = "Another model reasoned about this question as follows:"
NO_REASONING = "(It gave no reasoning beyond its choice, which is not shown.)"
#: The erasure system prompts and the worked examples, from ``prompts.json`` next to this module.
_PROMPT_DATA = package_json("cog_tasks.coglm", "prompts.json")
ERASURE_PROMPTS: dict[str, str] = _PROMPT_DATA["erasure_prompts"]


def erasure_prompt(code: str) -> str:
    """Return the system prompt that erases one ability (``const`` ... ``plan``)."""
    if code not in ABILITY_BY_CODE:
        raise ParameterError(f"unknown CogLM ability code {code!r}; known: {list(ABILITY_BY_CODE)}")
    return ERASURE_PROMPTS[code]


def lettered_options(choices: Sequence[str]) -> str:
    """Render options as lines ``A. first``, ``B. second`` ... (each option stripped)."""
    if len(choices) > len(LETTERS):
        raise UserError(f"at most {len(LETTERS)} options can be lettered, got {len(choices)}")
    return "\n".join(
        f"{letter}. {choice.strip()}" for letter, choice in zip(LETTERS, choices, strict=False)
    )


@dataclass(frozen=True)
class WorkedExample:
    """A question answered in the ``boxed`` prompt before the item (not a CogLM item)."""

    question: str
    choices: tuple[str, ...]
    answer: int
    reasoning: str


WORKED_EXAMPLES: tuple[WorkedExample, ...] = tuple(
    WorkedExample(**(example | {"choices": tuple(example["choices"])}))
    for example in _PROMPT_DATA["worked_examples"]
)
"""The four worked examples of the ``boxed`` prompt; their answers use every letter A-D once."""
PROMPTS: dict[str, str] = {
    "answer-is": '"The answer is option X" and a short explanation (the paper\'s answer format)',
    "boxed": "four worked examples, then the answer as The answer is \\boxed{X} "
    "(the authors' GPT protocol)",
    "llama-text": "plain text, no chat template: question, options sentence, options in one "
    "line, answer cue, worded as the authors' test_llama.py (their Llama-2-chat protocol)",
}
"""The prompts of the chat protocol by name, with what each asks for."""
DEFAULT_PROMPT = "answer-is"
PROMPT_EXTRACTORS: dict[str, str] = {
    "answer-is": "ours",
    "boxed": "authors-gpt",
    "llama-text": "authors",
}
"""The extractor each prompt is read with unless another is named."""
Turn = tuple[str, str]
"""A chat turn: role (``user`` or ``assistant``) and text."""


def boxed_answer(letter: str, reasoning: str | None = None) -> str:
    r"""An answer in the ``boxed`` prompt's form, ``The answer is \boxed{B}.``, after reasoning."""
    answer = f"The answer is \\boxed{{{letter}}}."
    return f"{reasoning} {answer}" if reasoning else answer


def _user_message(
    question: str,
    choices: Sequence[str],
    instruction: str,
    rationale: str | None,
    rationale_form: str,
) -> str:
    parts = [question.strip(), "Options:\n" + lettered_options(choices)]
    if rationale is not None:
        reasoning = shown_rationale(rationale, choices, rationale_form, question) or NO_REASONING
        parts.append(f"{RATIONALE_HEADER}\n{reasoning}")
    parts.append(instruction)
    return "\n\n".join(parts)


def check_prompt(prompt: str) -> None:
    """Raise ``ValueError`` naming the known prompts when ``prompt`` is not one."""
    if prompt not in PROMPTS:
        raise ParameterError(f"unknown CogLM prompt {prompt!r}; known: {', '.join(PROMPTS)}")


def chat_turns(
    question: str,
    choices: Sequence[str],
    *,
    prompt: str = DEFAULT_PROMPT,
    cot: bool = False,
    rationale: str | None = None,
    rationale_form: str = DEFAULT_RATIONALE_FORM,
) -> list[Turn]:
    """One item's conversation: worked examples (``boxed``), a ``rationale`` (CoC), the item."""
    check_prompt(prompt)
    if prompt == "llama-text":
        if cot or rationale is not None:
            raise ParameterError(
                "the llama-text prompt (the authors' Llama-2 protocol) has no variants"
            )
        return [("user", llama_text_request(question, choices))]
    if prompt == "answer-is":
        instruction = COT_INSTRUCTION if cot else DIRECT_INSTRUCTION
        return [("user", _user_message(question, choices, instruction, rationale, rationale_form))]
    instruction = BOXED_COT_INSTRUCTION if cot else BOXED_INSTRUCTION
    turns: list[Turn] = []
    for example in WORKED_EXAMPLES:
        shown = _user_message(example.question, example.choices, instruction, None, rationale_form)
        reply = boxed_answer(LETTERS[example.answer], example.reasoning if cot else None)
        turns += [("user", shown), ("assistant", reply)]
    turns.append(("user", _user_message(question, choices, instruction, rationale, rationale_form)))
    return turns


def chat_prompt(
    question: str,
    choices: Sequence[str],
    *,
    cot: bool = False,
    rationale: str | None = None,
    rationale_form: str = DEFAULT_RATIONALE_FORM,
) -> str:
    """Build the user message of the default prompt (``answer-is``); see :func:`chat_turns`."""
    instruction = COT_INSTRUCTION if cot else DIRECT_INSTRUCTION
    return _user_message(question, choices, instruction, rationale, rationale_form)
