"""The CogBench README's commands: each names its judge, and all run offline as written.

The commands are read from the README's ``bash`` blocks; those marked
``# needs an API key`` are only checked for form.
"""

import os
import re
import subprocess
from pathlib import Path

import pytest

from cog_tasks.cli import tasks_path

README = tasks_path() / "cogbench" / "README.md"
NEEDS_KEY = "# needs an API key"
COMMANDS = ("inspect eval cog_tasks/cogbench", "cog-tasks cogbench", "M=", "F=")


def _command_lines(text: str) -> list[str]:
    """The command lines of the bash blocks in ``text``, in order."""
    blocks = re.findall(r"```bash\n(.*?)```", text, flags=re.S)
    return [line for block in blocks for line in block.splitlines() if line.startswith(COMMANDS)]


def _usage_lines() -> list[str]:
    """The commands of the README's Usage section."""
    text = README.read_text()
    return _command_lines(text[text.index("## Usage") : text.index("## Parameters")])


def test_every_inspect_command_names_its_judge() -> None:
    evals = [
        line
        for line in _command_lines(README.read_text())
        if line.lstrip().startswith("inspect eval")
    ]
    assert evals
    for line in evals:
        assert re.search(r"--model-role judge=|self_judge=true|judge=false", line), line


@pytest.mark.slow
def test_readme_commands_run_offline(tmp_path: Path) -> None:
    """Every command without an API key runs on SmolLM2 and the fixture set, few tokens."""
    lines = [line for line in _usage_lines() if NEEDS_KEY not in line]
    script = ["set -euo pipefail"]
    for line in lines:
        if line.startswith("inspect eval"):
            line += " -T retries=0 -T max_tokens=8 --log-dir smollm2_logs --display none"
        script.append(line)
    environment = {**os.environ, "HF_HUB_OFFLINE": "1"}
    result = subprocess.run(
        ["bash", "-c", "\n".join(script)],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=1500,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert (tmp_path / "report" / "cogbench_curves.json").is_file()
    assert (tmp_path / "exported.json").is_file()
    assert len(list((tmp_path / "smollm2_logs").glob("*.eval"))) == 2
