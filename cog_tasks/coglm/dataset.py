"""CogLM as Hugging Face dataset configs (``all``, per ability, per stage) with a dataset card."""

from __future__ import annotations

import os
from importlib import resources
from string import Template

import datasets

from cog_tasks.coglm.abilities import ABILITIES, ABILITY_BY_CODE, STAGE_NAMES, STAGES
from cog_tasks.coglm.records import (
    UPSTREAM_COMMIT,
    UPSTREAM_REPO,
    CogLMDataError,
    CogLMRecord,
    load_records,
)
from cog_tasks.common.hub_folder import configs_yaml

FEATURES = datasets.Features(
    {
        "id": datasets.Value("string"),
        "ability": datasets.Value("string"),
        "stage": datasets.Value("int32"),
        "question": datasets.Value("string"),
        "choices": datasets.List(datasets.Value("string")),
        "answer": datasets.Value("int32"),
        "num_choices": datasets.Value("int32"),
        "num_distinct_choices": datasets.Value("int32"),
    }
)
SPLIT = "test"
ALL_CONFIG = "all"
CARD_TEMPLATE = "dataset_card.md"


def stage_config(stage: int) -> str:
    """Config name of a stage (``stage1``)."""
    return f"stage{stage}"


def _test_split(records: list[CogLMRecord]) -> datasets.DatasetDict:
    rows = [record.to_dict() for record in records]
    return datasets.DatasetDict({SPLIT: datasets.Dataset.from_list(rows, features=FEATURES)})


def build_dataset_dict(
    data_dir: str | os.PathLike[str] | None = None,
) -> dict[str, datasets.DatasetDict]:
    """Build each CogLM config (``all``, the abilities, ``stage1``-``stage4``) from raw files."""
    records = load_records(data_dir=data_dir)
    configs = {ALL_CONFIG: _test_split(records)}
    for ability in ABILITIES:
        configs[ability.code] = _test_split([r for r in records if r.ability == ability.code])
    for stage in STAGES:
        configs[stage_config(stage)] = _test_split([r for r in records if r.stage == stage])
    return configs


def _config_row(name: str, configs: dict[str, datasets.DatasetDict]) -> str:
    rows = configs[name][SPLIT].num_rows
    if name == ALL_CONFIG:
        return f"| `{name}` | every ability | 1-4 | `dataset/` | {rows} |"
    if name in ABILITY_BY_CODE:
        ability = ABILITY_BY_CODE[name]
        return (
            f"| `{name}` | {ability.name} | {ability.stage} | `{ability.relative_path}` | {rows} |"
        )
    stage = int(name.removeprefix("stage"))
    content = f"every ability of stage {stage} ({STAGE_NAMES[stage]})"
    return f"| `{name}` | {content} | {stage} | | {rows} |"


def dataset_card(configs: dict[str, datasets.DatasetDict]) -> str:
    """The dataset card (README.md with YAML metadata) for built configs."""
    template = Template(
        resources.files("cog_tasks.coglm").joinpath(CARD_TEMPLATE).read_text("utf-8")
    )
    return template.substitute(
        configs_yaml=configs_yaml(configs),
        config_rows="\n".join(_config_row(name, configs) for name in configs),
        num_rows=f"{configs[ALL_CONFIG][SPLIT].num_rows:,}",
        upstream_repo=UPSTREAM_REPO,
        upstream_commit=UPSTREAM_COMMIT,
    )


def check_complete(configs: dict[str, datasets.DatasetDict]) -> None:
    """Refuse to publish a partial CogLM (a subset from an odd ``COG_TASKS_DATA``)."""
    expected = [ALL_CONFIG, *(a.code for a in ABILITIES), *(stage_config(s) for s in STAGES)]
    if list(configs) != expected or configs[ALL_CONFIG][SPLIT].num_rows != 1220:
        raise CogLMDataError(f"refusing to publish a partial CogLM: configs {list(configs)}")
