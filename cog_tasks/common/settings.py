"""Run-time settings shared by every benchmark: where data, Hub copies and caches live.

Settings come from environment variables so that lm-eval, Inspect and the
``cog-tasks`` command all see the same values. Every variable the package
reads is listed here (and in the root README, *Settings*):

- ``COG_TASKS_DATA``: a local directory laid out like the upstream releases,
  ``<benchmark>/<upstream path>`` (``coglm/<stage>/<file>.json``,
  ``egosocial/<file>.jsonl``, ``cogbench/<language>/cogbench_a.json``...).
  :func:`cog_tasks.common.sources.fetch` reads a file from it first, and then
  never touches the network; the tests also read ``cogeval/task_templates/`` from it.
- ``COG_TASKS_CACHE``: where converted models and checked downloads are cached
  (default ``~/.cache/cog-tasks``; downloads under ``<benchmark>/<commit>/``).
- ``COG_TASKS_<BENCH>_HUB`` for each registered benchmark (``COGLM``,
  ``COGEVAL``, ``COGBENCH``, ``EGOSOCIAL``): a Hugging Face Hub dataset
  ``ORG/NAME`` or ``ORG/NAME@REVISION``, or a local folder written by
  ``cog-tasks data build``.
  See :func:`hub_source`. The data sources of CogLM, CogBench, CogEval's
  published tasks and EgoSocialArena read theirs (after ``COG_TASKS_DATA``);
  the authors' scripts and prompts have no Hub copy, so a Hub setting is
  refused for them.
- ``COG_TASKS_COGLM_TEST_LLAMA``: a copy of the CogLM authors' ``test_llama.py``
  (the wording of ``coglm_chat -T prompt=llama-text``; read by
  :mod:`cog_tasks.coglm.llama_text`).
- ``COG_TASKS_COGBENCH_REVISION``: the revision of the authors' Hub dataset
  ``kwaikeg/CogBench`` to read instead of the pinned one: a commit (7 to 40
  hex digits, see :func:`commit_like`), since it names a cache folder and only
  a commit never changes.

Every setting is checked when it is read, and a bad value raises
:class:`~cog_tasks.common.errors.SettingError` naming the setting: a blank Hub
value, a revision that is not a commit, a ``~user`` whose home does not exist.
- ``HF_HUB_OFFLINE`` (Hugging Face's own): when true, a file that would be
  downloaded fails at once with the ways out instead of trying the network
  (checked downloads already cached are still read).
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
BENCHMARK_NAME = re.compile(r"[a-z][a-z0-9_]*")
"""A registered benchmark's name (``cog_tasks.benchmarks``), its package folder."""
TRUE_VALUES = frozenset({"1", "true", "yes", "on"})
COMMIT = re.compile(r"[0-9a-f]{7,40}")
"""An abbreviated or full Git commit hash (lower-case hex)."""
HUB_REVISION = re.compile(r"[A-Za-z0-9][A-Za-z0-9._/-]*")
"""A Hub branch, tag or commit: no spaces, no leading ``-`` or ``.``."""


def commit_like(value: str, setting: str) -> str:
    """``value`` if it is a commit hash (7 to 40 lower-case hex digits).

    Args:
        value: The revision as given.
        setting: Where it came from (``COG_TASKS_COGBENCH_REVISION``, ``-T revision``).

    Raises:
        SettingError: Naming ``setting`` for anything else (a branch, ``../x``).
    """
    if not COMMIT.fullmatch(value):
        raise SettingError(
            f"{setting}={value!r}: expected a commit (7 to 40 lower-case hex digits); "
            "branches and tags move, and the revision names a cache folder"
        )
    return value


def hub_env(benchmark: str) -> str:
    """Name of a benchmark's Hub setting (``coglm`` -> ``COG_TASKS_COGLM_HUB``).

    The registry (``cog_tasks.benchmarks``, above this layer) says which
    benchmarks read one; here the name only has to be a benchmark's name.

    Raises:
        ValueError: For a name no benchmark could have.
    """
    if not BENCHMARK_NAME.fullmatch(benchmark):
        raise ValueError(f"no Hub setting for {benchmark!r}: not a benchmark name")
    return f"COG_TASKS_{benchmark.upper()}_HUB"


@dataclass(frozen=True)
class HubSource:
    """Where a benchmark's Hub-shaped copy lives.

    Attributes:
        location: ``ORG/NAME`` on the Hub, or a local folder path.
        revision: Branch, tag or commit on the Hub (``None``: the default branch).
        setting: Where the value came from, quoted in errors.
    """

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
    """Read ``ORG/NAME[@REVISION]`` or a local folder.

    Args:
        value: The text of the setting.
        setting: Its name, quoted in errors.

    Raises:
        SettingError: For a blank value, or one that is neither a folder nor
            ``ORG/NAME[@REVISION]``.
    """
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
    """A benchmark's Hub copy: the explicit value, else ``COG_TASKS_<BENCH>_HUB``.

    Args:
        benchmark: ``coglm``, ``cogeval``, ``cogbench`` or ``egosocial``.
        explicit: A value given by the caller; it wins over the environment.

    Returns:
        The source, or ``None`` when none is configured.
    """
    setting = hub_env(benchmark)
    value = explicit if explicit else os.environ.get(setting)
    if value is None or (not explicit and value == ""):
        return None
    return parse_hub(value, "argument" if explicit else setting)


def offline() -> bool:
    """True when ``HF_HUB_OFFLINE`` asks for no network access."""
    return os.environ.get(OFFLINE_ENV, "").strip().lower() in TRUE_VALUES


def local_data_dir(explicit: str | os.PathLike[str] | None = None) -> Path | None:
    """Return the local data directory, if one is configured.

    Args:
        explicit: A directory given directly by the caller; it wins over the
            ``COG_TASKS_DATA`` environment variable.

    Returns:
        The directory, or ``None`` when neither source names one.

    Raises:
        FileNotFoundError: If a directory is named but does not exist.
        SettingError: If it names the home of a user that does not exist.
    """
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
    """Return the cache root, creating it if needed.

    Raises:
        SettingError: If ``COG_TASKS_CACHE`` names the home of a user that does not exist.
    """
    value = os.environ.get(CACHE_ENV) or Path.home() / ".cache" / "cog-tasks"
    path = expand_user(value, f"${CACHE_ENV}")
    path.mkdir(parents=True, exist_ok=True)
    return path
