"""Fixtures for the CogEval tests: the original task templates, read as reference."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(scope="session")
def templates_dir(shared_data: Path) -> Path:
    """``cogeval/task_templates`` under ``COG_TASKS_DATA`` (skips when absent)."""
    path = shared_data / "cogeval" / "task_templates"
    if not path.is_dir():
        pytest.skip(f"no CogEval templates at {path}")
    return path
