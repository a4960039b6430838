"""What made a result: which cog-tasks (version and commit) and which data files.

Every data file a benchmark reads goes through
:func:`cog_tasks.common.sources.fetch` or :func:`cog_tasks.common.files.read_text`,
and each reports what it read (a :class:`Provenance`) to :func:`record_read`.
An Inspect task builds its dataset inside :func:`recording_reads` and puts
:meth:`DataReads.metadata` in its ``Task(metadata=...)`` under
:data:`DATA_PROVENANCE`; :func:`cog_tasks.common.logs.run_identity` reads the
combined hash back, so runs on different data are never paired.

This module imports nothing of the package's but its version: every layer may record.
"""

from __future__ import annotations

import functools
import hashlib
import subprocess
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Literal, TypeVar

import cog_tasks

K = TypeVar("K", bound=Hashable)
T = TypeVar("T")
Check = Literal["pinned", "same content", "differs", "unverified"]
"""How a file compares with its pin: the same bytes, the same JSON, neither, or no pin."""
DATA_PROVENANCE = "data_provenance"
"""The key of :meth:`DataReads.metadata` in an Inspect task's metadata."""


@cache
def package_commit() -> str | None:
    """The git commit of the source tree cog-tasks runs from, or ``None`` outside a checkout.

    A tree with uncommitted changes gets ``+dirty``, so a result is never
    credited to a commit it does not match.
    """
    root = Path(cog_tasks.__file__).resolve().parent.parent
    if not (root / ".git").exists():
        return None
    try:
        commit = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
            timeout=10,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            check=True,
            timeout=10,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return commit + ("+dirty" if dirty else "")


def cog_tasks_version() -> str:
    """``<version>`` or ``<version> (<commit>)`` of the running cog-tasks."""
    commit = package_commit()
    return cog_tasks.__version__ + (f" ({commit})" if commit else "")


@dataclass(frozen=True)
class Provenance:
    """Where one data file came from and how it compares with its pin.

    Attributes:
        path: The file, as laid out upstream (or as named, for a file read in place).
        origin: ``local``, ``hub``, ``cache`` (a checked download read again) or
            ``upstream`` (downloaded now).
        source: The file, cached file or Hub config (with its revision) read.
        sha256: SHA-256 of the bytes read.
        check: ``pinned``, ``same content`` (a Hub copy), ``differs`` or
            ``unverified`` (no pin: a derived file, a file read in place, or
            CogBench until one exists).
        location: Where the origin is: the local folder, the Hub copy with its
            revision, or the upstream repository at its commit (``ORG/NAME@COMMIT``).
    """

    path: str
    origin: str
    source: str
    sha256: str
    check: Check
    location: str

    def as_dict(self) -> dict[str, str]:
        """The provenance as JSON, for a log's metadata."""
        return {
            "path": self.path,
            "origin": self.origin,
            "location": self.location,
            "source": self.source,
            "sha256": self.sha256,
            "check": self.check,
        }


@dataclass
class DataReads:
    """The data files read while a recording was active, in the order read.

    Attributes:
        files: One :class:`Provenance` per read (a file read twice is kept once
            by :meth:`metadata`).
    """

    files: list[Provenance] = field(default_factory=list)

    def sha256(self) -> str | None:
        """One SHA-256 over the files read, or ``None`` when none was.

        It hashes the sorted SHA-256 of each distinct file, one per line, and
        so depends on the bytes read alone: the same files read from a local
        folder, the cache or another folder give the same hash.
        """
        distinct = {(file.path, file.sha256) for file in self.files}
        if not distinct:
            return None
        lines = "".join(f"{digest}\n" for digest in sorted(d for _, d in distinct))
        return hashlib.sha256(lines.encode("ascii")).hexdigest()

    def metadata(self) -> dict[str, object]:
        """The reads folded into one JSON value, for a task's metadata.

        Returns:
            ``sha256`` (:meth:`sha256`), ``origins`` (each distinct
            ``origin location``, sorted) and ``files`` (each distinct file's
            :meth:`Provenance.as_dict`, sorted by path).
        """
        distinct = {(file.path, file.sha256): file for file in self.files}
        return {
            "sha256": self.sha256(),
            "origins": sorted({f"{file.origin} {file.location}".strip() for file in self.files}),
            "files": [distinct[key].as_dict() for key in sorted(distinct)],
        }


_RECORDINGS: ContextVar[tuple[DataReads, ...]] = ContextVar("cog_tasks_recordings", default=())


def record_read(provenance: Provenance) -> None:
    """Add one file read to every active recording (nothing happens without one)."""
    for reads in _RECORDINGS.get():
        reads.files.append(provenance)


@contextmanager
def recording_reads() -> Iterator[DataReads]:
    """Record the data files read inside the ``with`` block (recordings may nest).

    A loader that caches what it read must do so with :func:`cache_reads`,
    or it records nothing when it answers from its cache.

    Yields:
        The reads, filled in as files are read.
    """
    reads = DataReads()
    token = _RECORDINGS.set((*_RECORDINGS.get(), reads))
    try:
        yield reads
    finally:
        _RECORDINGS.reset(token)


def cache_reads(loader: Callable[[K], T]) -> Callable[[K], T]:
    """:func:`functools.cache` for a loader of one argument that records its reads.

    A call answered from the cache records again the reads of the call that
    filled it, so every recording holds every file its data came from.

    Args:
        loader: Reads data files for its argument (a hashable value).

    Returns:
        The cached loader.
    """
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
