"""CogLM data checks through the data-source hook: repeats, empty files, item counts."""

import json
from pathlib import Path

import pytest

from cog_tasks.coglm.abilities import ABILITY_BY_CODE
from cog_tasks.coglm.records import CogLMDataError, fetch_ability
from cog_tasks.common.files import DataFileError
from cog_tasks.common.sources import ItemCountWarning

CONST = ABILITY_BY_CODE["const"]


def _write(root: Path, items: object, raw: str | None = None) -> Path:
    path = root / "coglm" / CONST.relative_path
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(raw if raw is not None else json.dumps(items))
    return path


def _item(number: int) -> dict:
    return {"question": f"Question {number}?", "candidates": ["yes", "no"], "answer": 0}


def test_a_repeated_record_is_refused_naming_file_and_items(tmp_path: Path) -> None:
    items = [_item(n) for n in range(49)]
    path = _write(tmp_path, [*items, dict(reversed(list(items[3].items())))])
    with pytest.raises(CogLMDataError, match=rf"{path}: item 49 repeats item 3"):
        fetch_ability(CONST, data_dir=tmp_path)


def test_the_authors_own_repeats_are_kept(shared_data: Path) -> None:
    # early items 38 and 43, semio 80-84 and 90-94 are the same records upstream.
    assert len(fetch_ability(ABILITY_BY_CODE["early"])) == 100
    assert len(fetch_ability(ABILITY_BY_CODE["semio"])) == 100


def test_an_empty_file_is_refused(tmp_path: Path) -> None:
    path = _write(tmp_path, None, raw="  \n")
    with pytest.raises(DataFileError, match=rf"{path}: the file is empty"):
        fetch_ability(CONST, data_dir=tmp_path)
    _write(tmp_path, [])
    with pytest.raises(CogLMDataError, match="holds no items"):
        fetch_ability(CONST, data_dir=tmp_path)


def test_a_local_copy_with_another_count_is_named_in_a_warning(tmp_path: Path) -> None:
    path = _write(tmp_path, [_item(n) for n in range(52)])
    with pytest.warns(
        ItemCountWarning, match=rf"{path}: holds 52 items, the pinned upstream file 50"
    ):
        assert len(fetch_ability(CONST, data_dir=tmp_path)) == 52
