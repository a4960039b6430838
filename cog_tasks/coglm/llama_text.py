"""The authors' Llama-2-chat protocol: plain text completion, wording read from their script."""

from __future__ import annotations

import ast
import os
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from cog_tasks.coglm.extract import LETTERS
from cog_tasks.coglm.records import UPSTREAM_REPO, CogLMDataError
from cog_tasks.common.settings import DATA_ENV
from cog_tasks.common.sources import GITHUB_RAW, DataSource, fetch

SCRIPT = "test_llama.py"
"""The authors' Llama-2 script, at the root of their repository."""
SCRIPT_COMMIT = "c8165d0587ee9de052a459b44dead5e086a9792e"
"""The commit of the script read (the one whose result files the package reads too)."""
SCRIPT_ENV = "COG_TASKS_COGLM_TEST_LLAMA"
"""A setting naming a local copy of the script, read before any other source."""
RAW_TEXT_TEMPLATE = "{{ messages[0].content }}"
"""A chat template sending the first message's text unchanged (Inspect hf's ``chat_template``)."""
SCRIPT_SOURCE = DataSource(
    benchmark="coglm",
    title="CogLM",
    repo=UPSTREAM_REPO,
    commit=SCRIPT_COMMIT,
    url_template=GITHUB_RAW,
    hub_copy="the CogLM items only, not the authors' scripts",
    more_ways_out=(f"set {SCRIPT_ENV} to a copy of the authors' {SCRIPT}",),
    describe=lambda path: f"CogLM authors' script {path}",
)


@dataclass(frozen=True)
class LlamaTextWording:
    """The authors' Llama-2 prompt wording (options sentence, answer cue) and its ``source``."""

    options_sentence: str
    answer_cue: str
    source: str


def _strings(node: ast.expr) -> list[ast.expr]:
    """The operands of a chain of ``+``, left to right."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return [*_strings(node.left), *_strings(node.right)]
    return [node]


def parse_wording(text: str, source: str) -> LlamaTextWording:
    """Read the options sentence and the answer cue (last ``hint``) out of the script's ``main``."""
    try:
        tree = ast.parse(text)
    except SyntaxError as error:
        where = f"{error.msg}, line {error.lineno}"
        raise CogLMDataError(f"{source}: not Python source ({where})") from error
    functions = [node for node in tree.body if isinstance(node, ast.FunctionDef)]
    main = next((node for node in functions if node.name == "main"), None)
    if main is None:
        raise CogLMDataError(f"{source}: no function main (not the authors' {SCRIPT}?)")
    cue = sentence = None
    for node in ast.walk(main):
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
            continue
        target = node.targets[0]
        if not isinstance(target, ast.Name):
            continue
        if target.id == "hint" and isinstance(node.value, ast.Constant):
            cue = node.value.value
        if target.id == "input" and isinstance(node.value, ast.List) and node.value.elts:
            literals = [
                part.value
                for part in _strings(node.value.elts[0])
                if isinstance(part, ast.Constant) and isinstance(part.value, str)
            ]
            if len(literals) == 1:
                sentence = literals[0]
    if not isinstance(cue, str) or not isinstance(sentence, str):
        raise CogLMDataError(
            f"{source}: main() assigns no string hint or no prompt input with one string "
            f"literal (not the authors' {SCRIPT}?)"
        )
    return LlamaTextWording(sentence, cue, source)


@lru_cache(maxsize=4)
def _load(explicit: str | None, data_root: str | None) -> LlamaTextWording:
    if explicit:
        path = Path(explicit).expanduser()
        if not path.is_file():
            raise CogLMDataError(f"{SCRIPT_ENV}={explicit}: no such file")
        return parse_wording(path.read_text(encoding="utf-8"), str(path))
    return fetch(
        SCRIPT_SOURCE, SCRIPT, lambda content: parse_wording(content.text(), content.source)
    ).value


def load_wording() -> LlamaTextWording:
    """The wording of the authors' Llama-2 prompt, from the first source that has the script."""
    return _load(os.environ.get(SCRIPT_ENV) or None, os.environ.get(DATA_ENV) or None)


def options_line(choices: Sequence[str]) -> str:
    """The options as the authors' script lays them out, each cut at its first full stop."""
    if len(choices) > len(LETTERS):
        raise CogLMDataError(f"at most {len(LETTERS)} options can be lettered, got {len(choices)}")
    line = "".join(
        f"{letter}.{choice.split('.')[0]}. "
        for letter, choice in zip(LETTERS, choices, strict=False)
    )
    return line.strip() + " "


def llama_text_request(
    question: str, choices: Sequence[str], wording: LlamaTextWording | None = None
) -> str:
    """The plain text the authors' script sends for one item (``wording`` read when not given)."""
    wording = wording or load_wording()
    return question.strip() + wording.options_sentence + options_line(choices) + wording.answer_cue
