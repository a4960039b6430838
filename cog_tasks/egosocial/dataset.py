"""EgoSocialArena as a Hugging Face ``DatasetDict`` with a dataset card, and its push."""

from __future__ import annotations

import os
from collections.abc import Mapping
from importlib import resources
from string import Template

import datasets

from cog_tasks.common.hub_folder import configs_yaml
from cog_tasks.egosocial.authors import (
    BLACKJACK_FILE,
    CHOICE_FILES,
    HUB_CONFIGS,
    LINE_COLUMN,
    UPSTREAM_COMMIT,
    UPSTREAM_REPO,
    read_authors_file,
)
from cog_tasks.egosocial.static import build_static_items

CHOICE_FEATURES = datasets.Features(
    {
        LINE_COLUMN: datasets.Value("int32"),
        "Story": datasets.Value("string"),
        "Question": datasets.Value("string"),
        "Option": datasets.List(datasets.Value("string")),
        "Answer": datasets.Value("string"),
        "Ability": datasets.Value("string"),
    }
)
BLACKJACK_FEATURES = datasets.Features(
    {
        LINE_COLUMN: datasets.Value("int32"),
        "system": datasets.Value("string"),
        "user": datasets.Value("string"),
    }
)
#: The :class:`~cog_tasks.egosocial.records.EgoItem` fields of a generated row, in order.
GENERATED_FEATURES = datasets.Features(
    {
        name: datasets.Value("string")
        for name in ("id", "scenario", "label", "perspective", "system", "story", "question")
    }
    | {"options": datasets.List(datasets.Value("string")), "answer": datasets.Value("int32")}
)
GENERATED_CONFIG = "generated"


def build_dataset_dict(
    data_dir: str | os.PathLike[str] | None = None,
) -> dict[str, datasets.DatasetDict]:
    """Build the four configs, each a ``DatasetDict`` with ``test``, from the authors' files."""
    built: dict[str, datasets.Dataset] = {}
    for file in (*CHOICE_FILES.values(), BLACKJACK_FILE):
        features = BLACKJACK_FEATURES if file == BLACKJACK_FILE else CHOICE_FEATURES
        rows = [
            {name: record.get(name) for name in features if name != LINE_COLUMN}
            | {LINE_COLUMN: line}
            for line, record in read_authors_file(file, data_dir).value
        ]
        built[HUB_CONFIGS[file]] = datasets.Dataset.from_list(rows, features=features)
    generated = [
        {name: getattr(item, name) for name in GENERATED_FEATURES} | {"options": list(item.options)}
        for item in build_static_items(source="generated")
    ]
    built[GENERATED_CONFIG] = datasets.Dataset.from_list(generated, features=GENERATED_FEATURES)
    return {name: datasets.DatasetDict({"test": rows}) for name, rows in built.items()}


CARD_TEMPLATE = "dataset_card.md"

CONFIG_DESCRIPTIONS = {
    "daily_life": "the authors' Daily Life items (`socialfirst.jsonl`)",
    "counterfactual": "the authors' Counterfactual items (`counterfact.jsonl`)",
    "blackjack": "the authors' Blackjack prompts (`blackjack.jsonl`)",
    GENERATED_CONFIG: "cog-tasks' generated items, all four scenarios",
}


def dataset_card(configs: Mapping[str, datasets.DatasetDict]) -> str:
    """The dataset card (README.md with YAML metadata) for the built configs."""
    config_rows = "\n".join(
        f"| `{name}` | {CONFIG_DESCRIPTIONS[name]} | {splits['test'].num_rows} |"
        for name, splits in configs.items()
    )
    template = Template(
        resources.files("cog_tasks.egosocial").joinpath(CARD_TEMPLATE).read_text("utf-8")
    )
    return template.substitute(
        configs=configs_yaml(configs),
        config_rows=config_rows,
        num_rows=f"{sum(splits['test'].num_rows for splits in configs.values()):,}",
        upstream_repo=UPSTREAM_REPO,
        upstream_commit=UPSTREAM_COMMIT,
    )
