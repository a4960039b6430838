"""Which cog-tasks made a result: the installed version and, from a checkout, its commit."""

from __future__ import annotations

import subprocess
from functools import cache
from pathlib import Path

import cog_tasks


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
