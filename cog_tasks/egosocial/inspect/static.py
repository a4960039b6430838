"""Inspect task for the static environment (multiple choice, optional CircularEval)."""

from __future__ import annotations

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageSystem, ChatMessageUser
from inspect_ai.scorer import Score, Scorer, Target, scorer
from inspect_ai.solver import Generate, Solver, TaskState, solver

from cog_tasks.common.inspect_metrics import key_intervals
from cog_tasks.common.params import flag, integer, names
from cog_tasks.common.provenance import DATA_PROVENANCE, recording_reads
from cog_tasks.egosocial.inspect.metrics import STATIC_MEASURES, grouped_key_intervals
from cog_tasks.egosocial.inspect.version import TASK_VERSIONS
from cog_tasks.egosocial.records import LETTERS, EgoItem, parse_choice_letter
from cog_tasks.egosocial.static import build_static_items

TEMPLATE = """{question}

{choices}

Answer with the letter of one option ({letters}). Reply in the form 'ANSWER: $LETTER'."""
ROTATIONS_KEY = "egosocial_static_rotations"
#: Sample metadata that each item's accuracy is also reported under.
GROUPS = ("source", "label", "scenario", "perspective")


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
            "source": "authors" if item.metadata.get("source") == "authors" else "generated",
            **item.metadata,
        },
    )


def rotated(options: list[str], shift: int) -> list[str]:
    """The options rotated left by ``shift``, in the order one prompt shows them."""
    return options[shift:] + options[:shift]


def rotation_targets(target: str, options: int, circular: bool) -> list[str]:
    """The gold letter of each rotation asked (the first alone unless ``circular``)."""
    answer = LETTERS.index(target)
    return [LETTERS[(answer - shift) % options] for shift in range(options if circular else 1)]


def rotation_prompt(question: str, options: list[str], shift: int) -> str:
    """The prompt with the options rotated left by ``shift``."""
    letters = LETTERS[: len(options)]
    shown = rotated(options, shift)
    lines = "\n".join(f"{letter}) {text}" for letter, text in zip(letters, shown, strict=True))
    return TEMPLATE.format(question=question, choices=lines, letters=",".join(letters))


@solver
def rotated_choice(circular: bool) -> Solver:
    """Ask the item in its own option order, or once per rotation of its options."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        options = [choice.value for choice in state.choices]
        question = state.user_prompt.text
        asked = list(state.messages)
        rotations = []
        for shift, target in enumerate(rotation_targets(state.target.text, len(options), circular)):
            prompt = rotation_prompt(question, options, shift)
            state.messages = [*asked[:-1], ChatMessageUser(content=prompt)]
            state = await generate(state)
            rotations.append({"shift": shift, "target": target, "reply": state.output.completion})
        state.store.set(ROTATIONS_KEY, rotations)
        return state

    return solve


@scorer(
    metrics=[
        grouped_key_intervals(("all", "circular"), GROUPS, unit="item", names=STATIC_MEASURES),
        key_intervals(unit="item"),
    ]
)
def option_letter() -> Scorer:
    """Right when the reply picks the target letter: ``all``, ``invalid`` (and ``circular*``)."""

    async def score(state: TaskState, target: Target) -> Score:
        rotations = state.store.get(ROTATIONS_KEY)
        options = [choice.value for choice in state.choices]
        answers = [parse_choice_letter(r["reply"], rotated(options, r["shift"])) for r in rotations]
        right = [answer == r["target"] for answer, r in zip(answers, rotations, strict=True)]
        value = {"all": float(right[0]), "invalid": float(answers[0] is None)}
        if len(rotations) > 1:
            value["circular"] = float(all(right))
            value["circular_invalid"] = float(None in answers)
        return Score(
            value=value,
            answer=" ".join(answer or "-" for answer in answers),
            explanation="\n---\n".join(r["reply"] for r in rotations),
            metadata={
                "targets": [r["target"] for r in rotations],
                "answers": answers,
                "options": len(state.choices),
            },
        )

    return score


@task
def egosocial_static(
    source: str = "authors",
    scenarios: str | list[str] = "all",
    seed: int = 0,
    size: int | None = None,
    data_file: str | None = None,
    circular: bool = False,
    exclude_errata: bool = False,
) -> Task:
    """EgoSocialArena static environment: Daily Life, Counterfactual, New World, Blackjack."""
    integer("seed", seed, 0)
    if size is not None:
        integer("size", size, 1)
    flag("circular", circular)
    flag("exclude_errata", exclude_errata)
    scenarios = names("scenarios", scenarios)
    with recording_reads() as reads:
        items = build_static_items(
            source=source,
            scenarios=scenarios,
            seed=seed,
            size=size,
            data_file=data_file,
            exclude_errata=exclude_errata,
        )
    return Task(
        dataset=MemoryDataset(
            [record_to_sample(item) for item in items], name=f"egosocial_static_{source}"
        ),
        solver=rotated_choice(circular),
        scorer=option_letter(),
        version=TASK_VERSIONS["egosocial_static"],
        metadata={DATA_PROVENANCE: reads.metadata()},
    )
