"""Run identity: which runs a report may put in one row, and which it must keep apart."""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Generic, TypeVar

from cog_tasks.common.errors import UserError, warn
from cog_tasks.common.secrets import redact, redact_text

Run = TypeVar("Run")
Item = TypeVar("Item")
UNRECORDED = "unverified (not recorded)"  # The data check of a run whose source records none.


class SameContentError(UserError):
    """One input given twice (same content), or a row repeated inside one input."""


def file_sha256(path: str | os.PathLike[str]) -> str:
    """The SHA-256 (hex) of a file's bytes, read in blocks."""
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def text_sha256(*parts: str) -> str:
    """The SHA-256 (hex) of ``parts``, each followed by a newline."""
    return hashlib.sha256("".join(f"{part}\n" for part in parts).encode("utf-8")).hexdigest()


def inspect_content(log: Any) -> str:
    """An Inspect run's content key: its eval id and a hash of its sample records."""
    records = [
        sample.model_dump_json(exclude={"events", "attachments"}) for sample in log.samples or []
    ]
    return text_sha256(f"inspect:{log.eval.eval_id}", *records)


def distinct_by_content(
    items: Iterable[Item], content: Callable[[Item], str], source: Callable[[Item], str]
) -> list[Item]:
    """The items with every repeat of one content left out, each repeat warned once."""
    first: dict[str, Item] = {}
    kept = []
    for item in items:
        key = content(item)
        if key in first:
            warn(
                f"{source(item)} holds the same run as {source(first[key])} "
                f"(content {key[:12]}); counted once"
            )
            continue
        first[key] = item
        kept.append(item)
    return kept


def refuse_same_content(paths: Sequence[str | os.PathLike[str]], what: str = "input") -> None:
    """Refuse a score, rater or profile input given twice: the same file or the same bytes."""
    seen: dict[str, str | os.PathLike[str]] = {}
    for path in paths:
        if not Path(path).is_file():
            continue  # the reader names a missing file
        key = file_sha256(path)
        if key in seen:
            same_file = Path(path).resolve() == Path(seen[key]).resolve()
            same = "the same file" if same_file else "the same content"
            raise SameContentError(
                f"{path}: {same} as {seen[key]} (one {what} given twice would be counted "
                "twice); give it once"
            )
        seen[key] = path


def refuse_repeated_rows(rows: Iterable[tuple[str, Hashable]], source: str, what: str) -> None:
    """Refuse a row key that appears twice in one input (``rows``: ``(where, key)``)."""
    seen: dict[Hashable, str] = {}
    for where, key in rows:
        if key in seen:
            raise SameContentError(
                f"{where}: {what} {key!r} repeats {seen[key]} in {source}; give each row once"
            )
        seen[key] = where


def _text(value: object) -> str:
    """A stable text form of an argument value (JSON where it can be)."""
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, sort_keys=True)
    except TypeError:
        return str(value)


@dataclass(frozen=True, order=True)
class RunIdentity:
    """What makes two runs the same measurement (``seed`` ``None``: pooled or absent)."""

    task: str
    model: str
    roles: tuple[tuple[str, str], ...] = ()
    arguments: tuple[tuple[str, str], ...] = ()
    seed: str | None = None
    data: str = field(default=UNRECORDED, compare=False)  # the data check, not the measurement

    @classmethod
    def of(
        cls,
        task: str,
        model: str,
        *,
        roles: Mapping[str, str] | None = None,
        arguments: Mapping[str, object] | None = None,
        seed: object = None,
        data: str = UNRECORDED,
    ) -> RunIdentity:
        """Build an identity from plain mappings (``None`` arguments left out, secrets redacted)."""
        return cls(
            task=task,
            model=redact_text(model),
            roles=tuple(sorted((roles or {}).items())),
            arguments=tuple(
                sorted(
                    (name, _text(value))
                    for name, value in redact(arguments or {}).items()
                    if value is not None
                )
            ),
            seed=None if seed is None else _text(seed),
            data=data,
        )

    def without_seed(self) -> RunIdentity:
        """The identity with its seed left out (what pooling seeds keeps)."""
        return replace(self, seed=None)

    def fields(self) -> dict[str, str]:
        """Every field as ``name -> text`` (roles as ``role:<name>``, arguments by name)."""
        shown = {"task": self.task, "model": self.model}
        shown.update({f"role:{role}": model for role, model in self.roles})
        shown.update(dict(self.arguments))
        if self.seed is not None:
            shown["seed"] = self.seed
        return shown

    def as_dict(self) -> dict[str, object]:
        """The identity as JSON (``task``, ``model``, ``roles``, ``arguments``, ``seed``)."""
        shown = asdict(self) | {"roles": dict(self.roles), "arguments": dict(self.arguments)}
        return {name: value for name, value in shown.items() if name != "data"}

    def label(self) -> str:
        """Every field on one line: ``task model role:judge=... k=v seed=s``."""
        return " ".join(
            value if name in {"task", "model"} else f"{name}={value}"
            for name, value in self.fields().items()
        )


def distinguishing_labels(identities: Sequence[RunIdentity]) -> list[str]:
    """Short row labels: the model plus every differing field (``#1``, ``#2``... for twins)."""
    every = [identity.fields() for identity in identities]
    names = list(dict.fromkeys(name for fields in every for name in fields))
    differing = [
        name
        for name in names
        if name != "model" and len({fields.get(name) for fields in every}) > 1
    ]
    labels = [
        " ".join(
            [fields["model"]] + [f"{name}={fields[name]}" for name in differing if name in fields]
        )
        for fields in every
    ]
    counts, seen = Counter(labels), Counter[str]()
    for position, label in enumerate(labels):
        if counts[label] > 1:
            seen[label] += 1
            labels[position] = f"{label} #{seen[label]}"
    return labels


@dataclass(frozen=True)
class RunGroup(Generic[Run]):
    """One report row: a run, or runs pooled on request (``seeds``: the seeds pooled)."""

    identity: RunIdentity
    runs: list[Run] = field(default_factory=list)
    seeds: tuple[str, ...] = ()

    @property
    def pooled(self) -> bool:
        """Whether the row pools more than one run."""
        return len(self.runs) > 1

    def pooling_note(self) -> str:
        """One line saying what the row pools, or ``""``."""
        if not self.pooled:
            return ""
        seeds = ", ".join(seed or "none" for seed in self.seeds)
        return f"pooled {len(self.runs)} runs of one identity (seeds: {seeds})"


def group_runs(
    runs: Iterable[Run], identity: Callable[[Run], RunIdentity], *, pool_seeds: bool = False
) -> list[RunGroup[Run]]:
    """Group runs into report rows, in order; only ``pool_seeds`` merges runs (by seed)."""
    if not pool_seeds:
        return [RunGroup(identity(run), [run], ()) for run in runs]
    pooled: dict[RunIdentity, list[tuple[Run, RunIdentity]]] = {}
    for run in runs:
        full = identity(run)
        pooled.setdefault(full.without_seed(), []).append((run, full))
    groups = []
    for key, members in pooled.items():
        if len(members) == 1:
            ((run, full),) = members
            groups.append(RunGroup(full, [run], ()))
        else:
            seeds = tuple(full.seed or "none" for _, full in members)
            groups.append(RunGroup(key, [run for run, _ in members], seeds))
    return groups
