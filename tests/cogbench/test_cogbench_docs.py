"""The CogBench README's commands: each names its judge, and the scoring ones run as written.

The commands are read from the README's ``bash`` blocks. Every README command is
also checked statically in ``tests/test_readme_commands.py``, which runs the
``chance`` and ``report`` lines verbatim; no command here is rewritten.
"""

import os
import re
import subprocess
from pathlib import Path

from cog_tasks.cli import tasks_path

README = tasks_path() / "cogbench" / "README.md"
NEEDS_KEY = "# needs an API key"
COMMANDS = ("inspect eval cog_tasks/cogbench", "cog-tasks cogbench", "M=", "F=")


def _command_lines(text: str) -> list[str]:
    """The command lines of the bash blocks in ``text``, in order."""
    blocks = re.findall(r"```bash\n(.*?)```", text, flags=re.S)
    return [line for block in blocks for line in block.splitlines() if line.startswith(COMMANDS)]


def test_every_inspect_command_names_its_judge() -> None:
    evals = [
        line
        for line in _command_lines(README.read_text())
        if line.lstrip().startswith("inspect eval")
    ]
    assert evals
    for line in evals:
        assert re.search(r"--model-role judge=|self_judge=true|judge=false", line), line


def test_readme_scoring_commands_run_as_written(tmp_path: Path) -> None:
    """The README's ``score`` and ``agreement`` lines on the bundled sample file, verbatim.

    They load no model; the lines that read a user's file or need a key are left out.
    """
    lines = [
        line
        for line in _command_lines(README.read_text())
        if line.startswith(("F=", "cog-tasks cogbench score", "cog-tasks cogbench agreement"))
        and NEEDS_KEY not in line
        and "SECOND_RATER" not in line
    ]
    assert [line.split()[2] for line in lines[1:]] == ["score", "agreement"]
    environment = {**os.environ, "HF_HUB_OFFLINE": "1"}
    result = subprocess.run(
        ["bash", "-c", "\n".join(["set -euo pipefail", *lines])],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    # The score line of the sample's method, then agreement between two distinct raters.
    assert re.search(r"^Authenticity \(kappa\)\s+avg\(1-3\) 0\.\d{3}", result.stdout, re.M)
    assert "answers 80: invalid ratings 0" in result.stdout
    assert "eval_cogbench_a.json:human_rating, eval_cogbench_a.json:Example" in result.stdout
    assert re.search(r"^Fleiss kappa: 0\.\d{3}$", result.stdout, re.M), result.stdout
