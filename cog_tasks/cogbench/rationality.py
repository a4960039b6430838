"""Rationality by an LLM judge: a 1-5 rubric written from the paper's definitions.

In the paper Rationality is a human score of the agent's reasoning (clarity,
relevance, staying in role). Where no human scores exist, a judge model
applies the same five levels. An answer with no reasoning at all gets 1 (the
rubric's "irrelevant" level) without asking the judge; a judge reply without a
readable score is returned as ``None`` and counted as invalid (scored 1).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from cog_tasks.cogbench.generation import TextGenerator
from cog_tasks.cogbench.parsing import parse_judge_score, profile_to_text
from cog_tasks.metrics.cogbench import cohen_kappa, spearman

JUDGE_TOKENS = 16
INFORMATION_CHARS = 1500

RUBRIC = (
    "You grade the reasoning that a role-playing agent gave for its rating of a statement.\n\n"
    "Profile the agent plays:\n{profile}\n\n"
    "Information the agent had just read:\n{information}\n\n"
    'Statement: "{question}"\n'
    "Agent's rating (1 = strongly disagree ... 5 = strongly agree): {rating}\n"
    'Agent\'s reasoning: "{reason}"\n\n'
    "Score the reasoning from 1 to 5:\n"
    "5 = convincing for this person: fits the profile and the information, no errors.\n"
    "4 = coherent and relevant, drawn from the profile or information, with small flaws.\n"
    "3 = relevant but vague, e.g. no clear stance where one is expected.\n"
    "2 = unclear or weak: forced links, or it only repeats the statement.\n"
    "1 = irrelevant or nonsensical, out of character, or reveals it is an AI.\n"
    "Reply with one line: Score: <1-5>"
)


@dataclass(frozen=True)
class JudgeItem:
    """One answer to grade.

    Attributes:
        profile: The profile the agent plays.
        information: The information flow of that iteration.
        question: The statement.
        rating: The agent's rating (``None`` if it had none).
        reason: The agent's reasoning.
    """

    profile: Mapping[str, str]
    information: str
    question: str
    rating: int | None
    reason: str


@dataclass(frozen=True)
class JudgeVerdict:
    """The judge's score for one answer.

    Attributes:
        score: 1-5, or ``None`` when the judge reply had no readable score.
        raw: The judge reply ('' when the judge was not asked).
    """

    score: int | None
    raw: str


def judge_prompt(item: JudgeItem, information_chars: int = INFORMATION_CHARS) -> str:
    """The rubric prompt for one answer (long information is cut, marked with '...')."""
    information = item.information or "(nothing: the agent answered from its profile alone)"
    if len(information) > information_chars:
        information = information[:information_chars].rstrip() + " ..."
    return RUBRIC.format(
        profile=profile_to_text(item.profile),
        information=information,
        question=item.question,
        rating="none given" if item.rating is None else item.rating,
        reason=item.reason,
    )


async def judge_answers(
    generate: TextGenerator, items: Sequence[JudgeItem], max_tokens: int = JUDGE_TOKENS
) -> list[JudgeVerdict]:
    """Grade answers concurrently.

    Args:
        generate: The judge model.
        items: Answers to grade.
        max_tokens: Token limit of a judge reply.

    Returns:
        One verdict per item, in order.
    """

    async def grade(item: JudgeItem) -> JudgeVerdict:
        if not item.reason.strip():
            return JudgeVerdict(1, "")
        reply = await generate(judge_prompt(item), max_tokens)
        return JudgeVerdict(parse_judge_score(reply), reply)

    return list(await asyncio.gather(*(grade(item) for item in items)))


@dataclass(frozen=True)
class JudgeAgreement:
    """Agreement of judge scores with human Rationality scores.

    Attributes:
        pairs: Answers with both a human and a readable judge score.
        kappa: Cohen's κ on those pairs (``None`` without pairs).
        spearman: Spearman's ρ on those pairs (``None`` if undefined).
        judge_invalid: Answers with a human score whose judge score was unreadable.
    """

    pairs: int
    kappa: float | None
    spearman: float | None
    judge_invalid: int


def judge_agreement(human: Sequence[int | None], judge: Sequence[int | None]) -> JudgeAgreement:
    """Compare judge scores with human scores where both exist.

    Args:
        human: Human scores (``None`` where unset).
        judge: Judge scores (``None`` where unreadable), same order.

    Returns:
        κ and Spearman over the answers that have both.
    """
    both = [(h, j) for h, j in zip(human, judge, strict=True) if h is not None and j is not None]
    invalid = sum(1 for h, j in zip(human, judge, strict=True) if h is not None and j is None)
    humans = [h for h, _ in both]
    judges = [j for _, j in both]
    return JudgeAgreement(
        pairs=len(both),
        kappa=cohen_kappa(humans, judges) if both else None,
        spearman=spearman(humans, judges),
        judge_invalid=invalid,
    )
