"""Measure a judge model against the hand-labelled blackjack beliefs (no grade: a disagreement)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from inspect_ai.model import GenerateConfig, get_model

from cog_tasks.common.stats import Interval, mean_interval
from cog_tasks.egosocial.beliefs import LabelledBelief, load_labelled_beliefs
from cog_tasks.egosocial.blackjack import belief_facts
from cog_tasks.egosocial.inspect.beliefs import judge_belief


@dataclass(frozen=True)
class JudgeAgreement:
    """How often a judge agreed with the hand labels, overall and per kind of statement."""

    grader: str
    agreement: Interval
    by_kind: dict[str, Interval]
    unparsed: int
    grades: dict[str, bool | None]

    def lines(self) -> list[str]:
        """The result as printed lines."""
        shown = [
            f"judge {self.grader}: agreement with {self.agreement.n} hand labels "
            f"{self.agreement.format()} ({self.agreement.method}); no grade after a retry: "
            f"{self.unparsed}"
        ]
        shown += [
            f"  {kind}: {interval.format()} n={interval.n}"
            for kind, interval in self.by_kind.items()
        ]
        return shown


async def _grade(
    grader: str, model_args: Mapping[str, Any], config: GenerateConfig
) -> tuple[list[LabelledBelief], list[bool | None]]:
    """Grade every statement, all requests at once so that a local provider can batch them."""
    judge = get_model(grader, config=config, **model_args)
    statements = load_labelled_beliefs()
    results = await asyncio.gather(
        *(
            judge_belief(judge, s.belief_type, s.situation(), belief_facts(s.hand), s.belief)
            for s in statements
        )
    )
    return statements, [grade for grade, _ in results]


def judge_agreement(
    grader: str, model_args: Mapping[str, Any] | None = None, max_tokens: int | None = None
) -> JudgeAgreement:
    """Grade every labelled statement with ``grader`` (and ``model_args``); compare with labels."""
    config = GenerateConfig(max_tokens=max_tokens)  # judge_belief decodes greedily
    statements, grades = asyncio.run(_grade(grader, dict(model_args or {}), config))
    agree = [float(grade == s.correct) for s, grade in zip(statements, grades, strict=True)]
    kinds = list(dict.fromkeys(s.kind for s in statements))
    return JudgeAgreement(
        grader=grader,
        agreement=mean_interval(agree, unit="statement"),
        by_kind={
            kind: mean_interval(
                [a for a, s in zip(agree, statements, strict=True) if s.kind == kind],
                unit="statement",
            )
            for kind in kinds
        },
        unparsed=sum(grade is None for grade in grades),
        grades={s.id: grade for s, grade in zip(statements, grades, strict=True)},
    )
