"""The CogEval reference item set (seed 0, no reasoning instruction) as a Hugging Face dataset."""

from __future__ import annotations

import json
from importlib import resources
from string import Template

import datasets

import cog_tasks
from cog_tasks.cogeval.generator import generate_items
from cog_tasks.cogeval.published import UPSTREAM_COMMIT, UPSTREAM_REPO
from cog_tasks.common.hub_folder import configs_yaml

REFERENCE_SEED = 0
SPLIT = "test"
CARD_TEMPLATE = "dataset_card.md"
FEATURES = datasets.Features(
    {
        "id": datasets.Value("string"),
        "graph": datasets.Value("string"),
        "domain": datasets.Value("string"),
        "condition": datasets.Value("string"),
        "family": datasets.Value("string"),
        "cot": datasets.Value("string"),
        "seed": datasets.Value("int32"),
        "system": datasets.Value("string"),
        "turns": datasets.List(datasets.Value("string")),
        "prompt": datasets.Value("string"),
        "expected": datasets.List(datasets.Value("string")),
        "graph_context": datasets.Value("string"),
    }
)


def build_dataset_dict() -> datasets.DatasetDict:
    """Generate the reference item set (seed 0) as a ``DatasetDict`` with a ``test`` split."""
    rows = []
    for item in generate_items(seed=REFERENCE_SEED):
        row = item.to_record()
        row["graph_context"] = json.dumps(row["graph_context"], sort_keys=True)
        rows.append(row)
    return datasets.DatasetDict({SPLIT: datasets.Dataset.from_list(rows, features=FEATURES)})


def dataset_card(dataset: datasets.DatasetDict) -> str:
    """The dataset card (README.md with YAML metadata) for the built set."""
    template = Template(
        resources.files("cog_tasks.cogeval").joinpath(CARD_TEMPLATE).read_text("utf-8")
    )
    split = dataset[SPLIT]
    graphs = sorted(set(split["graph"]))
    return template.substitute(
        configs_yaml=configs_yaml(dataset),
        num_rows=f"{split.num_rows:,}",
        graphs=", ".join(f"`{graph}`" for graph in graphs),
        version=cog_tasks.__version__,
        seed=REFERENCE_SEED,
        templates_repo=UPSTREAM_REPO,
        templates_commit=UPSTREAM_COMMIT,
    )
