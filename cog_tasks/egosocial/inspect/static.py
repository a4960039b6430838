"""Inspect task for the static environment (multiple choice, first person)."""

from __future__ import annotations

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageSystem, ChatMessageUser
from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState, multiple_choice

from cog_tasks.egosocial.inspect.metrics import invalid_answer_rate, key_means, key_stderr
from cog_tasks.egosocial.inspect.version import TASK_VERSIONS
from cog_tasks.egosocial.records import EgoItem, parse_choice_letter
from cog_tasks.egosocial.static import build_static_items

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
        metadata={
            "scenario": item.scenario,
            "label": item.label,
            "perspective": item.perspective,
            **item.metadata,
        },
    )


def score_keys(metadata: dict) -> list[str]:
    """The keys a static item's score counts under: overall, label, scenario, perspective."""
    keys = ["all", f"label:{metadata['label']}", f"scenario:{metadata['scenario']}"]
    if metadata.get("perspective"):
        keys.append(f"perspective:{metadata['perspective']}")
    return keys


@scorer(metrics=[key_means(), key_stderr("all"), invalid_answer_rate()])
def option_letter() -> Scorer:
    """Right when the reply picks the target letter (see ``parse_choice_letter``).

    The value is a dict (1 right, 0 wrong) under ``all``, ``label:<label>``,
    ``scenario:<scenario>`` and, for generated items, ``perspective:<...>``.
    A reply that picks no option is wrong and has an empty ``answer``, which
    :func:`invalid_answer_rate` counts.
    """

    async def score(state: TaskState, target: Target) -> Score:
        letter = parse_choice_letter(state.output.completion, len(state.choices))
        correct = float(letter == target.text)
        return Score(
            value={key: correct for key in score_keys(state.metadata)},
            answer=letter or "",
            explanation=state.output.completion,
        )

    return score


@task
def egosocial_static(
    source: str = "authors",
    scenarios: str = "all",
    seed: int = 0,
    size: int | None = None,
    data_file: str | None = None,
) -> Task:
    """EgoSocialArena static environment: Daily Life, Counterfactual, New World, Blackjack.

    Args:
        source: ``authors`` (their released items: Daily Life and
            Counterfactual), ``generated`` or ``both``.
        scenarios: ``all`` or comma-separated ``daily_life``, ``counterfactual``,
            ``new_world``, ``blackjack``.
        seed: Seed of the generated items.
        size: Generated stories (Daily Life), hands (Blackjack) or items per scenario.
        data_file: JSONL in the authors' format (Story/Question/Option/Answer,
            optional Ability), read instead of the authors' file of the one
            scenario named in ``scenarios``.
    """
    items = build_static_items(
        source=source, scenarios=scenarios, seed=seed, size=size, data_file=data_file
    )
    return Task(
        dataset=MemoryDataset(
            [record_to_sample(item) for item in items], name=f"egosocial_static_{source}"
        ),
        solver=multiple_choice(template=TEMPLATE),
        scorer=option_letter(),
        version=TASK_VERSIONS["egosocial_static"],
    )
