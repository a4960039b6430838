"""``profile compare`` (one N-way table, task versions named) and ``profile board``."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from cog_tasks.cli import main
from cog_tasks.commands.profile import compare_profiles
from cog_tasks.commands.profile_views import compare_table

STORED = Path(__file__).resolve().parents[1] / "benchmarks" / "results" / "profile"


def _profile(model: str, task: str, value: float) -> dict:
    run = {"task": task, "model": model, "roles": {}, "arguments": {}}
    units = {f"u{i}": float(i % 2) for i in range(12)}
    row = {"benchmark": "b", "measure": "m", "value": value, "n": 12, "unit": "item"}
    return {"model": model, "preset": "smoke", "rows": [{**row, "run": run, "units": units}]}


def test_a_task_version_difference_is_one_row_named_as_a_protocol_difference() -> None:
    old, new = _profile("m1", "t@1.0.0", 0.5), _profile("m2", "t@2.0.0", 0.25)
    (comparison,) = compare_profiles(old, new)
    assert comparison.difference is None
    assert comparison.reason == (
        "runs differ in task version (a protocol difference): t 1.0.0 vs 2.0.0"
    )
    header, _, line = compare_table(["m1", "m2"], [old, new])
    assert line.count("| b | m |") == 1 and "0.500" in line and "0.250" in line
    assert line.endswith("| task versions differ: t@1.0.0 (m1), t@2.0.0 (m2) |")
    # Alike versions: paired, and the protocol column says so.
    assert compare_table(["m1", "m2"], [old, old])[2].endswith("| same |")
    assert header.startswith("| benchmark | measure | unit | chance | best trivial | paper |")


def test_a_row_shows_the_best_trivial_strategy_when_it_has_one() -> None:
    profile = _profile("m", "t@1", 0.5)
    assert "| - |" in compare_table(["m"], [profile])[2]
    profile["rows"][0]["trivial"] = {
        "name": "constant A",
        "value": 0.25,
        "difference": None,
        "beaten": False,
    }
    assert "| constant A: 0.250; m not paired |" in compare_table(["m"], [profile])[2]


@pytest.mark.slow  # 17 s: the paired bootstraps of 24 rows
def test_two_stored_profiles_print_one_table_and_an_html_page_with_its_chart(
    tmp_path: Path, capsys
) -> None:
    folders = [str(STORED / "smollm2"), str(STORED / "gemma3-270m")]
    page = tmp_path / "compare.html"
    assert main(["profile", "compare", *folders, "--html", str(page)]) == 0
    out = capsys.readouterr().out
    header = out.splitlines()[0]
    for column in ("unit", "chance", "best trivial", "paper", "failed replies", "protocol"):
        assert f"| {column}" in header
    assert "hf/smollm2 (smollm2)" in header and "hf/gemma (gemma3-270m)" in header
    rows = json.loads((STORED / "smollm2" / "profile.json").read_text())["rows"]
    table = [line for line in out.splitlines() if line.startswith("| ")][1:]
    assert len(table) == len(rows)
    # CogLM's paper column counts models apart from the people.
    assert "| 11 models, 0.071 to 0.847; humans 0.937 |" in out
    text = page.read_text(encoding="utf-8")
    assert 'src="data:image/png;base64,' in text and text.count("<tr>") == len(rows) + 1
    assert not re.search(r"""(src|href)=["'](?!data:|#)""", text)


def _chromium() -> str | None:
    return shutil.which("chromium-headless-shell") or shutil.which("chromium")


def _dom(browser: str, url: str) -> str:
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
    flags += ["--disable-component-update", "--disable-sync", "--no-first-run"]
    return subprocess.run(
        [browser, *flags, "--dump-dom", url],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout


@pytest.mark.slow
def test_board_opens_sorts_and_links_each_cell_to_its_samples(tmp_path: Path) -> None:
    chance = tmp_path / "chance"
    assert (
        main(["profile", "run", "--model", "chance", "--preset", "smoke", "--out", str(chance)])
        == 0
    )
    page = tmp_path / "site" / "board.html"
    stored = str(STORED / "qwen2.5-coder-1.5b")
    assert main(["profile", "board", str(chance), stored, "--out", str(page)]) == 0
    assert main(["profile", "board", str(chance), "--out", str(page)]) == 2  # no --force
    text = page.read_text(encoding="utf-8")
    links = re.findall(r'<a href="([^"]+)">', text)
    profile = json.loads((chance / "profile.json").read_text())
    inspect_rows = [r for r in profile["rows"] if r["benchmark"] != "coglm"]
    # Every Inspect row of the chance run links into its bundled log; the stored
    # profile holds no logs, so its cells link nowhere.
    assert len(links) == len(inspect_rows)
    for link in links:
        target, _, route = link.partition("#")
        assert (page.parent / target).is_file() and route.startswith("/logs/")
        assert (page.parent / target).parent.joinpath("logs", unquote(route[6:])).is_file()
    browser = _chromium()
    if browser is None:
        pytest.skip("no headless Chromium (apt-get install chromium-headless-shell)")
    measures = [r["measure"] for r in profile["rows"]]
    dom = _dom(browser, page.as_uri())
    assert re.findall(r"<tr><td>\w+</td><td>(\w+)</td>", dom)[: len(measures)] == measures
    # Sorted by the chance profile's column (counted from 0: 6), descending, on load.
    dom = _dom(browser, page.as_uri() + "#sort=-6")
    shown = re.findall(r'<td data-sort="([^"]*)"', dom)[::2]
    values = [float(value) for value in shown if value]
    assert values == sorted(values, reverse=True) and 'aria-sort="descending"' in dom
    # Following a link opens the bundled Inspect viewer.
    viewer = _dom(browser, urlsplit((page.parent / links[0].partition("#")[0]).as_uri()).geturl())
    assert '<div id="app">' in viewer


def test_unit_plurals_read_as_english() -> None:
    from cog_tasks.common.stats import plural

    assert [plural(unit, 4) for unit in ("match", "game", "trajectory", "item")] == [
        "matches",
        "games",
        "trajectories",
        "items",
    ]
    assert plural("match", 1) == "match"
