"""The ten CogLM abilities, their Piaget stages and the upstream file names."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cog_tasks.common.params import ParameterError, split_names


@dataclass(frozen=True)
class Ability:
    """One CogLM ability (``code`` as in ``coglm_<code>``, Piaget ``stage`` 1-4)."""

    code: str
    name: str
    stage: int
    stage_folder: str
    file_stem: str

    @property
    def relative_path(self) -> str:
        """Path of the ability's file below the ``coglm`` data folder."""
        return f"{self.stage_folder}/{self.file_stem}.json"


ABILITIES: tuple[Ability, ...] = (
    Ability("const", "Object permanence (constancy)", 1, "first_stage", "exist"),
    Ability("early", "Early representation", 1, "first_stage", "early_represent_mind"),
    Ability("semio", "Semiotic function", 2, "second_stage", "symbolic"),
    Ability("empat", "Empathy", 2, "second_stage", "self_center"),
    Ability("rever", "Reversibility", 3, "third_stage", "reversibility"),
    Ability("conse", "Conservation", 3, "third_stage", "conservation"),
    Ability("induc", "Induction", 3, "third_stage", "inductive"),
    Ability("deduc", "Hypothetico-deductive reasoning", 4, "fourth_stage", "deductive"),
    Ability("propo", "Propositional operations", 4, "fourth_stage", "propositional_thinking"),
    Ability("plan", "Planning", 4, "fourth_stage", "plan"),
)
ABILITY_BY_CODE: dict[str, Ability] = {ability.code: ability for ability in ABILITIES}
STAGES: tuple[int, ...] = (1, 2, 3, 4)
STAGE_NAMES: dict[int, str] = {
    1: "sensorimotor",
    2: "preoperational",
    3: "concrete operational",
    4: "formal operational",
}


def resolve_codes(codes: str | Sequence[str] | None) -> tuple[Ability, ...]:
    """Turn an ability selection (``None``, a comma-separated string or a list) into abilities."""
    if codes is None:
        return ABILITIES
    wanted = split_names(codes)
    unknown = sorted(set(wanted) - set(ABILITY_BY_CODE))
    if unknown:
        raise ParameterError(
            f"unknown CogLM ability code(s) {unknown}; known: {list(ABILITY_BY_CODE)}"
        )
    return tuple(ability for ability in ABILITIES if ability.code in wanted)
