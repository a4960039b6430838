"""Rationality by an LLM judge: a 1-5 rubric written from the paper's definitions."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from cog_tasks.cogbench.generation import TextGenerator
from cog_tasks.cogbench.metrics import LIKERT, RationalityTally, cohen_kappa, spearman
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
    """One answer to grade, with its profile then and the flows read so far, oldest first."""

    profile: Mapping[str, str] | str
    flows: Sequence[str]
    question: str
    rating: int | None
    reason: str


@dataclass(frozen=True)
class JudgeVerdict:
    """The judge's score (``None``: unreadable), reply and status for one answer."""

    score: int | None
    raw: str
    status: str = JUDGED

    def recorded(self) -> int | str:
        """The value a log keeps: the judge's score, ``unreadable`` or ``no reasoning``."""
        return self.score if self.status == JUDGED and self.score is not None else self.status

    @classmethod
    def from_recorded(cls, value: int | str) -> JudgeVerdict:
        """Read back a value :meth:`recorded` kept (``raw`` is '')."""
        if value == NO_REASONING:
            return cls(LIKERT[0], "", NO_REASONING)
        if value == UNREADABLE:
            return cls(None, "", UNREADABLE)
        if isinstance(value, bool) or value not in LIKERT:
            raise UserError(
                f"a judge verdict is a score 1-5, {UNREADABLE!r} or {NO_REASONING!r}, got {value!r}"
            )
        return cls(int(value), "")


def verdict_tally(verdicts: Sequence[JudgeVerdict]) -> RationalityTally:
    """Tally verdicts: unreadable replies and answers without reasoning count as 1."""
    skipped = sum(1 for verdict in verdicts if verdict.status == NO_REASONING)
    return RationalityTally.from_scores([verdict.score for verdict in verdicts], skipped)


def bounded_information(flows: Sequence[str], budget: int | None = None) -> str:
    """The flows (given oldest first) newest first, within ``budget`` characters; cuts said."""
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
    """Grade answers concurrently; a reply without a readable score is asked once more."""

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
    """Agreement of judge scores with human Rationality scores (``exact``: share of equal pairs)."""

    pairs: int
    kappa: float | None
    spearman: float | None
    exact: float | None
    judge_invalid: int


def judge_agreement(human: Sequence[int | None], judge: Sequence[int | None]) -> JudgeAgreement:
    """Compare judge scores (``None``: unreadable) with human scores where both exist."""
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
