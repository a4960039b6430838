"""EgoSocialArena as a Hugging Face ``DatasetDict`` with a dataset card, and its push.

Configs ``daily_life``, ``counterfactual``, ``blackjack`` (the authors' records) and ``generated``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
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


CARD = Template("""---
pretty_name: EgoSocialArena (first-person theory of mind and socialization)
language:
- en
license: other
license_name: none-stated-upstream
task_categories:
- multiple-choice
- question-answering
tags:
- theory-of-mind
- evaluation
$configs
---

# EgoSocialArena

Items of EgoSocialArena (Hou et al., 2024), which tests theory of mind and
socialization of language models from the first person: the model is told
that the events happened to it. Made with the `cog-tasks` plugin
(`cog-tasks data build egosocial`); $num_rows rows in all.

## Source

- Upstream repository: https://github.com/$upstream_repo
- Commit: `$upstream_commit`, folder `data/` (`socialfirst.jsonl`,
  `counterfact.jsonl`, `blackjack.jsonl`)
- Paper: Hou et al., *Entering Real Social World!*, arXiv preprint, 2024

The authors' records are copied as they are, with `line` (their line in the
upstream file) added. The `generated` config is not the authors' data: it is
produced by `cog-tasks`' seeded generators (seed 0, default sizes).

## License status

The upstream repository states **no license** (none stated upstream). The
authors' items remain their work; this copy grants no rights to them. Check
with the authors before redistributing it, and prefer loading from the pinned
upstream commit, which is what `cog-tasks` does by default.

## Configs

Each config has one split, `test`.

| config | what | rows |
|---|---|---:|
$config_rows

## Fields

`daily_life`, `counterfactual`:

| field | type | meaning |
|---|---|---|
| `line` | int | the record's line in the upstream file |
| `Story` | string | the events, in the second person |
| `Question` | string | the question |
| `Option` | list of string | the options (2 or 4) |
| `Answer` | string | the text of the right option |
| `Ability` | string or null | the authors' label (`Belief`, `Emotion`, ..., `Non-li`) |

`Ability` is null in `counterfactual`. `blackjack`: `line`, `system` (the
rules), `user` (the cards and the output format: a free-text Self-Belief and
External-Belief; no answers).

`generated`: `id`, `scenario`, `label` (ability label), `perspective`
(`tom`, `socialization`, `control`), `system`, `story`, `question`,
`options`, `answer` (0-based index of the right option).

## Use

```python
import datasets
daily_life = datasets.load_dataset("ORG/NAME", "daily_life", split="test")
```

With cog-tasks, `COG_TASKS_EGOSOCIAL_HUB=ORG/NAME` (or `ORG/NAME@REVISION`,
or the folder this card sits in) makes `inspect eval cog_tasks/egosocial_static`
and `cog_tasks/egosocial_blackjack_beliefs` read the authors' items from here.

## Citation

```bibtex
@article{hou2024egosocialarena,
  title   = {Entering Real Social World! Benchmarking the Theory of Mind and
             Socialization Capabilities of LLMs from a First-Person Perspective},
  author  = {Hou, Guiyang and Zhang, Wenqi and Shen, Yongliang and Tan, Zeqi and
             Shen, Sihao and Lu, Weiming},
  journal = {arXiv preprint},
  year    = {2024}
}
```
""")

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
    return CARD.substitute(
        configs=configs_yaml(configs),
        config_rows=config_rows,
        num_rows=f"{sum(splits['test'].num_rows for splits in configs.values()):,}",
        upstream_repo=UPSTREAM_REPO,
        upstream_commit=UPSTREAM_COMMIT,
    )
