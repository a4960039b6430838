"""The Hub datasets: CogLM configs, CogEval reference items, CogBench sample set, CLI, push."""

import contextlib
import io
import re
import uuid
from pathlib import Path

import pytest
import yaml

from cog_tasks.cli import build_parser, main
from cog_tasks.coglm.abilities import ABILITIES
from cog_tasks.coglm.dataset import build_dataset_dict, check_complete, dataset_card
from cog_tasks.coglm.records import UPSTREAM_COMMIT, load_records
from cog_tasks.common.hub_folder import save_hub_folder

COLUMNS = [
    "id",
    "ability",
    "stage",
    "question",
    "choices",
    "answer",
    "num_choices",
    "num_distinct_choices",
]
CONFIGS = ["all", *(a.code for a in ABILITIES), "stage1", "stage2", "stage3", "stage4"]


@pytest.fixture(scope="module")
def built(shared_data: Path):
    return build_dataset_dict(shared_data)


def unique(name: str) -> str:
    return f"{name}-{uuid.uuid4().hex[:8]}"


def front_matter(card: str) -> dict:
    _, metadata, _ = card.split("---\n", 2)
    return yaml.safe_load(metadata)


def run_card_example(card: str, folder: Path) -> str:
    """Run the card's Python ``load_dataset`` example on the built folder; return its output.

    datasets caches a local folder by its name, whatever its content: give each
    built folder a unique name so that no earlier build answers.
    """
    (code,) = re.findall(r"```python\n(.*?)```", card, flags=re.S)
    assert "load_dataset(" in code
    output = io.StringIO()
    with contextlib.redirect_stdout(output):
        exec(code.replace('"ORG/NAME"', repr(str(folder))), {})  # noqa: S102
    return output.getvalue()


def test_configs_each_have_a_test_split(built) -> None:
    assert list(built) == CONFIGS
    check_complete(built)
    assert all(list(config) == ["test"] for config in built.values())
    assert built["all"]["test"].num_rows == 1220
    assert [built[f"stage{s}"]["test"].num_rows for s in (1, 2, 3, 4)] == [150, 200, 310, 560]
    for ability in ABILITIES:
        split = built[ability.code]["test"]
        assert split.column_names == COLUMNS
        assert set(split["ability"]) == {ability.code}
        assert set(split["stage"]) == {ability.stage}
    first = built["const"]["test"][0]
    assert first["id"] == "const-0000"
    assert first["choices"] == ["True", "False"] and first["answer"] == 0
    assert (first["num_choices"], first["num_distinct_choices"]) == (2, 2)
    with pytest.raises(ValueError, match="partial CogLM"):
        check_complete({"all": built["all"], "const": built["const"]})


def test_card_metadata_and_content(built) -> None:
    card = dataset_card(built)
    metadata = front_matter(card)
    assert metadata["license"] == "unknown"
    assert [c["config_name"] for c in metadata["configs"]] == CONFIGS
    assert metadata["configs"][1]["data_files"] == [
        {"split": "test", "path": "data/const/test-00000-of-00001.parquet"}
    ]
    body = card.split("---\n", 2)[2]
    assert UPSTREAM_COMMIT in body
    assert "states **no license**" in body
    assert "@article{wang2024coglm" in body
    assert "39 items (38 in `plan`, 1 in `induc`)" in body
    deduc_row = "| `deduc` | Hypothetico-deductive reasoning | 4 | `fourth_stage/deductive.json` |"
    assert f"{deduc_row} 250 |" in body
    for column in COLUMNS:
        assert f"| `{column}` |" in body


def test_hub_folder_round_trips_through_the_resolver(
    built, tmp_path: Path, shared_data: Path, monkeypatch
) -> None:
    """The folder a push uploads, read back by the resolver's Hub branch and by the card."""
    save_hub_folder(built, dataset_card(built), tmp_path)
    assert (tmp_path / "data" / "plan" / "test-00000-of-00001.parquet").is_file()
    monkeypatch.delenv("COG_TASKS_DATA", raising=False)
    from_hub = load_records("const,plan", hub=str(tmp_path))
    assert from_hub == load_records("const,plan", data_dir=shared_data)
    monkeypatch.setenv("COG_TASKS_COGLM_HUB", str(tmp_path))
    assert load_records("plan") == from_hub[50:]
    printed = run_card_example(dataset_card(built), tmp_path)
    assert printed.startswith("210 [")


def test_cogeval_and_cogbench_builds(tmp_path: Path, capsys) -> None:
    from cog_tasks.cogeval.generator import generate_items

    reference = len(generate_items(seed=0))
    cogeval_dir, cogbench_dir = tmp_path / unique("cogeval"), tmp_path / unique("cogbench")
    assert main(["data", "build", "cogeval", str(cogeval_dir)]) == 0
    assert f"default/test={reference}" in capsys.readouterr().out
    card = (cogeval_dir / "README.md").read_text()
    assert front_matter(card)["license"] == "mit"
    assert "e731203dc4626decade618065f79eb1b4218debd" in card
    assert run_card_example(card, cogeval_dir).startswith(f"{reference} ['Answer: ")

    assert main(["data", "build", "cogbench", str(cogbench_dir)]) == 0
    assert "eval_cogbench_a=16" in capsys.readouterr().out
    card = (cogbench_dir / "README.md").read_text()
    assert "Not CogBench data and not human data" in card
    assert [c["config_name"] for c in front_matter(card)["configs"]] == [
        "cogbench_a",
        "cogbench_v",
        "eval_cogbench_a",
        "eval_cogbench_v",
    ]
    assert (cogbench_dir / "english" / "profile.json").is_file()
    assert run_card_example(card, cogbench_dir).startswith("16 ")


def test_data_cli_builds_coglm(tmp_path: Path, capsys) -> None:
    assert main(["data", "build", "coglm", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "all/test=1220" in out and "stage4/test=560" in out
    assert (tmp_path / "README.md").read_text().startswith("---\npretty_name: CogLM")


def test_push_is_private_unless_public(monkeypatch, capsys) -> None:
    """Pushing needs the network and a token; the Hub client is replaced by a recorder."""
    import huggingface_hub

    calls: list[tuple[str, dict]] = []

    class RecordingApi:
        def __init__(self, token=None) -> None:
            pass

        def create_repo(self, repo_id, **options) -> None:
            calls.append(("create_repo", {"repo_id": repo_id, **options}))

        def upload_folder(self, **options) -> None:
            files = sorted(p.name for p in Path(options["folder_path"]).rglob("*") if p.is_file())
            calls.append(("upload_folder", {**options, "files": files}))

    monkeypatch.setattr(huggingface_hub, "HfApi", RecordingApi)
    assert main(["data", "push", "cogbench", "--repo-id", "org/cogbench-sample"]) == 0
    assert "(private)" in capsys.readouterr().out
    (create, options), (upload, uploaded) = calls
    assert (create, options["private"], options["repo_type"]) == ("create_repo", True, "dataset")
    assert "README.md" in uploaded["files"] and "eval_cogbench_a.json" in uploaded["files"]
    calls.clear()
    assert main(["data", "push", "cogbench", "--repo-id", "org/x", "--public"]) == 0
    assert calls[0][1]["private"] is False
    with pytest.raises(SystemExit):
        build_parser().parse_args(["data", "push", "coglm"])
