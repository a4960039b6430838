"""Inspect task for the static environment (multiple choice, first person)."""

from __future__ import annotations

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageSystem, ChatMessageUser
from inspect_ai.scorer import (
    CORRECT,
    INCORRECT,
    Score,
    Scorer,
    Target,
    accuracy,
    grouped,
    scorer,
    stderr,
)
from inspect_ai.solver import TaskState, multiple_choice

from cog_tasks.egosocial.records import EgoItem, parse_choice_letter
from cog_tasks.egosocial.static import build_static_items
from cog_tasks.inspect_evals.egosocial.metrics import invalid_answer_rate

TASK_VERSION = "1.0.0"
TEMPLATE = """{question}

{choices}

Answer with the letter of one option ({letters}). Reply in the form 'ANSWER: $LETTER'."""


def record_to_sample(item: EgoItem) -> Sample:
    """Turn an item into an Inspect sample: system message, story and question, lettered options."""
    return Sample(
        id=item.id,
        input=[
            ChatMessageSystem(content=item.system),
            ChatMessageUser(content=f"{item.story}\n\n{item.question}"),
        ],
        choices=list(item.options),
        target=item.answer_letter,
        metadata={"scenario": item.scenario, "ability": item.ability, **item.metadata},
    )


@scorer(metrics=[accuracy(), stderr()])
def option_letter() -> Scorer:
    """Right when the reply picks the target letter (see ``parse_choice_letter``).

    A reply that picks no option is wrong and has an empty ``answer``, which
    :func:`invalid_answer_rate` counts.
    """

    async def score(state: TaskState, target: Target) -> Score:
        letter = parse_choice_letter(state.output.completion, len(state.choices))
        return Score(
            value=CORRECT if letter == target.text else INCORRECT,
            answer=letter or "",
            explanation=state.output.completion,
        )

    return score


@task
def egosocial_static(
    scenario: str = "all",
    seed: int = 0,
    size: int | None = None,
    data_file: str | None = None,
) -> Task:
    """EgoSocialArena static environment: Daily Life, Counterfactual, New World, Blackjack.

    Args:
        scenario: ``all``, ``daily_life``, ``counterfactual``, ``new_world`` or ``blackjack``.
        seed: Seed of the generated items.
        size: Stories (Daily Life), hands (Blackjack) or items (others) per scenario.
        data_file: The authors' records (Story/Question/Answer/Option/Ability)
            in place of the generated Daily Life items.
    """
    items = build_static_items(scenario=scenario, seed=seed, size=size, data_file=data_file)
    return Task(
        dataset=MemoryDataset(
            [record_to_sample(item) for item in items], name=f"egosocial_static_{scenario}"
        ),
        solver=multiple_choice(template=TEMPLATE),
        scorer=option_letter(),
        metrics=[
            grouped(accuracy(), "ability"),
            grouped(accuracy(), "scenario", all=False),
            invalid_answer_rate(),
            stderr(),
        ],
        version=TASK_VERSION,
    )
