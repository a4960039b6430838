"""Shared test fixtures: offline settings, the shared data folder and SmolLM2."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO_ROOT.parent / "shared" / "data"

# Tests never reach a model hub: fail fast instead of retrying the network.
for variable in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "TRANSFORMERS_OFFLINE"):
    os.environ.setdefault(variable, "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
if "COG_TASKS_DATA" not in os.environ and SHARED_DATA.is_dir():
    os.environ["COG_TASKS_DATA"] = str(SHARED_DATA)


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The local copy of the original benchmark data (``../shared/data``)."""
    path = Path(os.environ.get("COG_TASKS_DATA", SHARED_DATA))
    if not path.is_dir():
        pytest.skip(f"no local benchmark data at {path}; set COG_TASKS_DATA")
    return path


@pytest.fixture(scope="session")
def smollm2_path() -> Path:
    """Local HF directory of SmolLM2-135M-Instruct, converted once and cached."""
    from cog_tasks.common.models import embedded_model_path

    return embedded_model_path("smollm2")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Refuse a test that loads SmolLM2 without ``@pytest.mark.slow``.

    ``pytest -m "not slow"`` is the fast subset; a model-loading test left
    unmarked would quietly make it slow.
    """
    unmarked = [
        item.nodeid
        for item in items
        if "smollm2_path" in getattr(item, "fixturenames", ())
        and item.get_closest_marker("slow") is None
    ]
    if unmarked:
        raise pytest.UsageError(
            "tests that load SmolLM2 must be marked @pytest.mark.slow: " + ", ".join(unmarked)
        )
