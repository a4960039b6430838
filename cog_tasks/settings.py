"""Run-time settings shared by every benchmark: where data and caches live.

Settings come from environment variables so that lm-eval, Inspect and the
``cog-tasks`` command all see the same values:

- ``COG_TASKS_DATA``: a local directory laid out like ``../shared/data``
  (``coglm/<stage>/<file>.json``, ``cogeval/task_templates/...``). When set,
  loaders read from it instead of the network.
- ``COG_TASKS_CACHE``: where converted models and downloaded files are cached
  (default ``~/.cache/cog-tasks``).
"""

from __future__ import annotations

import os
from pathlib import Path

DATA_ENV = "COG_TASKS_DATA"
CACHE_ENV = "COG_TASKS_CACHE"


def local_data_dir(explicit: str | os.PathLike[str] | None = None) -> Path | None:
    """Return the local data directory, if one is configured.

    Args:
        explicit: A directory given directly by the caller; it wins over the
            ``COG_TASKS_DATA`` environment variable.

    Returns:
        The directory, or ``None`` when neither source names one.

    Raises:
        FileNotFoundError: If a directory is named but does not exist.
    """
    value = explicit if explicit is not None else os.environ.get(DATA_ENV)
    if not value:
        return None
    path = Path(value).expanduser().resolve()
    if not path.is_dir():
        source = "argument" if explicit is not None else f"${DATA_ENV}"
        raise FileNotFoundError(f"data directory {path} (from {source}) does not exist")
    return path


def cache_dir() -> Path:
    """Return the cache root, creating it if needed."""
    path = Path(os.environ.get(CACHE_ENV) or Path.home() / ".cache" / "cog-tasks").expanduser()
    path.mkdir(parents=True, exist_ok=True)
    return path
