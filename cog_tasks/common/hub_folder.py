"""Write datasets as folders laid out like Hub dataset repositories, and push them."""

from __future__ import annotations

import io
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path

import datasets

from cog_tasks.common.files import write_atomically, write_text_atomically

Configs = Mapping[str, datasets.DatasetDict]
DEFAULT_CONFIG = "default"


def as_configs(dataset: datasets.DatasetDict | Configs) -> Configs:
    """A single ``DatasetDict`` becomes the ``default`` config; a mapping stays."""
    if isinstance(dataset, datasets.DatasetDict):
        return {DEFAULT_CONFIG: dataset}
    return dataset


def split_path(configs: Configs, config: str, split: str) -> str:
    """Relative path of one split's parquet file in the folder."""
    prefix = "data" if len(configs) == 1 else f"data/{config}"
    return f"{prefix}/{split}-00000-of-00001.parquet"


def configs_yaml(dataset: datasets.DatasetDict | Configs) -> str:
    """The card's YAML ``configs:`` block for the folder layout written here."""
    configs = as_configs(dataset)
    lines = ["configs:"]
    for config, splits in configs.items():
        lines += [f"- config_name: {config}", "  data_files:"]
        for split in splits:
            lines += [f"  - split: {split}", f"    path: {split_path(configs, config, split)}"]
    return "\n".join(lines)


def save_hub_folder(dataset: datasets.DatasetDict | Configs, card: str, folder: Path) -> list[Path]:
    """Save ``dataset`` (one ``DatasetDict`` or one per config) and its card; return the files."""
    configs = as_configs(dataset)
    written = []
    for config, splits in configs.items():
        for split, rows in splits.items():
            path = folder / split_path(configs, config, split)
            path.parent.mkdir(parents=True, exist_ok=True)
            buffer = io.BytesIO()
            rows.to_parquet(buffer)
            write_atomically(path, buffer.getvalue())
            written.append(path)
    readme = folder / "README.md"
    write_text_atomically(readme, card)
    return [readme, *written]


def push_folder(
    write: Callable[[Path], object], repo_id: str, public: bool = False, token: str | None = None
) -> str:
    """Write a Hub-shaped folder to a temporary place, upload it as a dataset; return its URL."""
    from huggingface_hub import HfApi

    api = HfApi(token=token)
    api.create_repo(repo_id, repo_type="dataset", private=not public, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="cog-tasks-push-") as temporary:
        write(Path(temporary))
        api.upload_folder(repo_id=repo_id, folder_path=temporary, repo_type="dataset")
    return f"https://huggingface.co/datasets/{repo_id}"
