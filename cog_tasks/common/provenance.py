"""What made a result: which cog-tasks (version and commit) and which data files."""

from __future__ import annotations

import functools
import subprocess
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path
from typing import Literal, TypeVar

import cog_tasks
from cog_tasks.common.runs import UNRECORDED, text_sha256

K = TypeVar("K", bound=Hashable)
T = TypeVar("T")
Check = Literal["pinned", "same content", "differs", "unverified"]
"""How a file compares with its pin."""
SEVERITY: tuple[Check, ...] = ("pinned", "same content", "unverified", "differs")  # worst last
DATA_PROVENANCE = "data_provenance"  # The key of :meth:`DataReads.metadata` in a task's metadata.


@cache
def package_commit() -> str | None:
    """The git commit of the source tree (``+dirty`` with uncommitted changes), or ``None``."""
    root = Path(cog_tasks.__file__).resolve().parent.parent
    if not (root / ".git").exists():
        return None
    git = ["git", "-C", str(root)]
    queries = (["rev-parse", "HEAD"], ["status", "--porcelain", "--untracked-files=no"])
    try:
        commit, dirty = (
            subprocess.check_output(git + query, stderr=subprocess.DEVNULL, text=True, timeout=10)
            for query in queries
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return commit.strip() + ("+dirty" if dirty.strip() else "")


def cog_tasks_version() -> str:
    """``<version>`` or ``<version> (<commit>)`` of the running cog-tasks."""
    commit = package_commit()
    return cog_tasks.__version__ + (f" ({commit})" if commit else "")


@dataclass(frozen=True)
class Provenance:
    """Where one data file came from (``origin``, ``location``) and how it compares with its pin."""

    path: str
    origin: str
    source: str
    sha256: str
    check: Check
    location: str


def data_verdict(recorded: object) -> str:
    """A run's data check from its :meth:`DataReads.metadata`: the worst file's, naming it."""
    files = recorded.get("files") if isinstance(recorded, dict) else None
    if not isinstance(files, list):
        return UNRECORDED
    checks = [(str(f.get("path")), f.get("check")) for f in files if isinstance(f, dict)]
    ranks = [(path, SEVERITY.index(c) if c in SEVERITY else 2) for path, c in checks]  # each read
    if not ranks:
        return "unverified (no data file read)"
    worst = max(rank for _, rank in ranks)
    named = list(dict.fromkeys(path for path, rank in ranks if rank == worst))
    more = f" and {len(named) - 1} more" if len(named) > 1 else ""
    return SEVERITY[worst] + (f" (file {named[0]}{more})" if worst > 1 else "")


@dataclass
class DataReads:
    """The data files read while a recording was active, in the order read."""

    files: list[Provenance] = field(default_factory=list)

    def sha256(self) -> str | None:
        """One SHA-256 over the sorted SHA-256 of each distinct file read (``None``: none)."""
        distinct = {(file.path, file.sha256) for file in self.files}
        return text_sha256(*sorted(digest for _, digest in distinct)) if distinct else None

    def metadata(self) -> dict[str, object]:
        """The reads as one JSON value: ``sha256``, sorted ``origins`` and distinct ``files``."""
        distinct = {(file.path, file.sha256): file for file in self.files}
        return {
            "sha256": self.sha256(),
            "origins": sorted({f"{file.origin} {file.location}".strip() for file in self.files}),
            "files": [asdict(distinct[key]) for key in sorted(distinct)],
        }

    def card(self) -> str:
        """A dataset card's section: each file read, its check, origin (no local path), SHA-256."""
        lines = [
            f"- `{f['path']}`: {f['check']}, from {f['origin']}"
            f"{'' if f['origin'] == 'local' else ' ' + f['location']}, SHA-256 `{f['sha256']}`"
            for f in self.metadata()["files"]  # type: ignore[attr-defined]
        ]
        head = "\n## Provenance\n\nEach file read, checked against its pinned upstream file:\n\n"
        return head + "\n".join(lines) + "\n"


_RECORDINGS: ContextVar[tuple[DataReads, ...]] = ContextVar("cog_tasks_recordings", default=())


def record_read(provenance: Provenance) -> None:
    """Add one file read to every active recording (nothing happens without one)."""
    for reads in _RECORDINGS.get():
        reads.files.append(provenance)


@contextmanager
def recording_reads() -> Iterator[DataReads]:
    """Record data files read in the ``with`` block (caching loaders: :func:`cache_reads`)."""
    reads = DataReads()
    token = _RECORDINGS.set((*_RECORDINGS.get(), reads))
    try:
        yield reads
    finally:
        _RECORDINGS.reset(token)


def cache_reads(loader: Callable[[K], T]) -> Callable[[K], T]:
    """:func:`functools.cache` for a loader of one argument, recording its reads on every call."""
    done: dict[K, tuple[T, list[Provenance]]] = {}

    @functools.wraps(loader)
    def cached(argument: K) -> T:
        if argument in done:
            value, files = done[argument]
            for file in files:
                record_read(file)
            return value
        with recording_reads() as reads:
            value = loader(argument)
        done[argument] = (value, reads.files)
        return value

    return cached
