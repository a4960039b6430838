"""The EgoSocialArena authors' released items (three JSONL files) and their resolver."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from cog_tasks.common.files import DataFileError, iter_jsonl
from cog_tasks.common.params import ParameterError
from cog_tasks.common.settings import HubSource
from cog_tasks.common.sources import (
    Content,
    DataSource,
    DataSourceError,
    Fetched,
    Pin,
    check_unique,
    fetch,
    load_hub_split,
    record_key,
)
from cog_tasks.egosocial.blackjack import BlackjackHand, parse_prompt_cards
from cog_tasks.egosocial.records import FIRST_PERSON_SYSTEM, SCENARIO_LABELS, EgoItem, Scenario

UPSTREAM_REPO = "gyhou123/EgoSocialArena"
UPSTREAM_COMMIT = "9fbd145cbb56dedc16c84c93a1e338eeb337aebd"
#: The authors' multiple-choice file of each scenario that has one.
CHOICE_FILES = {"daily_life": "socialfirst.jsonl", "counterfactual": "counterfact.jsonl"}
SCENARIO_OF_FILE: dict[str, Scenario] = {file: scenario for scenario, file in CHOICE_FILES.items()}
BLACKJACK_FILE = "blackjack.jsonl"
#: Hub config (and ``cog-tasks data build`` split) holding each file.
HUB_CONFIGS: dict[str, str] = {**SCENARIO_OF_FILE, BLACKJACK_FILE: "blackjack"}
#: Column of a Hub row that keeps the record's line in the upstream file.
LINE_COLUMN = "line"
CHOICE_FIELDS = ("Story", "Question", "Option", "Answer")
#: The labels an ``Ability`` field may hold: the authors' six Daily Life abilities and
#: ``Counterfactual``. Any other label (``all``, a scenario name) is refused.
ABILITY_LABELS = (
    "Belief", "Emotion", "Intention", "Desire", "Knowledge", "Non-li", "Counterfactual",
)  # fmt: skip
#: The authors' items with a known fault, by id, with the fault.
ERRATA: dict[str, str] = {
    "daily_life-authors-0010": (
        "'What is in the storage cabinet?' is a reality question (gold 'Coat', what the "
        "story says is inside), not a belief, but is labelled Belief"
    ),
    "daily_life-authors-0011": (
        "gold 'Carrot' for what Xiao Li expects to find, but Xiao Li has already opened the "
        "cabinet and found the coat, so expects the coat"
    ),
}
#: Records in each file the authors released at :data:`UPSTREAM_COMMIT`.
RELEASED_COUNTS = {"socialfirst.jsonl": 49, "counterfact.jsonl": 10, BLACKJACK_FILE: 50}
#: SHA-256 of each file at :data:`UPSTREAM_COMMIT` (its bytes, and its JSON content).
RELEASED_SHA256: dict[str, Pin] = {
    "blackjack.jsonl": Pin(
        "cb1776e13bf1769a10e6b45dfdbc191587a273c668dca9afacb34ccaefe20b0c",
        "e5af7f1aaa4e270190611f2d27ed09d943ddffcc801d2ee9bbcfc72802dc38e6",
    ),
    "counterfact.jsonl": Pin(
        "9c57c6b6d65217cbed78ad27096433468b3614e93c70505cd1736ae0b390b78f",
        "b8ac385f3f8794fb7f32da5a355671b3d27bcf145bd5219e5f44f79c4c9607d5",
    ),
    "socialfirst.jsonl": Pin(
        "fcba6f9d99141d778bd276e68274e19204d4c255fc9352afeefec02fbb01d822",
        "399d36fe7de43ec5afb47881764889188767a82ae6587c06701053e0217bd525",
    ),
}


def read_hub_file(hub: HubSource, file: str) -> Content:
    """One authors' file from a Hub copy, written back as JSON Lines on its upstream lines."""
    config = HUB_CONFIGS[file]
    by_line = {}
    for row in load_hub_split(hub, config):
        record = {key: value for key, value in row.items() if value is not None}
        by_line[int(record.pop(LINE_COLUMN))] = record
    lines = [
        json.dumps(by_line[number], ensure_ascii=False) if number in by_line else ""
        for number in range(1, max(by_line, default=0) + 1)
    ]
    return Content(
        "".join(f"{line}\n" for line in lines).encode("utf-8"), f"{hub} config {config}", "hub"
    )


SOURCE = DataSource(
    benchmark="egosocial",
    title="EgoSocialArena",
    repo=UPSTREAM_REPO,
    commit=UPSTREAM_COMMIT,
    url_template="https://raw.githubusercontent.com/{repo}/{commit}/data/{path}",
    read_hub=read_hub_file,
    hub_copy="a folder written by `cog-tasks data build egosocial`",
    describe=lambda file: f"EgoSocialArena authors' file {file!r}",
    item_counts=RELEASED_COUNTS,
    pins=RELEASED_SHA256,
)
#: Deprecated alias of :class:`~cog_tasks.common.sources.DataSourceError` (to be removed).
AuthorsDataUnavailable = DataSourceError


