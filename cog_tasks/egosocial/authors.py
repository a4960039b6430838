"""The EgoSocialArena authors' released items and their resolver.

The authors released three JSONL files (gyhou123/EgoSocialArena, folder
``data/``): ``socialfirst.jsonl`` (Daily Life), ``counterfact.jsonl``
(Counterfactual) and ``blackjack.jsonl`` (Blackjack prompts without answers).
Each file is found, in order:

1. ``$COG_TASKS_DATA/egosocial/<file>`` (or the ``data_dir`` argument);
2. a Hub dataset named by ``$COG_TASKS_EGOSOCIAL_HUB`` (``ORG/NAME[@REVISION]``
   or a local folder written by ``cog-tasks data build egosocial``), one config
   per file with a ``test`` split;
3. the pinned upstream commit, downloaded once into the cache (never under
   ``HF_HUB_OFFLINE=1``).

Multiple-choice records hold ``Story``, ``Question``, ``Option`` (a list of
texts), ``Answer`` (the text of one option) and, optionally, ``Ability`` (any
label, kept as it is; a record without one gets its scenario's label).
Blackjack records hold ``system`` and ``user``; the cards are read from the
``user`` prompt.
"""

from __future__ import annotations

import os
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cog_tasks.common.files import DataFileError, iter_jsonl, write_atomically
from cog_tasks.common.settings import (
    DATA_ENV,
    HubSource,
    cache_dir,
    hub_env,
    hub_source,
    local_data_dir,
    offline,
)
from cog_tasks.egosocial.blackjack import BlackjackHand, parse_prompt_cards
from cog_tasks.egosocial.records import FIRST_PERSON_SYSTEM, SCENARIO_LABELS, EgoItem, Scenario

UPSTREAM_REPO = "gyhou123/EgoSocialArena"
UPSTREAM_COMMIT = "9fbd145cbb56dedc16c84c93a1e338eeb337aebd"
UPSTREAM_URL = f"https://raw.githubusercontent.com/{UPSTREAM_REPO}/{UPSTREAM_COMMIT}/data"
HUB_ENV = hub_env("egosocial")
#: The authors' multiple-choice file of each scenario that has one.
CHOICE_FILES: dict[str, str] = {
    "daily_life": "socialfirst.jsonl",
    "counterfactual": "counterfact.jsonl",
}
BLACKJACK_FILE = "blackjack.jsonl"
#: Hub config (and ``cog-tasks data build`` split) holding each file.
HUB_CONFIGS: dict[str, str] = {
    "socialfirst.jsonl": "daily_life",
    "counterfact.jsonl": "counterfactual",
    BLACKJACK_FILE: "blackjack",
}
#: Column of a Hub row that keeps the record's line in the upstream file.
LINE_COLUMN = "line"
CHOICE_FIELDS = ("Story", "Question", "Option", "Answer")


class AuthorsDataUnavailable(FileNotFoundError):
    """None of the three sources could provide an authors' file."""


def _unavailable(file: str, reason: str) -> AuthorsDataUnavailable:
    return AuthorsDataUnavailable(
        f"the EgoSocialArena authors' file {file!r} is not available: {reason}. It comes from "
        f"{UPSTREAM_URL}/{file} ({UPSTREAM_REPO} at commit {UPSTREAM_COMMIT}). Either put it at "
        f"${DATA_ENV}/egosocial/{file}, or set ${HUB_ENV} to a Hub dataset ORG/NAME[@REVISION] "
        "or a folder written by `cog-tasks data build egosocial`."
    )


def _download(file: str) -> Path:
    cached = cache_dir() / "egosocial" / UPSTREAM_COMMIT / file
    if cached.is_file():
        return cached
    if offline():
        raise _unavailable(file, "HF_HUB_OFFLINE is set, so the network is not tried")
    url = f"{UPSTREAM_URL}/{file}"
    try:
        with urllib.request.urlopen(url, timeout=60) as response:  # noqa: S310 (pinned https URL)
            payload = response.read()
    except (urllib.error.URLError, TimeoutError, OSError) as error:
        raise _unavailable(file, f"downloading {url} failed ({error})") from error
    cached.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(cached, payload)
    return cached


def _hub_rows(file: str, hub: HubSource) -> Iterator[tuple[int, dict[str, Any]]]:
    import datasets

    split = datasets.load_dataset(
        hub.location,
        HUB_CONFIGS[file],
        split="test",
        revision=hub.revision,
        # datasets caches a local folder by its name: read a rebuilt folder afresh
        download_mode="force_redownload" if hub.is_folder else None,
    )
    for row in split:
        record = {key: value for key, value in row.items() if value is not None}
        yield int(record.pop(LINE_COLUMN)), record


@dataclass(frozen=True)
class AuthorsRows:
    """The records of one authors' file and where they came from.

    Attributes:
        source: The file path, or ``<hub> config <name>``; quoted in errors.
        rows: ``(line number in the upstream file, record)`` pairs.
    """

    source: str
    rows: list[tuple[int, dict[str, Any]]]


