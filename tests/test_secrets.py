"""Issue 40: secrets never reach a label, an identity or a report; measurement settings stay."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cog_tasks.cli import main
from cog_tasks.common.runs import RunIdentity
from cog_tasks.common.secrets import REDACTED, is_secret, redact, redact_text

FAKE = "hf_FAKEtoken0123456789"

SECRETS = [
    "token",
    "hf_token",
    "access_token",
    "auth_token",
    "api_key",
    "password",
    "openai_api_key",
    "client_secret",
    "HF-Token",
    "generate.api_key",
]
KEPT = ["max_tokens", "memory_tokens", "add_bos_token", "tokenizer", "tokens", "secret_sauce"]


@pytest.mark.parametrize("name", SECRETS)
def test_secret_names(name: str) -> None:
    assert is_secret(name)


@pytest.mark.parametrize("name", KEPT)
def test_measurement_settings_are_not_secrets(name: str) -> None:
    assert not is_secret(name)


def test_identity_redacts_secrets_and_keeps_measurement_settings() -> None:
    """Arguments, nested model_args (dict or text) and the model label are redacted."""
    kept = {"max_tokens": 64, "memory_tokens": 512, "add_bos_token": True, "tokenizer": "t5"}
    identity = RunIdentity.of(
        "task",
        f"hf/m[hf_token={FAKE},pretrained=m]",
        arguments={
            **kept,
            "hf_token": FAKE,
            "openai_api_key": FAKE,
            "client_secret": FAKE,
            "model_args": f"pretrained=m,token={FAKE},dtype=auto",
            "nested": {"auth_token": FAKE, "revision": "main"},
        },
    )
    shown = json.dumps(identity.as_dict()) + identity.label()
    assert FAKE not in shown
    assert identity.model == f"hf/m[hf_token={REDACTED},pretrained=m]"
    fields = identity.fields()
    assert {name: fields[name] for name in kept} == {
        "max_tokens": "64",
        "memory_tokens": "512",
        "add_bos_token": "true",
        "tokenizer": "t5",
    }
    assert fields["model_args"] == f"pretrained=m,token={REDACTED},dtype=auto"
    assert fields["hf_token"] == REDACTED


def test_redact_text_leaves_other_pairs_alone() -> None:
    text = f"--model_args pretrained=m,max_tokens=5,api_key={FAKE} -M password={FAKE}"
    assert redact_text(text) == (
        f"--model_args pretrained=m,max_tokens=5,api_key={REDACTED} -M password={REDACTED}"
    )
    assert redact({"tokenizer": "x", "token": FAKE}) == {"tokenizer": "x", "token": REDACTED}


@pytest.mark.slow
def test_no_report_output_holds_the_token(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """A scripted Inspect run given ``-M hf_token=...``: grep every report output for it."""
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import get_model

    from cog_tasks.cogeval.inspect.chance import chance_answerer
    from cog_tasks.cogeval.inspect.cogeval import cogeval

    monkeypatch.setenv("COG_TASKS_CACHE", str(tmp_path / "cache"))
    task_args = {"graphs": "n7line"}
    model = get_model(
        "mockllm/model",
        custom_outputs=chance_answerer(task_args, 0),
        hf_token=FAKE,
        max_tokens_hint=7,
    )
    [log] = inspect_eval(
        cogeval(**task_args), model=model, log_dir=str(tmp_path / "logs"), limit=2, display="none"
    )
    assert log.status == "success" and log.eval.model_args["hf_token"] == FAKE  # Inspect's own
    report = tmp_path / "report"
    assert main(["cogeval", "report", "--log", str(tmp_path / "logs"), "--out", str(report)]) == 0
    monkeypatch.chdir(tmp_path)  # the default report folder is made in the working folder
    assert main(["cogeval", "report", "--log", str(tmp_path / "logs"), "--json"]) == 0
    printed = capsys.readouterr()
    outputs = [printed.out, printed.err]
    outputs += [
        path.read_bytes().decode("utf-8", "replace")
        for folder in (report, tmp_path / "cogeval-report")
        for path in folder.rglob("*")
    ]
    assert len(outputs) > 2 and "max_tokens_hint=7" in printed.out
    assert not [text[:200] for text in outputs if FAKE in text]
