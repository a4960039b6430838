"""CogLM as a Hugging Face ``DatasetDict`` with a dataset card, and its push.

One split per ability code; the columns are the fields of
:class:`cog_tasks.coglm.records.CogLMRecord` plus ``num_choices``, which is
what :func:`cog_tasks.coglm.records.load_hub` reads back.
"""

from __future__ import annotations

import os
from importlib import resources
from string import Template

import datasets

from cog_tasks.coglm.abilities import ABILITIES, ABILITY_BY_CODE
from cog_tasks.coglm.records import (
    UPSTREAM_COMMIT,
    UPSTREAM_REPO,
    load_records,
    records_by_ability,
)

FEATURES = datasets.Features(
    {
        "id": datasets.Value("string"),
        "ability": datasets.Value("string"),
        "stage": datasets.Value("int32"),
        "question": datasets.Value("string"),
        "choices": datasets.List(datasets.Value("string")),
        "answer": datasets.Value("int32"),
        "num_choices": datasets.Value("int32"),
    }
)
CARD_TEMPLATE = "coglm_card.md"


def build_dataset_dict(data_dir: str | os.PathLike[str] | None = None) -> datasets.DatasetDict:
    """Build the CogLM ``DatasetDict`` from the raw files, one split per ability.

    Args:
        data_dir: Local folder holding ``coglm/<stage>/<file>.json``; defaults to
            the resolver's choice (``$COG_TASKS_DATA`` or the pinned upstream).

    Returns:
        Splits named by ability code, in canonical order.
    """
    grouped = records_by_ability(load_records(data_dir=data_dir))
    return datasets.DatasetDict(
        {
            code: datasets.Dataset.from_list(
                [record.to_dict() for record in records], features=FEATURES
            )
            for code, records in grouped.items()
        }
    )


def dataset_card(dataset: datasets.DatasetDict) -> str:
    """The dataset card (README.md with YAML metadata) for a built ``DatasetDict``."""
    template = Template(
        resources.files("cog_tasks.hf_datasets").joinpath(CARD_TEMPLATE).read_text("utf-8")
    )
    data_files = "\n".join(f"  - split: {code}\n    path: data/{code}-*" for code in dataset)
    split_rows = "\n".join(
        f"| `{code}` | {ABILITY_BY_CODE[code].name} | {ABILITY_BY_CODE[code].stage} "
        f"| `{ABILITY_BY_CODE[code].relative_path}` | {dataset[code].num_rows} |"
        for code in dataset
    )
    return template.substitute(
        data_files=data_files,
        split_rows=split_rows,
        num_rows=f"{sum(split.num_rows for split in dataset.values()):,}",
        upstream_repo=UPSTREAM_REPO,
        upstream_commit=UPSTREAM_COMMIT,
    )


def push_coglm(repo_id: str, private: bool = False, token: str | None = None) -> str:
    """Build CogLM and push it, with its card, to the Hugging Face Hub.

    Needs network access and a token with write access (``huggingface-cli login``
    or ``$HF_TOKEN``).

    Args:
        repo_id: ``ORG/NAME`` of the dataset repository (created if missing).
        private: Create the repository as private.
        token: Hub token; defaults to the logged-in one.

    Returns:
        The dataset's URL.
    """
    from huggingface_hub import DatasetCard

    dataset = build_dataset_dict()
    if list(dataset) != [ability.code for ability in ABILITIES]:
        raise ValueError(f"refusing to push a partial CogLM: splits {list(dataset)}")
    dataset.push_to_hub(repo_id, private=private, token=token)
    DatasetCard(dataset_card(dataset)).push_to_hub(repo_id, token=token, repo_type="dataset")
    return f"https://huggingface.co/datasets/{repo_id}"
