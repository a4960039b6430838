"""``cog-tasks profile board``: one page over any number of stored profiles."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cog_tasks.commands.profile_views import (
    CompareLine,
    _failures_text,
    compare_lines,
    format_row,
    render_template,
)
from cog_tasks.common.cli import add_force_option
from cog_tasks.common.errors import UserError
from cog_tasks.common.files import new_output, read_json, write_text_atomically
from cog_tasks.common.stats import plural


@dataclass(frozen=True)
class Cell:
    """One model's value of one measure on the board (``href``: its samples, ``None``: none)."""

    text: str
    sort: float | None
    failed: str
    href: str | None
    title: str


@dataclass(frozen=True)
class BoardRow:
    """One measure: the columns every comparison shows, and a cell per model (``None``: absent)."""

    line: CompareLine
    cells: tuple[Cell | None, ...]


def bundle_logs(folder: Path, bundle: Path) -> dict[str, str]:
    """Bundle a profile folder's Inspect logs; return task name -> the log's path in ``logs/``."""
    logs = folder / "logs"
    if not any(logs.glob("**/*.eval")) and not any(logs.glob("**/*.json")):
        return {}
    command = [sys.executable, "-m", "inspect_ai", "view", "bundle", "--log-dir", str(logs)]
    command += ["--output-dir", str(bundle), "--overwrite"]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        lines = (done.stderr or done.stdout).strip().splitlines() or ["no output"]
        raise UserError(f"inspect view bundle of {logs} failed: {lines[-1]}")
    listing = read_json(bundle / "logs" / "listing.json")
    found: dict[str, str] = {}
    for path, header in sorted(listing.items(), key=lambda item: item[1].get("started_at", "")):
        task = str(header.get("task", "")).rpartition("/")[2]
        found[task] = path  # the latest log of a task wins (a resumed step)
    return found


def _links(folder: Path, page: Path, index: int) -> dict[str, str]:
    """Task name -> the href (relative to the page) of that task's samples in ``folder``."""
    bundle = page.parent / f"{page.stem}-logs" / f"{index + 1}-{folder.resolve().name}"
    links = {
        task: os.path.relpath(bundle / "index.html", page.parent) + "#/logs/" + path
        for task, path in bundle_logs(folder, bundle).items()
    }
    # The CogLM step's lm-eval samples: the folder of its samples_*.jsonl files.
    if samples := sorted(folder.glob("coglm_lm_eval-*/**/samples_*.jsonl")):
        links.setdefault("coglm", os.path.relpath(samples[-1].parent, page.parent) + "/")
    return links


def board_rows(
    names: Sequence[str], profiles: Sequence[Mapping[str, Any]], links: Sequence[Mapping[str, str]]
) -> list[BoardRow]:
    """One :class:`BoardRow` per measure of any profile, in first-seen order."""

    def cell(row: Mapping[str, Any] | None, hrefs: Mapping[str, str]) -> Cell | None:
        if row is None:
            return None
        title = f"{row['run']['task']}, {row['n']} {plural(row['unit'], row['n'])}"
        href = hrefs.get(row["run"]["task"].partition("@")[0])
        return Cell(format_row(row), row["value"], _failures_text(row), href, title)

    return [
        BoardRow(line, tuple(cell(row, hrefs) for row, hrefs in zip(line.rows, links, strict=True)))
        for line in compare_lines(names, profiles)
    ]


def write_board(folders: Sequence[Path], page: Path) -> Path:
    """Write the board of ``folders``' profiles to ``page`` (and its log bundles beside it)."""
    from cog_tasks.commands.profile import _read_profile

    profiles = [_read_profile(folder) for folder in folders]
    names = [
        f"{profile['model']} ({folder.resolve().name})"
        for folder, profile in zip(folders, profiles, strict=True)
    ]
    links = [_links(folder, page, index) for index, folder in enumerate(folders)]
    text = render_template(
        "board.html.j2",
        title=f"Cognitive profiles: {len(profiles)} models",
        names=names,
        rows=board_rows(names, profiles, links),
        identities=[
            (name, json.dumps(p.get("identity", {}), sort_keys=True))
            for name, p in zip(names, profiles, strict=True)
        ],
    )
    write_text_atomically(page, text)
    return page


def _board(args: argparse.Namespace) -> int:
    for folder in args.folders:
        if not (folder / "profile.json").is_file():
            raise UserError(f"{folder}: no profile.json (give profile run output folders)")
    if len({folder.resolve() for folder in args.folders}) < len(args.folders):
        raise UserError("profile board: a folder is given twice")
    page = new_output(args.out, args.force, *(f / "profile.json" for f in args.folders))
    write_board(args.folders, page)
    print(f"wrote {page}")
    return 0


def add_board_parser(commands: argparse._SubParsersAction) -> None:
    """Add ``profile board`` to the ``profile`` command group."""
    board = commands.add_parser(
        "board",
        help="one sortable page over stored profiles, each cell linked to its run's samples",
    )
    board.add_argument(
        "folders", type=Path, nargs="+", metavar="DIR", help="profile run output folder"
    )
    board.add_argument("--out", type=Path, required=True, help="the page to write (.html)")
    add_force_option(board)
    board.set_defaults(func=_board)
