"""Write a ``DatasetDict`` as a folder laid out like a Hub dataset repository.

The layout is the one ``DatasetDict.push_to_hub`` produces: ``README.md`` (the
card, whose YAML ``configs`` maps each split to its files) and
``data/<split>-00000-of-00001.parquet``. ``datasets.load_dataset(folder)``
reads it back, and ``huggingface-cli upload ORG/NAME folder --repo-type
dataset`` publishes it unchanged.
"""

from __future__ import annotations

from pathlib import Path

import datasets


def save_hub_folder(dataset: datasets.DatasetDict, card: str, folder: Path) -> list[Path]:
    """Save ``dataset`` and its card under ``folder``.

    Args:
        dataset: The splits to save, one parquet file each.
        card: The dataset card (``README.md`` text with YAML metadata).
        folder: Output folder (created if missing).

    Returns:
        The files written.
    """
    data = folder / "data"
    data.mkdir(parents=True, exist_ok=True)
    written = []
    for name, split in dataset.items():
        path = data / f"{name}-00000-of-00001.parquet"
        split.to_parquet(str(path))
        written.append(path)
    readme = folder / "README.md"
    readme.write_text(card, encoding="utf-8")
    return [readme, *written]
