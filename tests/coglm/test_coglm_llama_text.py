"""``coglm_chat -T prompt=llama-text``: the authors' Llama-2 plain text protocol.

The request strings are checked against what the script's own code builds: its
``candidates_to_choices`` and the prompt expression of its ``main`` are run on
each item. A fake script with invented wording (the same code shape) is always
checked; the authors' real ``test_llama.py`` only where it is at hand
(``COG_TASKS_COGLM_TEST_LLAMA`` or the cache): the package never holds its text.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from coglm_chat_mock import scripted_model
from inspect_ai import eval as inspect_eval
from inspect_ai.log import list_eval_logs, read_eval_log
from inspect_ai.model import ChatMessage

from cog_tasks.cli import main
from cog_tasks.coglm.extract import LETTERS
from cog_tasks.coglm.inspect import coglm_chat
from cog_tasks.coglm.inspect.chance import _inline_letters
from cog_tasks.coglm.inspect.dataset import record_to_sample
from cog_tasks.coglm.inspect.solvers import PlainTextError, check_plain_text
from cog_tasks.coglm.llama_text import (
    RAW_TEXT_TEMPLATE,
    SCRIPT,
    SCRIPT_ENV,
    SCRIPT_SOURCE,
    _load,
    load_wording,
)
from cog_tasks.coglm.prompts import PROMPT_EXTRACTORS, chat_turns
from cog_tasks.coglm.records import CogLMDataError, load_records
from cog_tasks.common.sources import DataSourceError

# A script of the same shape as the authors' (an options function of that name; in ``main``
# a ``hint`` and a one-element ``input`` list built with ``+``), written anew with invented
# wording: the layout of the options behaves as theirs, the code and the words are not theirs.
FAKE_SCRIPT = """
def candidates_to_choices(options):
    letters = "ABCDEF"
    line = ""
    for place, option in enumerate(options):
        line += letters[place] + "." + option.split(".")[0] + ". "
    return line.strip() + " "

def main(model_dir: str, new_tokens: int = 64):
    for row in rows:
        question = row["question"]
        choices = candidates_to_choices(row["candidates"])
        hint = "Pick here -> "
        input = [question.strip() + " Which of these fits best, tell me: " + choices + hint]
        reply = model.complete(input, new_tokens)
"""


def script_request(text: str, question: str, candidates: list[str]) -> str:
    """Run the script's own code for one item: its options function and its prompt expression."""
    tree = ast.parse(text)
    functions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
    namespace: dict[str, object] = {}
    module = ast.Module([functions["candidates_to_choices"]], type_ignores=[])
    exec(compile(module, SCRIPT, "exec"), namespace)  # noqa: S102 (the test's own fixture)
    assigned = {
        node.targets[0].id: node.value
        for node in ast.walk(functions["main"])
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
    }

    def run(name: str) -> object:
        return eval(compile(ast.Expression(assigned[name]), SCRIPT, "eval"), namespace)  # noqa: S307

    namespace["question"] = question
    namespace["choices"] = namespace["candidates_to_choices"](candidates)  # type: ignore[operator]
    namespace["hint"] = run("hint")
    (request,) = run("input")  # type: ignore[misc]
    return request


