"""Every Inspect command of the CogEval README builds its task: parameters are valid as written."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
import yaml

from cog_tasks.cogeval.inspect.cogeval import cogeval

README = Path(__file__).parents[2] / "cog_tasks" / "cogeval" / "README.md"


def _inspect_commands() -> list[str]:
    """The ``inspect eval cog_tasks/cogeval`` commands of the README, continuation lines joined."""
    text = README.read_text(encoding="utf-8").replace("\\\n", " ")
    blocks = re.findall(r"```bash\n(.*?)```", text, flags=re.DOTALL)
    return [
        line.split("#")[0].strip()
        for block in blocks
        for line in block.splitlines()
        if line.startswith("inspect eval cog_tasks/cogeval")
    ]


def test_the_readme_has_inspect_commands() -> None:
    assert len(_inspect_commands()) >= 5


@pytest.mark.parametrize("command", _inspect_commands())
def test_each_readme_command_builds_its_task(command: str) -> None:
    words = shlex.split(command.replace("$(cog-tasks model-path smollm2)", "MODEL"))
    arguments = {
        name: yaml.safe_load(value)
        for flag, pair in zip(words, words[1:], strict=False)
        if flag == "-T"
        for name, value in [pair.split("=", 1)]
    }
    task = cogeval(**arguments)
    assert len(task.dataset) > 0
