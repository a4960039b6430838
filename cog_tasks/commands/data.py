"""``cog-tasks data build|push``: build the benchmark datasets, push them (private) to the Hub."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from cog_tasks.benchmarks import specs
from cog_tasks.common.cli import UsageError, add_out_option, required_out
from cog_tasks.common.provenance import recording_reads
from cog_tasks.common.spec import DataSource, load


def _writer(source: DataSource) -> Callable[[Path], str]:
    """What writes one benchmark's Hub-shaped folder and returns one summary line."""
    if source.write:
        return load(source.write)
    build, card = load(source.build), load(source.card)
    check = load(source.check) if source.check else None

    def write(folder: Path) -> str:
        from cog_tasks.common.hub_folder import as_configs, save_hub_folder

        with recording_reads() as reads:
            built = build()
        if check is not None:
            check(built)  # refuses a partial copy
        files = save_hub_folder(built, card(built) + reads.card(), folder)
        sizes = ", ".join(
            f"{config}/{split}={rows.num_rows}"
            for config, splits in as_configs(built).items()
            for split, rows in splits.items()
        )
        return f"{sizes}\nwrote {len(files)} files under {folder}"

    return write


SOURCES: dict[str, DataSource] = {spec.name: spec.data for spec in specs() if spec.data}


def _build(args: argparse.Namespace) -> int:
    folder: Path = required_out(args)
    if folder.exists() and not folder.is_dir():
        raise NotADirectoryError(f"{folder}: not a folder; give a new or existing folder to --out")
    print(f"{args.dataset}: {_writer(SOURCES[args.dataset])(folder)}")
    return 0


def _push(args: argparse.Namespace) -> int:
    from huggingface_hub.errors import HFValidationError
    from huggingface_hub.utils import validate_repo_id

    from cog_tasks.common.hub_folder import push_folder

    try:  # before anything is built
        validate_repo_id(args.repo_id)
        if "/" not in args.repo_id:
            raise HFValidationError("give it as ORG/NAME")
    except HFValidationError as error:
        raise UsageError(
            f"--repo-id {args.repo_id!r}: not a Hub repository id ({error})"
        ) from error
    url = push_folder(_writer(SOURCES[args.dataset]), args.repo_id, public=args.public)
    visibility = "public" if args.public else "private"
    print(f"pushed {args.dataset} to {url} ({visibility})")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``data`` command group to the ``cog-tasks`` parser."""
    data = subparsers.add_parser("data", help="build benchmark datasets, push them to the Hub")
    commands = data.add_subparsers(dest="data_command", metavar="COMMAND", required=True)
    names = "; ".join(f"{name}: {source.description}" for name, source in SOURCES.items())
    build = commands.add_parser(
        "build", help="save a dataset and its card to a folder laid out like a Hub repository"
    )
    build.add_argument("dataset", choices=list(SOURCES), help=names)
    add_out_option(
        build, "folder to write (required; created if missing)", old_positional="OUTPUT_DIR"
    )
    build.set_defaults(func=_build)
    push = commands.add_parser(
        "push", help="push a dataset and its card to the Hugging Face Hub (needs a token)"
    )
    push.add_argument("dataset", choices=list(SOURCES), help=names)
    push.add_argument("--repo-id", required=True, help="ORG/NAME of the dataset repository")
    push.add_argument(
        "--public",
        action="store_true",
        help="create the repository as public (default: private; upstream licenses are unknown)",
    )
    push.set_defaults(func=_push)
