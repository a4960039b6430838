"""The CogLM Hugging Face dataset: builder, card, Hub-shaped folder, CLI wiring."""

from pathlib import Path

import pytest
import yaml

from cog_tasks.cli import build_parser, main
from cog_tasks.coglm.abilities import ABILITIES
from cog_tasks.coglm.records import UPSTREAM_COMMIT, load_records
from cog_tasks.hf_datasets.coglm import build_dataset_dict, dataset_card
from cog_tasks.hf_datasets.folder import save_hub_folder

COLUMNS = ["id", "ability", "stage", "question", "choices", "answer", "num_choices"]


@pytest.fixture(scope="module")
def built(shared_data: Path):
    return build_dataset_dict(shared_data)


def test_builder_has_one_split_per_ability(built) -> None:
    assert list(built) == [a.code for a in ABILITIES]
    assert sum(split.num_rows for split in built.values()) == 1220
    assert built["deduc"].num_rows == 250
    for ability in ABILITIES:
        split = built[ability.code]
        assert split.column_names == COLUMNS
        assert set(split["ability"]) == {ability.code}
        assert set(split["stage"]) == {ability.stage}
    first = built["const"][0]
    assert first["id"] == "const-0000"
    assert first["choices"] == ["True", "False"] and first["answer"] == 0
    assert first["num_choices"] == 2


def test_card_metadata_and_content(built) -> None:
    card = dataset_card(built)
    _, front_matter, body = card.split("---\n", 2)
    metadata = yaml.safe_load(front_matter)
    assert metadata["license"] == "unknown"
    (config,) = metadata["configs"]
    assert [f["split"] for f in config["data_files"]] == [a.code for a in ABILITIES]
    assert UPSTREAM_COMMIT in body
    assert "states **no license**" in body
    assert "@article{wang2024coglm" in body
    deduc_row = "| `deduc` | Hypothetico-deductive reasoning | 4 | `fourth_stage/deductive.json` |"
    assert f"{deduc_row} 250 |" in body
    for column in COLUMNS:
        assert f"| `{column}` |" in body


def test_hub_folder_round_trips_through_the_resolver(
    built, tmp_path: Path, shared_data: Path, monkeypatch
) -> None:
    """The folder push_to_hub would create, read back by the resolver's Hub branch."""
    save_hub_folder(built, dataset_card(built), tmp_path)
    assert (tmp_path / "data" / "plan-00000-of-00001.parquet").is_file()
    monkeypatch.delenv("COG_TASKS_DATA", raising=False)
    from_hub = load_records("const,plan", hub=str(tmp_path))
    assert from_hub == load_records("const,plan", data_dir=shared_data)


def test_data_cli_builds_and_wires_push(tmp_path: Path, shared_data: Path, capsys) -> None:
    assert main(["data", "build", "coglm", str(tmp_path)]) == 0
    assert "const=50" in capsys.readouterr().out
    assert (tmp_path / "README.md").read_text().startswith("---\npretty_name: CogLM")
    # Pushing needs the network and a token; only the command line is checked here.
    args = build_parser().parse_args(["data", "push", "coglm", "--repo-id", "org/coglm"])
    assert (args.dataset, args.repo_id, args.private) == ("coglm", "org/coglm", False)
    with pytest.raises(SystemExit):
        build_parser().parse_args(["data", "push", "coglm"])