def check_content(content: Content, file: str) -> list[tuple[int, dict[str, Any]]]:
    """Parse and check one authors' file (the fetch's validator); errors name the line."""
    rows = content.jsonl()
    if not rows:
        raise DataFileError(f"{content.source}: holds no records")
    check_numbered(rows, content.source)
    check_unique(rows_keys(rows), content.source)
    scenario = SCENARIO_OF_FILE.get(file)
    for line, record in rows:
        where = f"{content.source}:{line}"
        if scenario is None:
            blackjack_prompt(record, where, line)
        else:
            choice_item(record, scenario, where, f"{scenario}-authors-{line:04d}")
    return rows


def check_numbered(rows: list[tuple[int, dict[str, Any]]], source: str) -> None:
    """Refuse a blank line before the last record: item ids come from line numbers."""
    for expected, (line, _) in enumerate(rows, start=1):
        if line != expected:
            raise DataFileError(
                f"{source}:{expected}: blank line; item ids come from line numbers, so remove it"
            )


def rows_keys(rows: list[tuple[int, dict[str, Any]]]) -> Iterator[tuple[str, str]]:
    """``(line N, key)`` pairs for the duplicate-record check (key order does not matter)."""
    for line, record in rows:
        yield f"line {line}", record_key(record)


def read_authors_file(
    file: str, data_dir: str | os.PathLike[str] | None = None, hub: str | None = None
) -> Fetched[list[tuple[int, dict[str, Any]]]]:
    """Read one authors' file's ``(upstream line, record)`` pairs through ``sources.fetch``."""
    return fetch(SOURCE, file, partial(check_content, file=file), data_dir=data_dir, hub=hub)


def choice_item(record: Mapping[str, Any], scenario: Scenario, where: str, item_id: str) -> EgoItem:
    """Turn one authors'-format record into an item; errors name ``where`` (file:line)."""
    missing = [key for key in CHOICE_FIELDS if key not in record]
    if missing:
        raise DataFileError(f"{where}: missing field(s) {', '.join(missing)}")
    for key in ("Story", "Question"):
        if not isinstance(record[key], str) or not record[key].strip():
            raise DataFileError(f"{where}: {key} must be a non-empty text, got {record[key]!r}")
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
    if record.get("Ability") and label not in ABILITY_LABELS:
        raise DataFileError(f"{where}: Ability {label!r} is not one of {', '.join(ABILITY_LABELS)}")
    return EgoItem(
        id=item_id,
        scenario=scenario,
        label=label,
        system=FIRST_PERSON_SYSTEM,
        story=record["Story"].strip(),
        question=record["Question"].strip(),
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
    """The authors' multiple-choice items of one scenario, or of ``data_file`` in their format."""
    if data_file is not None:
        path = Path(data_file)
        rows, source, prefix = list(iter_jsonl(path)), str(path), path.stem
        if not rows:
            raise DataFileError(f"{path}: holds no records")
        check_unique(rows_keys(rows), source)
    elif scenario in CHOICE_FILES:
        found = read_authors_file(CHOICE_FILES[scenario], data_dir, hub)
        rows, source, prefix = found.value, found.source, f"{scenario}-authors"
    else:
        raise ParameterError(
            f"the authors released no multiple-choice items for {scenario!r} (they have "
            f"{', '.join(CHOICE_FILES)}); use source=generated or pass data_file"
        )
    return [
        choice_item(record, scenario, f"{source}:{line}", f"{prefix}-{line:04d}")
        for line, record in rows
    ]


@dataclass(frozen=True)
class BlackjackPrompt:
    """One of the authors' blackjack prompts (id ``blackjack-authors-<line>``), with its cards."""

    id: str
    system: str
    user: str
    hand: BlackjackHand


def blackjack_prompt(record: Mapping[str, Any], where: str, line: int) -> BlackjackPrompt:
    """Turn one authors' blackjack record into a prompt; ``DataFileError`` names ``where``."""
    if not all(isinstance(record.get(key), str) for key in ("system", "user")):
        raise DataFileError(f"{where}: needs 'system' and 'user' texts")
    return BlackjackPrompt(
        id=f"blackjack-authors-{line:04d}",
        system=record["system"],
        user=record["user"],
        hand=parse_prompt_cards(record["user"], where),
    )


def load_blackjack_prompts(
    data_dir: str | os.PathLike[str] | None = None, hub: str | None = None
) -> list[BlackjackPrompt]:
    """The authors' 50 blackjack prompts with their cards."""
    found = read_authors_file(BLACKJACK_FILE, data_dir, hub)
    return [
        blackjack_prompt(record, f"{found.source}:{line}", line) for line, record in found.value
    ]
