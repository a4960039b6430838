"""Stored results stay true: each names its command, runs the code's task versions, and
every table that quotes one shows its numbers."""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path

import pytest
import yaml

from cog_tasks.commands.profile_views import _chance_text, _failures_text, _paper_text, format_row
from cog_tasks.common.stats import plural

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "benchmarks" / "results"
PROFILES = RESULTS / "profile"
INDEX = RESULTS / "README.md"


def _indexed() -> dict[str, str]:
    """``benchmarks/results/README.md``'s table: file or folder (``/``) -> command."""
    lines = INDEX.read_text(encoding="utf-8").splitlines()
    rows = [line for line in lines if re.match(r"^\| `[^`]+` \|", line)]
    return {re.match(r"^\| `([^`]+)`", row)[1]: row.split("|", 2)[2].strip(" |") for row in rows}


def test_every_stored_result_file_names_the_command_that_made_it() -> None:
    indexed = _indexed()
    for path, command in indexed.items():
        assert (RESULTS / path).exists(), f"{INDEX}: {path} is listed but gone"
        assert re.search(r"`(cog-tasks|python|inspect|/usr/bin/time) ", command), path
    for path in sorted(RESULTS.rglob("*")):
        if not path.is_file() or path == INDEX:
            continue
        name = path.relative_to(RESULTS).as_posix()
        folders = [name[: i + 1] for i, char in enumerate(name) if char == "/"]
        if name in indexed or any(folder in indexed for folder in folders):
            continue
        own = json.loads(path.read_text()) if path.suffix == ".json" else None
        assert isinstance(own, dict) and own.get("command"), (
            f"{name}: no command (add a `command` field or a line to {INDEX.name})"
        )


def code_version(benchmark: str, task: str) -> str:
    """The version the code declares for a profile row's task (lm-eval family or Inspect task)."""
    package = ROOT / "cog_tasks" / benchmark
    if benchmark == "coglm" and task == "coglm":  # the lm-eval family of the log-likelihood step
        (declaration,) = (package / "lm_eval" / "coglm").glob("_*_version.yaml")
        return str(yaml.safe_load(declaration.read_text())["metadata"]["version"])
    module = importlib.import_module(f"cog_tasks.{benchmark}.inspect.version")
    versions = getattr(module, "TASK_VERSIONS", None)
    return versions[task] if versions else module.TASK_VERSION


STALE: set[str] = set()
"""Stored profiles run at earlier task versions (re-run each with its command in INDEX)."""


def stored_profiles(stale_fails: bool = False) -> list:
    """Each stored profile; with ``stale_fails``, a stale one expected to fail (strictly)."""
    stale = pytest.mark.xfail(strict=True, reason="stored at earlier task versions (STALE)")
    return [
        pytest.param(path.name, marks=stale if stale_fails and path.name in STALE else ())
        for path in sorted(PROFILES.iterdir())
        if path.is_dir()
    ]


def stale_rows(profile: dict) -> list[str]:
    """``task@stored (code: version)`` for each task a profile ran at another version."""
    stale = {}
    for row in profile["rows"]:
        task, _, version = row["run"]["task"].partition("@")
        current = code_version(row["benchmark"], task)
        if version != current:
            stale[task] = f"{task}@{version} (code: {current})"
    return list(stale.values())


def test_code_version_reads_each_kind_of_declaration() -> None:
    assert re.fullmatch(r"\d+\.\d+", code_version("coglm", "coglm"))
    assert re.fullmatch(r"\d+\.\d+\.\d+", code_version("egosocial", "egosocial_holdem"))
    stale = {"benchmark": "cogeval", "run": {"task": "cogeval@0.0.1"}}
    assert stale_rows({"rows": [stale]}) == [
        f"cogeval@0.0.1 (code: {code_version('cogeval', 'cogeval')})"
    ]


@pytest.mark.parametrize("name", stored_profiles(stale_fails=True))
def test_a_stored_profile_ran_the_code_task_versions(name: str) -> None:
    profile = json.loads((PROFILES / name / "profile.json").read_text())
    assert stale_rows(profile) == [], f"{name} is stale; re-run its command ({INDEX.name})"


