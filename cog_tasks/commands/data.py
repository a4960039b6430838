"""``cog-tasks data ...``: build the benchmark datasets and push them to the Hub.

- ``cog-tasks data build coglm OUTPUT_DIR``: save the ``DatasetDict`` and its card
  in the layout of a Hub dataset repository (``datasets.load_dataset(OUTPUT_DIR)``
  and ``COG_TASKS_COGLM_HUB=OUTPUT_DIR`` read it);
- ``cog-tasks data push coglm --repo-id ORG/NAME``: push both to the Hub (needs
  network access and a write token).

Datasets are listed in :data:`BUILDERS`; add a benchmark there.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import datasets

from cog_tasks.hf_datasets import coglm
from cog_tasks.hf_datasets.folder import save_hub_folder


@dataclass(frozen=True)
class Builder:
    """How to build, describe and push one benchmark's dataset."""

    build: Callable[[], datasets.DatasetDict]
    card: Callable[[datasets.DatasetDict], str]
    push: Callable[..., str]


BUILDERS: dict[str, Builder] = {
    "coglm": Builder(coglm.build_dataset_dict, coglm.dataset_card, coglm.push_coglm),
}


def _build(args: argparse.Namespace) -> int:
    builder = BUILDERS[args.dataset]
    dataset = builder.build()
    files = save_hub_folder(dataset, builder.card(dataset), args.output)
    sizes = ", ".join(f"{name}={split.num_rows}" for name, split in dataset.items())
    print(f"{args.dataset}: {sizes}\nwrote {len(files)} files under {args.output}")
    return 0


def _push(args: argparse.Namespace) -> int:
    url = BUILDERS[args.dataset].push(args.repo_id, private=args.private)
    print(f"pushed {args.dataset} to {url}")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``data`` command group to the ``cog-tasks`` parser."""
    data = subparsers.add_parser("data", help="build benchmark datasets, push them to the Hub")
    commands = data.add_subparsers(dest="data_command", metavar="COMMAND", required=True)

    build = commands.add_parser(
        "build", help="save a dataset and its card to a folder laid out like a Hub repository"
    )
    build.add_argument("dataset", choices=sorted(BUILDERS))
    build.add_argument("output", type=Path, metavar="OUTPUT_DIR")
    build.set_defaults(func=_build)

    push = commands.add_parser(
        "push", help="push a dataset and its card to the Hugging Face Hub (needs a token)"
    )
    push.add_argument("dataset", choices=sorted(BUILDERS))
    push.add_argument("--repo-id", required=True, help="ORG/NAME of the dataset repository")
    push.add_argument("--private", action="store_true", help="create the repository as private")
    push.set_defaults(func=_push)
