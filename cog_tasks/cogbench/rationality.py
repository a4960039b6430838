"""Rationality by an LLM judge: a 1-5 rubric written from the paper's definitions.

In the paper Rationality is a human score of the agent's reasoning (clarity,
relevance, staying in role). Where no human scores exist, a judge model
applies the same five levels. Every agent's answers are judged with the same
kind of context, as the paper's annotators had read every flow: the profile
as it stood when the agent answered and every flow read so far, whole and
newest first. No agent's private notes (CogGPT's recalled memories, a
reflection) are shown, so no agent is favoured. A judge with a small context
gets ``context_chars``: the flows are then cut to that many characters, and
the prompt says what was cut. An answer
with no reasoning at all gets 1 (the rubric's "irrelevant" level) without
asking the judge, and is counted as such (``NO_REASONING``); a judge reply
without a readable score is asked once more, then returned as ``None``,
counted as invalid (``UNREADABLE``) and scored 1.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from cog_tasks.cogbench.generation import TextGenerator
from cog_tasks.cogbench.metrics import LIKERT, cohen_kappa, spearman
from cog_tasks.cogbench.parsing import parse_judge_score, profile_to_text
from cog_tasks.common.errors import UserError

JUDGE_TOKENS = 96

RUBRIC = (
    "You grade the reasoning that a role-playing agent gave for its rating of a statement.\n\n"
    "Profile the agent plays, as it stood when it answered:\n{profile}\n\n"
    "Information the agent has read so far (newest first):\n{information}\n\n"
    'Statement: "{question}"\n'
    "Agent's rating (1 = strongly disagree ... 5 = strongly agree): {rating}\n"
    'Agent\'s reasoning: "{reason}"\n\n'
    "Score the reasoning from 1 to 5:\n"
    "5 = convincing for this person: fits the profile and the information, no errors.\n"
    "4 = coherent and relevant, drawn from the profile or information, with small flaws.\n"
    "3 = relevant but vague, e.g. no clear stance where one is expected.\n"
    "2 = unclear or weak: forced links, or it only repeats the statement.\n"
    "1 = irrelevant or nonsensical, out of character, or reveals it is an AI.\n"
    "Reply in two lines:\nScore: <1-5>\nReason: <one sentence>"
)
NOTHING_READ = "(nothing: the agent answered from its profile alone)"
JUDGED = "judged"
UNREADABLE = "unreadable"
NO_REASONING = "no reasoning"


@dataclass(frozen=True)
class JudgeItem:
    """One answer to grade, with everything the agent reasoned from.

    Attributes:
        profile: The profile the agent held when it answered (CogGPT's
            updated profile; the initial one for the baselines), as a
            mapping or as ``Key: value`` text.
        flows: The information flows read so far, oldest first, the current
            iteration's last ('' entries are skipped).
        question: The statement.
        rating: The agent's rating (``None`` if it had none).
        reason: The agent's reasoning.
    """

    profile: Mapping[str, str] | str
    flows: Sequence[str]
    question: str
    rating: int | None
    reason: str


@dataclass(frozen=True)
class JudgeVerdict:
    """The judge's score for one answer.

    Attributes:
        score: 1-5, or ``None`` when the judge reply had no readable score
            (1, the floor, for an answer without reasoning).
        raw: The judge reply ('' when the judge was not asked).
        status: ``judged`` (a readable score), ``unreadable`` (the judge
            replied without one) or ``no reasoning`` (the judge was not asked).
    """

    score: int | None
    raw: str
    status: str = JUDGED

    def recorded(self) -> int | str:
        """The value a log keeps: the judge's score, ``unreadable`` or ``no reasoning``.

        A run without a judge keeps nothing (``None``), so "not judged" and
        "judge unreadable" never share a value.
        """
        return self.score if self.status == JUDGED and self.score is not None else self.status

    @classmethod
    def from_recorded(cls, value: int | str) -> JudgeVerdict:
        """Read back a value :meth:`recorded` kept (the reply text is not kept: ``raw`` is '').

        Args:
            value: A score 1-5, :data:`UNREADABLE` or :data:`NO_REASONING`.

        Raises:
            UserError: For any other value.
        """
        if value == NO_REASONING:
            return cls(LIKERT[0], "", NO_REASONING)
        if value == UNREADABLE:
            return cls(None, "", UNREADABLE)
        if isinstance(value, bool) or value not in LIKERT:
            raise UserError(
                f"a judge verdict is a score 1-5, {UNREADABLE!r} or {NO_REASONING!r}, got {value!r}"
            )
        return cls(int(value), "")


def bounded_information(flows: Sequence[str], budget: int | None = None) -> str:
    """The flows read so far, newest first, whole or within ``budget`` characters.

    The newest flow comes first and whole as far as the budget allows; older
    flows follow while budget remains; whatever is cut is marked ``[...]`` and
    the number of older flows left out is said.

    Args:
        flows: Flows oldest first.
        budget: Characters to spend; ``None`` for every flow, whole.

    Returns:
        The text for the judge prompt.
    """
    present = [flow.strip() for flow in flows if flow.strip()]
    if not present:
        return NOTHING_READ
    parts: list[str] = []
    left = sum(len(flow) for flow in present) if budget is None else budget
    newest_first = list(enumerate(present, start=1))[::-1]
    for shown, (number, flow) in enumerate(newest_first):
        if left <= 0:
            parts.append(f"[{len(present) - shown} older flow(s) left out]")
            break
        text = flow if len(flow) <= left else flow[:left].rstrip() + " [...]"
        left -= len(text)
        parts.append(f"[flow {number} of {len(present)}]\n{text}")
    return "\n\n".join(parts)


def judge_prompt(item: JudgeItem, context_chars: int | None = None) -> str:
    """The rubric prompt for one answer (flows whole, or bounded by ``context_chars``)."""
    profile = item.profile if isinstance(item.profile, str) else profile_to_text(item.profile)
    return RUBRIC.format(
        profile=profile,
        information=bounded_information(item.flows, context_chars),
        question=item.question,
        rating="none given" if item.rating is None else item.rating,
        reason=item.reason,
    )


async def judge_answers(
    generate: TextGenerator,
    items: Sequence[JudgeItem],
    max_tokens: int = JUDGE_TOKENS,
    context_chars: int | None = None,
) -> list[JudgeVerdict]:
    """Grade answers concurrently; a reply without a readable score is asked once more.

    Args:
        generate: The judge model.
        items: Answers to grade.
        max_tokens: Token limit of a judge reply (a score and a one-line reason).
        context_chars: Bound on the flows' characters (``None``: every flow, whole).

    Returns:
        One verdict per item, in order (the last reply when asked twice).
    """

    async def grade(item: JudgeItem) -> JudgeVerdict:
        if not item.reason.strip():
            return JudgeVerdict(LIKERT[0], "", NO_REASONING)
        prompt = judge_prompt(item, context_chars)
        reply = await generate(prompt, max_tokens)
        score = parse_judge_score(reply)
        if score is None:
            reply = await generate(prompt, max_tokens)
            score = parse_judge_score(reply)
        return JudgeVerdict(score, reply, JUDGED if score is not None else UNREADABLE)

    return list(await asyncio.gather(*(grade(item) for item in items)))


@dataclass(frozen=True)
class JudgeAgreement:
    """Agreement of judge scores with human Rationality scores.

    Attributes:
        pairs: Answers with both a human and a readable judge score.
        kappa: Cohen's κ on those pairs (``None`` without pairs).
        spearman: Spearman's ρ on those pairs (``None`` if undefined).
        exact: Share of those pairs where judge and human give the same score.
        judge_invalid: Answers with a human score whose judge score was unreadable.
    """

    pairs: int
    kappa: float | None
    spearman: float | None
    exact: float | None
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
        exact=sum(h == j for h, j in both) / len(both) if both else None,
        judge_invalid=invalid,
    )
