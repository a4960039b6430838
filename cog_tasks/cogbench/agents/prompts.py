"""Short prompts of the CogBench agents, written for cog-tasks after the paper's descriptions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cog_tasks.cogbench.parsing import profile_to_text

ROLE = (
    "You are role-playing the person described below. Stay in character, answer in the "
    "first person, and never say that you are an AI.\n\nProfile:\n{profile}"
)

QUESTION = (
    'Statement: "{question}"\n'
    "How much do you, as this person, agree with the statement? "
    "1 = strongly disagree, 2 = disagree, 3 = neutral, 4 = agree, 5 = strongly agree.\n"
    "{explanation}\n"
    "Rating: <one number>"
)
EXPLANATIONS: dict[str, str] = {
    "authors": (
        "Reply in this form:\n"
        "Thoughts: <a substantial first-person explanation of your rating, clear and "
        "unambiguous, without quoting the statement>"
    ),
    "brief": "Reply in exactly two lines:\nThoughts: <your reasons in one or two sentences>",
}
"""What the rating request asks to explain (``explanation``); ``brief``: task v3 and before."""

NOTHING_READ = "You have not read anything about this topic yet."

REFLECTION = (
    "Last round you rated these statements (with feedback where there is some):\n"
    "{table}\n\n"
    "In two or three sentences, reflect in the first person: where were your ratings off, "
    "and what should you weigh differently from now on?\n"
    "Reflection:"
)

DISTILL = (
    "Text you just read (short-term memory):\n{memory}\n\n"
    "List the facts in this text as complete statements (who or what, does what, to what; "
    "no pronouns that point elsewhere). Score each from 1 to 5 for how well it fits your "
    "interests and views. Write one fact per line as:\n"
    "<score> | <statement>"
)

UPDATE = (
    "Text you just read (short-term memory):\n{memory}\n\n"
    "Update your profile where this text really affects you: you may add, change or remove "
    "attribute values, but avoid sudden changes. Keep every attribute name, keep each value "
    "short (under 30 characters) and do not list overlapping values.\n"
    "Reply as:\n"
    "Assessment: <what this text means to you>\n"
    "Changes: <the values you change>\n"
    "Updated Profile:\n"
    "<every attribute as Name: value, one per line>"
)

INTERPRET = (
    "What you remember about this (long-term memory):\n{memory}\n\n"
    "Base your answer only on your profile and your memory."
)

NOTHING_REMEMBERED = "(nothing yet)"


def role(profile: Mapping[str, str]) -> str:
    """The role-play preamble with the profile as ``Key: value`` lines."""
    return ROLE.format(profile=profile_to_text(profile))


def question(statement: str, explanation: str = "authors") -> str:
    """The rating request for one statement, with the explanation it asks for."""
    return QUESTION.format(question=statement, explanation=EXPLANATIONS[explanation])


def read_section(information_flow: str) -> str:
    """The current information flow, or a note that there is none (iteration 0)."""
    if not information_flow:
        return NOTHING_READ
    return f"What you have just read:\n{information_flow}"


def feedback_note(own_rating: int | None, human_rating: int | None, mode: str) -> str:
    """What the agent is told about last round's human rating of one statement ('' if nothing)."""
    if mode == "none" or human_rating is None:
        return ""
    if mode == "rating":
        return f"people with your profile rated it {human_rating}"
    if own_rating is None:
        return "you gave no readable rating, so it could not be compared with people's"
    if own_rating > human_rating:
        return "compared with people with your profile, your rating was too high"
    if own_rating < human_rating:
        return "compared with people with your profile, your rating was too low"
    return "compared with people with your profile, your rating was right"


def observation(own_rating: int | None, human_rating: int | None, mode: str) -> str:
    """ReAct's observation: last round's own rating and the feedback on it."""
    own = "no valid rating" if own_rating is None else str(own_rating)
    note = feedback_note(own_rating, human_rating, mode)
    return f"Observation from last round: you rated this statement {own}" + (
        f"; {note}." if note else "."
    )


def reflection_table(rows: Sequence[tuple[str, int | None, int | None]], mode: str) -> str:
    """``statement | you: r | feedback`` lines for the reflection prompt."""
    lines = []
    for statement, own, human in rows:
        note = feedback_note(own, human, mode)
        line = f"- {statement} | you: {'-' if own is None else own}"
        lines.append(f"{line} | {note}" if note else line)
    return "\n".join(lines)


def memory_section(items: Sequence[str]) -> str:
    """Recalled long-term memory as a bullet list."""
    return "\n".join(f"- {item}" for item in items) if items else NOTHING_REMEMBERED
