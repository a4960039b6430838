"""CogLM records as Inspect samples."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessage, ChatMessageAssistant, ChatMessageUser

from cog_tasks.coglm.extract import LETTERS
from cog_tasks.coglm.metrics import chance_count
from cog_tasks.coglm.prompts import DEFAULT_PROMPT, Turn, chat_turns
from cog_tasks.coglm.rationale import DEFAULT_RATIONALE_FORM
from cog_tasks.coglm.records import CogLMRecord, load_records, records_by_ability
from cog_tasks.coglm.rules import DEFAULT_CHANCE
from cog_tasks.common.params import ParameterError


def chat_input(turns: Sequence[Turn]) -> str | list[ChatMessage]:
    """Inspect's input for the turns of a prompt: the text of a lone user turn, else messages."""
    if len(turns) == 1:
        return turns[0][1]
    return [
        ChatMessageUser(content=text) if role == "user" else ChatMessageAssistant(content=text)
        for role, text in turns
    ]


def record_to_sample(
    record: CogLMRecord,
    *,
    prompt: str = DEFAULT_PROMPT,
    cot: bool = False,
    rationale: str | None = None,
    rationale_form: str = DEFAULT_RATIONALE_FORM,
    chance: str = DEFAULT_CHANCE,
) -> Sample:
    """Turn one record into a sample: the full chat prompt, the answer letter as target."""
    return Sample(
        id=record.id,
        input=chat_input(
            chat_turns(
                record.question,
                record.choices,
                prompt=prompt,
                cot=cot,
                rationale=rationale,
                rationale_form=rationale_form,
            )
        ),
        choices=list(record.choices),
        target=LETTERS[record.answer],
        metadata={
            "ability": record.ability,
            "stage": record.stage,
            "num_choices": record.num_choices,
            "num_distinct_choices": record.num_distinct_choices,
            "chance_options": chance_count(record.choices, chance),
        },
    )


def coglm_dataset(
    abilities: str | Sequence[str] | None = None,
    *,
    per_ability: int | None = None,
    prompt: str = DEFAULT_PROMPT,
    cot: bool = False,
    rationales: Mapping[str, str] | None = None,
    rationale_form: str = DEFAULT_RATIONALE_FORM,
    chance: str = DEFAULT_CHANCE,
) -> MemoryDataset:
    """Build the CogLM dataset through the record resolver (arguments: those of ``coglm_chat``).

    ``rationales`` (chain of cognition) must hold every selected sample id.
    """
    records = load_records(abilities)
    if per_ability is not None:  # the first records of every ability: a stratified subset
        if per_ability < 1:
            raise ParameterError(f"per_ability must be at least 1, got {per_ability}")
        records = [r for group in records_by_ability(records).values() for r in group[:per_ability]]
    if rationales is not None:
        missing = [record.id for record in records if record.id not in rationales]
        if missing:
            raise ParameterError(
                f"no rationale for {len(missing)} of {len(records)} samples "
                f"(first: {missing[:5]}); run the stronger model on the same items "
                "(same abilities and per_ability)"
            )
    return MemoryDataset(
        [
            record_to_sample(
                record,
                prompt=prompt,
                cot=cot,
                rationale=rationales[record.id] if rationales else None,
                rationale_form=rationale_form,
                chance=chance,
            )
            for record in records
        ],
        name="coglm_chat",
    )
