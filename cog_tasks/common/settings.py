"""Run-time settings (environment variables, docs/data.md): where data, Hub copies, caches live.

``COG_TASKS_DATA``, ``COG_TASKS_CACHE``, ``COG_TASKS_<BENCHMARK>_HUB`` for COGLM, COGEVAL,
COGBENCH and EGOSOCIAL, ``COG_TASKS_COGBENCH_REVISION`` and ``HF_HUB_OFFLINE``.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from cog_tasks.common.errors import SettingError
from cog_tasks.common.files import expand_user

DATA_ENV = "COG_TASKS_DATA"
CACHE_ENV = "COG_TASKS_CACHE"
OFFLINE_ENV = "HF_HUB_OFFLINE"
BENCHMARK_NAME = re.compile(r"[a-z][a-z0-9_]*")  # A registered benchmark's name.
TRUE_VALUES = frozenset({"1", "true", "yes", "on"})
COMMIT = re.compile(r"[0-9a-f]{7,40}")  # An abbreviated or full Git commit hash (lower-case hex).
HUB_REVISION = re.compile(r"[A-Za-z0-9][A-Za-z0-9._/-]*")  # A Hub branch, tag or commit.


def commit_like(value: str, setting: str) -> str:
    """``value`` if it is a commit hash (7 to 40 lower-case hex digits), else a SettingError."""
    if not COMMIT.fullmatch(value):
        raise SettingError(
            f"{setting}={value!r}: expected a commit (7 to 40 lower-case hex digits); "
            "branches and tags move, and the revision names a cache folder"
        )
    return value


def hub_env(benchmark: str) -> str:
    """Name of a benchmark's Hub setting (``coglm`` -> ``COG_TASKS_COGLM_HUB``)."""
    if not BENCHMARK_NAME.fullmatch(benchmark):
        raise ValueError(f"no Hub setting for {benchmark!r}: not a benchmark name")
    return f"COG_TASKS_{benchmark.upper()}_HUB"


@dataclass(frozen=True)
class HubSource:
    """Where a benchmark's Hub-shaped copy lives: ``ORG/NAME`` (at ``revision``) or a folder."""

    location: str
    revision: str | None
    setting: str

    @property
    def is_folder(self) -> bool:
        """True when the location is an existing local folder."""
        return Path(self.location).expanduser().is_dir()

    def __str__(self) -> str:
        return f"{self.location}@{self.revision}" if self.revision else self.location


def parse_hub(value: str, setting: str) -> HubSource:
    """Read ``ORG/NAME[@REVISION]`` or a local folder (:class:`SettingError` otherwise)."""
    text = value.strip()
    if not text:
        raise SettingError(f"{setting}={value!r} is blank; unset it or give ORG/NAME or a folder")
    folder = expand_user(text, setting)
    if folder.is_dir():
        return HubSource(str(folder.resolve()), None, setting)
    location, _, revision = text.partition("@")
    parts = location.split("/")
    bad_revision = "@" in text and not HUB_REVISION.fullmatch(revision)
    if len(parts) != 2 or not all(part.strip() for part in parts) or bad_revision:
        raise SettingError(
            f"{setting}={value!r}: expected ORG/NAME, ORG/NAME@REVISION or an existing "
            "folder written by `cog-tasks data build`"
        )
    return HubSource(location, revision or None, setting)


def hub_source(benchmark: str, explicit: str | None = None) -> HubSource | None:
    """A benchmark's Hub copy: the explicit value, else ``COG_TASKS_<BENCH>_HUB`` (or ``None``)."""
    setting = hub_env(benchmark)
    value = explicit if explicit else os.environ.get(setting)
    if value is None or (not explicit and value == ""):
        return None
    return parse_hub(value, "argument" if explicit else setting)


def offline() -> bool:
    """True when ``HF_HUB_OFFLINE`` asks for no network access."""
    return os.environ.get(OFFLINE_ENV, "").strip().lower() in TRUE_VALUES


def local_data_dir(explicit: str | os.PathLike[str] | None = None) -> Path | None:
    """Return the local data directory (``explicit``, else ``COG_TASKS_DATA``), if any."""
    value = explicit if explicit is not None else os.environ.get(DATA_ENV)
    if not value:
        return None
    source = "argument" if explicit is not None else f"${DATA_ENV}"
    try:
        path = expand_user(value, source).resolve()
    except (RuntimeError, OSError) as error:  # a symlink loop (RuntimeError before Python 3.13)
        raise SettingError(f"{value} (from {source}): cannot be resolved ({error})") from error
    if not path.is_dir():
        raise FileNotFoundError(f"data directory {path} (from {source}) does not exist")
    return path


def cache_dir() -> Path:
    """Return the cache root, creating it if needed."""
    value = os.environ.get(CACHE_ENV) or Path.home() / ".cache" / "cog-tasks"
    path = expand_user(value, f"${CACHE_ENV}")
    path.mkdir(parents=True, exist_ok=True)
    return path