def _table(path: Path, header: str) -> tuple[list[str], list[list[str]]]:
    """The header cells and the rows of the Markdown table whose header starts with ``header``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return [cell.strip() for cell in lines[start].strip("|").split("|")], rows


ROOT_COLUMNS = {
    "SmolLM2-135M-Instruct": "smollm2",
    "Gemma 3 270M (base)": "gemma3-270m",
    "chance (seed 0)": "chance",
}


def _stored_rows(name: str) -> dict[tuple[str, str], dict]:
    profile = json.loads((PROFILES / name / "profile.json").read_text())
    return {(row["benchmark"], row["measure"]): row for row in profile["rows"]}


ROOT_HEADER = [
    "benchmark",
    "measure",
    "unit",
    *ROOT_COLUMNS,
    "best trivial strategy (same units): value; beaten by SmolLM2 / Gemma",
    "papers",
    "failed replies (SmolLM2 / Gemma)",
]
"""The root README's profile table: a column per stored profile, then what stands beside it."""


def _beaten(row: dict) -> str:
    trivial = row["trivial"]
    if trivial["beaten"]:
        return "beaten"
    return "NOT BEATEN" if trivial["difference"]["reason"] == "" else "not tested"


def root_row(stored: dict[str, dict[tuple[str, str], dict]], key: tuple[str, str]) -> list[str]:
    """The README table's cells for one (benchmark, measure), from the stored profiles."""
    models = [stored[column][key] for column in list(ROOT_COLUMNS)[:2]]
    smollm2 = models[0]
    trivial = smollm2.get("trivial")
    if trivial:
        assert all(row["trivial"]["value"] == trivial["value"] for row in models), key
        trivial_cell = f"{trivial['name']}: {trivial['value']:.3f}; "
        trivial_cell += " / ".join(_beaten(row) for row in models)
    else:
        trivial_cell = "-"
    profile = json.loads(
        (PROFILES / ROOT_COLUMNS["SmolLM2-135M-Instruct"] / "profile.json").read_text()
    )
    return [
        *key,
        f"{smollm2['n']} {plural(smollm2['unit'], smollm2['n'])}",
        *(format_row(stored[column][key]) for column in ROOT_COLUMNS),
        trivial_cell,
        _paper_text(smollm2, profile["paper"]),
        " / ".join(_failures_text(row) for row in models),
    ]


def test_root_readme_profile_table_quotes_the_stored_profiles() -> None:
    """Every cell of the README's table: values, intervals, units, the best trivial strategy,
    the papers' values and the failed-reply shares, as the stored profiles hold them."""
    header, rows = _table(ROOT / "README.md", "| benchmark | measure | unit | SmolLM2")
    assert header == ROOT_HEADER
    stored = {column: _stored_rows(name) for column, name in ROOT_COLUMNS.items()}
    assert rows
    for cells in rows:
        assert cells == root_row(stored, (cells[0], cells[1])), cells[:2]


def _mutual_information(name: str) -> dict[str, str]:
    """Opponent style -> ``value [low, high]`` of its mutual information, from a stored run."""
    stored = json.loads((RESULTS / f"{name}.json").read_text())
    found = re.findall(
        r"^\| (\w+) \| mutual information \(bits\) \| \d+ \| ([-\d.]+ \[[-\d.]+, [-\d.]+\])",
        stored["markdown"],
        re.M,
    )
    assert found, name
    return dict(found)


def test_benchmark_readmes_quote_the_stored_json_they_cite() -> None:
    """The Hold'em opponents' mutual information, as the EgoSocialArena README's table and
    the benchmarks index quote it, equals the stored runs'."""
    stored = _mutual_information("egosocial_opponents")
    readme = ROOT / "cog_tasks" / "egosocial" / "README.md"
    _, rows = _table(readme, "| opponent | mutual information, class")
    assert {row[0]: row[1] for row in rows} == stored
    index = (ROOT / "benchmarks" / "README.md").read_text(encoding="utf-8")
    for name in ("egosocial_opponents", "egosocial_opponents_rules"):
        points = [value.split()[0] for value in _mutual_information(name).values()]
        assert f"{' and '.join(points)} bits" in index, name


@pytest.mark.parametrize("name", stored_profiles())
def test_a_stored_profile_carries_the_code_paper_rows(name: str) -> None:
    from cog_tasks.commands.profile import paper_rows

    profile = json.loads((PROFILES / name / "profile.json").read_text())
    assert profile["paper"] == [row.as_row() for row in paper_rows()], name