def read_authors_file(
    file: str, data_dir: str | os.PathLike[str] | None = None, hub: str | None = None
) -> AuthorsRows:
    """Read one authors' file through the resolver (local, Hub, pinned upstream).

    Args:
        file: ``socialfirst.jsonl``, ``counterfact.jsonl`` or ``blackjack.jsonl``.
        data_dir: Local data root; defaults to ``$COG_TASKS_DATA``.
        hub: Hub dataset or built folder; defaults to ``$COG_TASKS_EGOSOCIAL_HUB``.

    Raises:
        AuthorsDataUnavailable: When no source has the file.
        DataFileError: Naming the file and line of a line that is not a JSON object.
    """
    local = local_data_dir(data_dir)
    if local is not None and (local / "egosocial" / file).is_file():
        path = local / "egosocial" / file
        return AuthorsRows(str(path), list(iter_jsonl(path)))
    source = hub_source("egosocial", hub)
    if source is not None:
        return AuthorsRows(f"{source} config {HUB_CONFIGS[file]}", list(_hub_rows(file, source)))
    path = _download(file)
    return AuthorsRows(str(path), list(iter_jsonl(path)))


def choice_item(record: Mapping[str, Any], scenario: Scenario, where: str, item_id: str) -> EgoItem:
    """Turn one authors'-format multiple-choice record into an item.

    Args:
        record: ``Story``, ``Question``, ``Option``, ``Answer`` and optional ``Ability``.
        scenario: The scenario the file belongs to.
        where: ``file:line``, quoted in errors.
        item_id: The item's id.

    Raises:
        DataFileError: Naming ``where`` for a missing field, options that are not
            a list of at least two distinct texts, or an answer that is not one
            of the options (matched exactly).
    """
    missing = [key for key in CHOICE_FIELDS if key not in record]
    if missing:
        raise DataFileError(f"{where}: missing field(s) {', '.join(missing)}")
    options = record["Option"]
    if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
        raise DataFileError(f"{where}: Option must be a list of texts")
    if len(options) < 2 or len(set(options)) != len(options):
        raise DataFileError(f"{where}: Option needs at least 2 distinct texts, got {options}")
    if record["Answer"] not in options:
        raise DataFileError(
            f"{where}: Answer {record['Answer']!r} is not one of its options {options}"
        )
    label = str(record.get("Ability") or "").strip() or SCENARIO_LABELS[scenario]
    return EgoItem(
        id=item_id,
        scenario=scenario,
        label=label,
        system=FIRST_PERSON_SYSTEM,
        story=str(record["Story"]).strip(),
        question=str(record["Question"]).strip(),
        options=tuple(options),
        answer=options.index(record["Answer"]),
        metadata={"source": "authors", "line": int(where.rsplit(":", 1)[-1])},
    )


def load_choice_items(
    scenario: Scenario,
    data_file: str | os.PathLike[str] | None = None,
    data_dir: str | os.PathLike[str] | None = None,
    hub: str | None = None,
) -> list[EgoItem]:
    """The authors' multiple-choice items of one scenario, or a file in their format.

    Args:
        scenario: The scenario to tag the items with.
        data_file: A JSONL file in the authors' format read instead of theirs.
        data_dir: Local data root (see :func:`read_authors_file`).
        hub: Hub dataset or built folder (see :func:`read_authors_file`).

    Returns:
        One item per record, ids ``<scenario>-authors-<line>`` (``<file stem>-<line>``
        for ``data_file``).

    Raises:
        ValueError: When the authors released no multiple-choice file for ``scenario``.
        DataFileError: Naming the file and line of a malformed record.
    """
    if data_file is not None:
        path = Path(data_file)
        rows, source, prefix = list(iter_jsonl(path)), str(path), path.stem
    elif scenario in CHOICE_FILES:
        found = read_authors_file(CHOICE_FILES[scenario], data_dir, hub)
        rows, source, prefix = found.rows, found.source, f"{scenario}-authors"
    else:
        raise ValueError(
            f"the authors released no multiple-choice items for {scenario!r} (they have "
            f"{', '.join(CHOICE_FILES)}); use source=generated or pass data_file"
        )
    return [
        choice_item(record, scenario, f"{source}:{line}", f"{prefix}-{line:04d}")
        for line, record in rows
    ]


@dataclass(frozen=True)
class BlackjackPrompt:
    """One of the authors' blackjack prompts, with the cards read from it.

    Attributes:
        id: ``blackjack-authors-<line>``.
        system: The authors' system message (the rules).
        user: The authors' user message (the situation and the output format).
        hand: The cards the prompt shows.
    """

    id: str
    system: str
    user: str
    hand: BlackjackHand


def load_blackjack_prompts(
    data_dir: str | os.PathLike[str] | None = None, hub: str | None = None
) -> list[BlackjackPrompt]:
    """The authors' 50 blackjack prompts with their cards.

    Raises:
        DataFileError: Naming the file and line of a record without ``system``
            and ``user`` texts or whose cards cannot be read.
    """
    found = read_authors_file(BLACKJACK_FILE, data_dir, hub)
    prompts = []
    for line, record in found.rows:
        where = f"{found.source}:{line}"
        if not all(isinstance(record.get(key), str) for key in ("system", "user")):
            raise DataFileError(f"{where}: needs 'system' and 'user' texts")
        prompts.append(
            BlackjackPrompt(
                id=f"blackjack-authors-{line:04d}",
                system=record["system"],
                user=record["user"],
                hand=parse_prompt_cards(record["user"], where),
            )
        )
    return prompts
