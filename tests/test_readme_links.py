"""Every relative Markdown link of the repository's READMEs and ``docs/`` pages resolves.

Covers every ``README.md`` and every ``docs/*.md`` page of the repository (hidden folders
such as ``.git`` or ``.pytest_cache`` left out). Links inside code blocks and inline code
are not links; links with a scheme (``https:``, ``mailto:``) and pure anchors (``#...``)
are not checked.
"""

import re
from pathlib import Path

import pytest

from cog_tasks.benchmarks import REGISTRY

ROOT = Path(__file__).resolve().parents[1]

# [text](target) and ![alt](target), the target up to a space (a title may follow) or ")".
INLINE_LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
# [label]: target (reference definitions).
REFERENCE_LINK = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+\"[^\"]*\")?\s*$", re.M)
FENCED_BLOCK = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)
INLINE_CODE = re.compile(r"`[^`\n]*`")
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def markdown_pages(root: Path = ROOT) -> list[Path]:
    """Every ``README.md`` and ``docs/*.md`` page under ``root``, hidden folders left out."""
    pages = set(root.rglob("README.md")) | set(root.rglob("docs/*.md"))
    return sorted(
        page
        for page in pages
        if not any(part.startswith(".") for part in page.relative_to(root).parts)
    )


def relative_links(text: str) -> list[str]:
    """The relative link targets of a Markdown text, anchors and code left out."""
    prose = INLINE_CODE.sub("", FENCED_BLOCK.sub("", text))
    targets = INLINE_LINK.findall(prose) + REFERENCE_LINK.findall(prose)
    paths = [target.split("#", 1)[0] for target in targets if not SCHEME.match(target)]
    return [path for path in paths if path]


def broken_links(page: Path) -> list[str]:
    """The relative links of ``page`` that point to no existing file or folder."""
    return [
        target
        for target in relative_links(page.read_text(encoding="utf-8"))
        if not (page.parent / target).exists()
    ]


def test_link_reader_finds_relative_links_only() -> None:
    text = (
        'See [a](docs/a.md#part), ![img](docs/b.png "title"), [web](https://x.org/a),\n'
        "[top](#usage), `[code](no.md)` and [ref]: ../c.md\n\n[ref]: ../c.md\n"
        "```bash\necho [x](inside.md)\n```\n"
    )
    assert relative_links(text) == ["docs/a.md", "docs/b.png", "../c.md"]


def test_broken_link_is_reported(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "there.md").write_text("x")
    page = tmp_path / "README.md"
    page.write_text("[ok](docs/there.md) and [gone](docs/missing.md)")
    assert broken_links(page) == ["docs/missing.md"]
    assert markdown_pages(tmp_path) == [page, tmp_path / "docs" / "there.md"]


def test_every_benchmark_has_one_readme() -> None:
    for benchmark in REGISTRY:
        folder = ROOT / "cog_tasks" / benchmark
        # A bundled sample data set (cogbench/sample/) describes its files in a README of its own.
        readmes = [
            page
            for page in folder.rglob("README.md")
            if "sample" not in page.relative_to(folder).parts
        ]
        assert readmes == [folder / "README.md"], readmes


@pytest.mark.parametrize("page", markdown_pages(), ids=lambda page: str(page.relative_to(ROOT)))
def test_relative_links_resolve(page: Path) -> None:
    assert broken_links(page) == []