def test_every_hf_command_of_the_root_readme_is_greedy() -> None:
    """Inspect's ``hf`` provider samples unseeded unless told ``do_sample=false``."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    commands = [
        line
        for line in lines
        if re.match(r"^(inspect eval|cog-tasks profile run) .*--model hf/", line)
    ]
    assert len(commands) >= 6  # the profile block and the Install section
    assert [line for line in commands if "-M do_sample=false" not in line] == []


def test_every_llamacpp_command_of_the_root_readme_is_greedy() -> None:
    """llama-cpp-python's server samples at temperature 0.8 unless a temperature is sent."""
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    pattern = r"(inspect eval|cog-tasks profile run) .*--model llamacpp/"
    commands = [line for line in lines if re.search(pattern, line)]
    assert len(commands) >= 2  # the llama.cpp chat task and the profile block
    assert [line for line in commands if "--temperature 0" not in line] == []


CITATION = re.compile(r"benchmarks/results/([\w./-]+\.(?:md|txt|json))")
INTERVAL = re.compile(r"−?-?\d+\.\d{3} \[−?-?\d+\.\d{3}, −?-?\d+\.\d{3}\]")
DOCS = [
    *sorted((ROOT / "cog_tasks").glob("*/README.md")),
    *sorted((ROOT / "cog_tasks").glob("*/docs/*.md")),
    *sorted((ROOT / "docs").glob("*.md")),
]


def _cited_blocks(path: Path) -> list[tuple[str, str]]:
    """(cited file, text) per paragraph citing a stored file, with the table right after it.

    A paragraph is the lines between blank lines; a code block after it is
    skipped, and the next table (if the next block is one) belongs to it.
    """
    blocks = re.split(r"\n\s*\n", path.read_text(encoding="utf-8"))
    found = []
    for index, block in enumerate(blocks):
        for cited in CITATION.findall(block):
            text = block
            following = blocks[index + 1 : index + 3]
            for extra in following:
                if extra.lstrip().startswith("```"):
                    continue
                if extra.lstrip().startswith("|"):
                    text += "\n" + extra
                break
            found.append((cited, text))
    return found


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_interval_a_doc_quotes_beside_a_stored_file_is_in_that_file(doc: Path) -> None:
    for cited, text in _cited_blocks(doc):
        stored = (RESULTS / cited).read_text(encoding="utf-8")
        if cited.endswith(".json"):  # intervals stored as value, ci_low, ci_high
            stored += "\n".join(_json_intervals(json.loads(stored)))
        for interval in INTERVAL.findall(text):
            assert interval.replace("−", "-") in stored.replace("−", "-"), (
                doc.name,
                cited,
                interval,
            )


def _json_intervals(value: object) -> list[str]:
    """Every ``{value, ci_low, ci_high}`` of a JSON value, written ``v [low, high]``."""
    if isinstance(value, list):
        return [text for item in value for text in _json_intervals(item)]
    if not isinstance(value, dict):
        return []
    found = [text for item in value.values() for text in _json_intervals(item)]
    if all(isinstance(value.get(name), (int, float)) for name in ("value", "ci_low", "ci_high")):
        found.append(f"{value['value']:.3f} [{value['ci_low']:.3f}, {value['ci_high']:.3f}]")
    return found


QWEN = "qwen2.5-coder-1.5b"
QWEN_HEADER = [
    "benchmark",
    "measure",
    "unit",
    "Qwen2.5-Coder-1.5B-Instruct (llama.cpp)",
    "chance (seed 0, same units)",
    "best trivial strategy (same units): value; beaten",
    "papers",
    "failed replies",
]
"""The root README's Qwen table: its own rows (CogLM by the chat protocol), every cell stored."""


def qwen_row(row: dict, paper: list) -> list[str]:
    """The README Qwen table's cells for one stored row."""
    trivial = row.get("trivial")
    trivial_cell = f"{trivial['name']}: {trivial['value']:.3f}; {_beaten(row)}" if trivial else "-"
    return [
        row["benchmark"],
        row["measure"],
        f"{row['n']} {plural(row['unit'], row['n'])}",
        format_row(row),
        _chance_text(row),
        trivial_cell,
        _paper_text(row, paper),
        _failures_text(row),
    ]


def test_root_readme_qwen_table_quotes_the_stored_profile() -> None:
    """Every cell of the README's Qwen table, as the stored llama.cpp profile holds it."""
    header, rows = _table(ROOT / "README.md", f"| benchmark | measure | unit | {QWEN_HEADER[3]}")
    assert header == QWEN_HEADER
    profile = json.loads((PROFILES / QWEN / "profile.json").read_text())
    stored = {(row["benchmark"], row["measure"]): row for row in profile["rows"]}
    assert rows
    for cells in rows:
        assert cells == qwen_row(stored[(cells[0], cells[1])], profile["paper"]), cells[:2]