@pytest.fixture
def script(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    path = tmp_path / SCRIPT
    path.write_text(FAKE_SCRIPT)
    monkeypatch.setenv(SCRIPT_ENV, str(path))
    _load.cache_clear()
    yield path
    _load.cache_clear()


def _sent(records: list, prompt: str = "llama-text") -> list[str]:
    return [chat_turns(r.question, r.choices, prompt=prompt)[0][1] for r in records]


def test_requests_are_what_the_scripts_code_builds(script: Path, shared_data: Path) -> None:
    records = load_records(data_dir=shared_data)
    expected = [script_request(FAKE_SCRIPT, r.question, list(r.choices)) for r in records]
    assert _sent(records) == expected
    cut = [r for r in records if any("." in choice for choice in r.choices)]
    assert cut  # options with a full stop are cut there, in both
    first = record_to_sample(records[0], prompt="llama-text")
    assert first.input == expected[0] and first.input.endswith("Pick here -> ")
    assert " Which of these fits best, tell me: A." in expected[0]
    assert load_wording().source == str(script)
    assert PROMPT_EXTRACTORS["llama-text"] == "authors"
    # the chance answerer finds every item's letters in the one-line options
    assert [_inline_letters(text) for text in expected] == [
        list(LETTERS[: len(r.choices)]) for r in records
    ]


def _real_script() -> Path | None:
    explicit = os.environ.get(SCRIPT_ENV)
    if explicit:
        return Path(explicit)
    cached = SCRIPT_SOURCE.cached(SCRIPT)
    return cached if cached.is_file() else None


def test_requests_match_the_authors_script_when_present(shared_data: Path) -> None:
    real = _real_script()
    if real is None:
        pytest.skip(f"the authors' {SCRIPT} is not at hand (set {SCRIPT_ENV} or fetch it once)")
    _load.cache_clear()
    text = real.read_text(encoding="utf-8")
    records = load_records(data_dir=shared_data)
    expected = [script_request(text, r.question, list(r.choices)) for r in records]
    assert _sent(records) == expected
    assert [len(_inline_letters(sent)) for sent in expected] == [len(r.choices) for r in records]
    _load.cache_clear()


def test_a_missing_script_says_where_to_put_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    monkeypatch.setenv(SCRIPT_ENV, str(tmp_path / "nowhere.py"))
    _load.cache_clear()
    with pytest.raises(CogLMDataError, match=f"{SCRIPT_ENV}=.*nowhere.py: no such file"):
        load_wording()
    monkeypatch.delenv(SCRIPT_ENV)
    monkeypatch.setenv("COG_TASKS_DATA", str(tmp_path))
    monkeypatch.setenv("COG_TASKS_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.delenv("COG_TASKS_COGLM_HUB", raising=False)
    _load.cache_clear()
    with pytest.raises(DataSourceError) as raised:
        load_wording()
    message = str(raised.value)
    assert "put the file at $COG_TASKS_DATA/coglm/test_llama.py" in message
    assert f"set {SCRIPT_ENV} to a copy" in message and "\n" not in message
    (tmp_path / "coglm").mkdir()
    (tmp_path / "coglm" / SCRIPT).write_text("def main():\n    pass\n")
    _load.cache_clear()
    with pytest.raises(CogLMDataError, match="assigns no string hint"):
        load_wording()
    _load.cache_clear()


def test_variants_and_chat_templates_are_refused(script: Path) -> None:
    with pytest.raises(ValueError, match="takes no cot, erase or coc_log"):
        coglm_chat(prompt="llama-text", cot=True)
    with pytest.raises(PlainTextError, match='-M "chat_template='):
        check_plain_text("hf/meta-llama/Llama-2-7b-chat-hf", {})
    with pytest.raises(PlainTextError):
        check_plain_text("hf/x", {"use_chat_template": False})
    check_plain_text("hf/x", {"chat_template": RAW_TEXT_TEMPLATE})
    check_plain_text("mockllm/model", {})


@pytest.mark.slow
def test_llama_text_run_sends_the_text_and_reads_with_the_authors_rule(
    script: Path, tmp_path: Path
) -> None:
    seen: list[list[ChatMessage]] = []
    model = scripted_model(lambda prompt, _config: "A: The answer is \\boxed{B} because", seen)
    (log,) = inspect_eval(
        coglm_chat(prompt="llama-text", abilities="plan", per_ability=2),
        model=model,
        log_dir=str(tmp_path / "logs"),
        display="none",
    )
    assert log.status == "success", log.error
    assert [len(messages) for messages in seen] == [1, 1]  # one user message, no system turn
    assert all(messages[0].text.endswith("Pick here -> ") for messages in seen)
    answers = {sample.scores["coglm_scorer"].answer for sample in log.samples}
    assert answers == {"B"}  # the authors' rule: the letter after "boxed"


def test_chance_command_refuses_llama_text_with_cot_in_one_line(script: Path, capsys) -> None:
    assert main(["coglm", "chance", "-T", "prompt=llama-text", "-T", "cot=true"]) == 2
    error = capsys.readouterr().err.strip()
    assert "takes no cot, erase or coc_log" in error and "\n" not in error


@pytest.mark.slow
def test_llama_text_with_smollm2_through_the_inspect_cli(
    script: Path, tmp_path: Path, smollm2_path: Path, shared_data: Path
) -> None:
    """The README's flag form: Inspect parses it, and the hf model runs on the plain text."""
    inspect_cli = Path(sys.executable).with_name("inspect")
    base = [
        str(inspect_cli),
        "eval",
        "cog_tasks/coglm_chat",
        "-T",
        "prompt=llama-text",
        "-T",
        "abilities=plan",
        "-T",
        "per_ability=2",
        "--model",
        "hf/smollm2",
        "-M",
        f"model_path={smollm2_path}",
        "-M",
        "do_sample=false",
        "--max-tokens",
        "8",
        "--display",
        "none",
    ]
    plain = [*base, "-M", f"chat_template='{RAW_TEXT_TEMPLATE}'", "--log-dir", str(tmp_path / "a")]
    completed = subprocess.run(plain, capture_output=True, text=True, timeout=600)
    assert completed.returncode == 0, completed.stderr[-3000:]
    (info,) = list_eval_logs(str(tmp_path / "a"))
    log = read_eval_log(info)
    assert log.status == "success" and len(log.samples) == 2
    assert all(sample.input.endswith("Pick here -> ") for sample in log.samples)
    extractors = {sample.scores["coglm_scorer"].metadata["extractor"] for sample in log.samples}
    assert extractors == {"authors"}

    wrapped = subprocess.run(
        [*base, "--log-dir", str(tmp_path / "b")], capture_output=True, text=True, timeout=600
    )
    # Refused while the task is built, before any sample: one line, exit 2, no log.
    assert wrapped.returncode == 2 and "chat_template=" in wrapped.stderr.strip().splitlines()[-1]
    assert not list_eval_logs(str(tmp_path / "b"))
