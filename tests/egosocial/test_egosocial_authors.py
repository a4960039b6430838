"""The authors' data: resolver, labels, malformed lines, the Hub folder, static task parameters.

The authors' files are read from ``$COG_TASKS_DATA/egosocial`` (``../shared/data``);
malformed records are synthetic, written here.
"""

import json
from collections import Counter
from pathlib import Path

import pytest

from cog_tasks.common.files import DataFileError
from cog_tasks.common.sources import DataSourceError
from cog_tasks.egosocial.authors import (
    ERRATA,
    UPSTREAM_COMMIT,
    load_blackjack_prompts,
    load_choice_items,
)
from cog_tasks.egosocial.inspect import (
    egosocial_holdem,
    egosocial_number_guessing,
    egosocial_static,
)
from cog_tasks.egosocial.static import build_static_items


@pytest.fixture
def empty_sources(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """No local file, no Hub setting, an empty cache, offline: nothing resolves."""
    data = tmp_path / "data"
    (data / "egosocial").mkdir(parents=True)
    monkeypatch.setenv("COG_TASKS_DATA", str(data))
    monkeypatch.setenv("COG_TASKS_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.delenv("COG_TASKS_EGOSOCIAL_HUB", raising=False)
    return data


def write_jsonl(path: Path, lines: list[str]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def record(**fields) -> str:
    base = {
        "Story": "You drop a cup.",
        "Question": "What happens?",
        "Option": ["It breaks.", "It floats."],
        "Answer": "It breaks.",
    }
    return json.dumps(base | fields)


def test_the_authors_files_load_with_their_labels(shared_data: Path) -> None:
    daily_life = load_choice_items("daily_life")
    counterfactual = load_choice_items("counterfactual")
    blackjack = load_blackjack_prompts()
    assert (len(daily_life), len(counterfactual), len(blackjack)) == (49, 10, 50)
    assert Counter(item.label for item in daily_life) == {
        "Non-li": 14,
        "Emotion": 11,
        "Desire": 7,
        "Belief": 6,
        "Intention": 6,
        "Knowledge": 5,
    }
    # counterfact.jsonl has no Ability: its scenario's label
    assert {item.label for item in counterfactual} == {"Counterfactual"}
    assert Counter(len(item.options) for item in daily_life) == {4: 39, 2: 10}
    rows = [json.loads(line) for line in (shared_data / "egosocial/socialfirst.jsonl").open()]
    for item, row in zip(daily_life, rows, strict=True):
        assert item.options[item.answer] == row["Answer"] and item.perspective is None
    assert daily_life[0].id == "daily_life-authors-0001"
    assert daily_life[-1].metadata["line"] == 49
    assert {len(prompt.hand.player) for prompt in blackjack} == {2, 3, 4, 5}


@pytest.mark.parametrize(
    ("bad_line", "message"),
    [
        ("{not json", r"invalid JSON"),
        ('["a list"]', r"expected a JSON object"),
        (record(Answer="It melts."), r"Answer 'It melts\.' is not one of its options"),
        (record(Answer="A"), r"Answer 'A' is not one of its options"),
        (json.dumps({"Story": "s", "Question": "q"}), r"missing field\(s\) Option, Answer"),
        (record(Option="It breaks. / It floats."), r"Option must be a list of texts"),
        (record(Option=["It breaks.", "It breaks."]), r"Option needs at least 2 distinct texts"),
    ],
)
def test_malformed_lines_name_the_file_and_line(
    tmp_path: Path, bad_line: str, message: str
) -> None:
    path = write_jsonl(tmp_path / "mine.jsonl", [record(), record(Question="Why?"), bad_line])
    with pytest.raises(DataFileError, match=rf"mine\.jsonl:3: {message}"):
        load_choice_items("daily_life", data_file=path)


@pytest.mark.parametrize("label", ["Physics", "all", "daily_life", "Daily Life", "belief"])
def test_ability_labels_outside_the_authors_six_are_refused_naming_the_row(
    tmp_path: Path, label: str
) -> None:
    path = write_jsonl(
        tmp_path / "mine.jsonl", [record(Ability="Counterfactual"), record(Ability=label)]
    )
    with pytest.raises(DataFileError, match=rf"mine\.jsonl:2: Ability '{label}' is not one of"):
        load_choice_items("daily_life", data_file=path)


def test_errata_items_are_kept_by_default_and_excluded_by_name(shared_data: Path) -> None:
    assert set(ERRATA) == {"daily_life-authors-0010", "daily_life-authors-0011"}
    kept = {item.id: item for item in build_static_items(source="authors")}
    assert set(ERRATA) <= set(kept) and len(kept) == 59
    # 0010 asks what is in the cabinet (reality); 0011's gold is what Xiao Li no longer expects
    assert kept["daily_life-authors-0010"].question == "What is in the storage cabinet?"
    wrong_gold = kept["daily_life-authors-0011"]
    assert wrong_gold.options[wrong_gold.answer] == "Carrot" and "finds a coat" in wrong_gold.story
    excluded = build_static_items(source="authors", exclude_errata=True)
    assert [item.id for item in excluded] == [i for i in kept if i not in ERRATA]
    task = egosocial_static(exclude_errata=True)
    assert len(task.dataset) == 57
    with pytest.raises(ValueError, match="exclude_errata must be true or false"):
        egosocial_static(exclude_errata="no")


def test_data_file_works_for_every_scenario_or_fails(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "mine.jsonl", [record(), record(Ability="Desire")])
    for scenario in ("daily_life", "counterfactual", "new_world", "blackjack"):
        items = build_static_items(source="authors", scenarios=scenario, data_file=path)
        assert [item.scenario for item in items] == [scenario, scenario]
        assert items[1].label == "Desire" and items[0].id == "mine-0001"
    with pytest.raises(ValueError, match="replaces the items of one scenario"):
        build_static_items(source="authors", scenarios="all", data_file=path)
    with pytest.raises(ValueError, match="use source=authors"):
        build_static_items(source="generated", scenarios="new_world", data_file=path)


def test_scenarios_without_authors_items_are_refused(shared_data: Path) -> None:
    assert {item.scenario for item in build_static_items()} == {"daily_life", "counterfactual"}
    with pytest.raises(ValueError, match="no multiple-choice items for 'new_world'"):
        build_static_items(source="authors", scenarios="new_world")
    both = build_static_items(source="both", scenarios="counterfactual", size=3)
    assert [item.metadata.get("source") for item in both].count("authors") == 10
    assert len(both) == 13
    with pytest.raises(ValueError, match="unknown source"):
        build_static_items(source="paper")


def test_unresolvable_data_names_every_way_out(empty_sources: Path) -> None:
    with pytest.raises(DataSourceError) as error:
        build_static_items()
    message = str(error.value)
    assert "HF_HUB_OFFLINE is set" in message and UPSTREAM_COMMIT in message
    assert "$COG_TASKS_DATA/egosocial/socialfirst.jsonl (COG_TASKS_DATA: a folder" in message
    assert f"COG_TASKS_DATA={empty_sources} has no such file" in message
    assert "COG_TASKS_EGOSOCIAL_HUB" in message and "cog-tasks data build egosocial" in message


def test_blackjack_prompts_with_unreadable_cards_name_the_line(empty_sources: Path) -> None:
    good = "The dealer current card is {Club 9}. Your current cards are {Diamond A,Heart 10}."
    write_jsonl(
        empty_sources / "egosocial" / "blackjack.jsonl",
        [
            json.dumps({"system": "rules", "user": good}),
            json.dumps({"system": "rules", "user": "Your cards are a pair of aces."}),
        ],
    )
    with pytest.raises(DataFileError, match=r"blackjack\.jsonl:2: no '\{\.\.\.\}' dealer card"):
        load_blackjack_prompts()
    write_jsonl(
        empty_sources / "egosocial" / "blackjack.jsonl",
        [json.dumps({"system": "rules", "user": good.replace("Club 9", "Star 9")})],
    )
    with pytest.raises(DataFileError, match=r"blackjack\.jsonl:1: cannot read the card 'Star 9'"):
        load_blackjack_prompts()
    write_jsonl(
        empty_sources / "egosocial" / "blackjack.jsonl", [json.dumps({"system": "r", "user": good})]
    )
    [prompt] = load_blackjack_prompts()
    assert prompt.hand.player == ("DA", "HT") and prompt.hand.dealer_up == "C9"


@pytest.mark.slow
def test_a_built_hub_folder_reads_back_like_the_local_files(
    shared_data: Path, empty_sources: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import datasets

    from cog_tasks.common.hub_folder import save_hub_folder
    from cog_tasks.egosocial.dataset import build_dataset_dict, dataset_card

    scenarios = ("daily_life", "counterfactual")
    local = {s: load_choice_items(s, data_dir=shared_data) for s in scenarios}
    built = build_dataset_dict(data_dir=shared_data)
    assert {n: s["test"].num_rows for n, s in built.items() if n != "generated"} == {
        "daily_life": 49,
        "counterfactual": 10,
        "blackjack": 50,
    }
    card = dataset_card(built)
    assert UPSTREAM_COMMIT in card and "none stated upstream" in card
    folder = tmp_path / "hub"
    save_hub_folder(built, card, folder)
    generated = datasets.load_dataset(str(folder), "generated", split="test")
    assert generated.num_rows == built["generated"]["test"].num_rows
    monkeypatch.setenv("COG_TASKS_EGOSOCIAL_HUB", str(folder))
    for scenario, items in local.items():
        from_hub = load_choice_items(scenario)
        assert [(i.id, i.label, i.story, i.options, i.answer) for i in from_hub] == [
            (i.id, i.label, i.story, i.options, i.answer) for i in items
        ]
    assert [p.hand for p in load_blackjack_prompts()] == [
        p.hand for p in load_blackjack_prompts(data_dir=shared_data)
    ]


def _copy_authors(shared_data: Path, root: Path) -> Path:
    folder = root / "egosocial"
    folder.mkdir(parents=True)
    for file in ("socialfirst.jsonl", "counterfact.jsonl", "blackjack.jsonl"):
        (folder / file).write_bytes((shared_data / "egosocial" / file).read_bytes())
    return folder


def test_released_files_pass_with_their_exact_counts(shared_data: Path) -> None:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert len(load_choice_items("daily_life", data_dir=shared_data)) == 49
        assert len(load_choice_items("counterfactual", data_dir=shared_data)) == 10


def test_empty_repeated_and_short_local_files_are_named(shared_data: Path, tmp_path: Path) -> None:
    from cog_tasks.common.sources import ItemCountWarning

    folder = _copy_authors(shared_data, tmp_path)
    daily = folder / "socialfirst.jsonl"
    lines = daily.read_text().splitlines()
    daily.write_text("\n".join([*lines, lines[0]]) + "\n")
    with pytest.raises(DataFileError, match=r"socialfirst\.jsonl: line 50 repeats line 1"):
        load_choice_items("daily_life", data_dir=tmp_path)
    daily.write_text("")
    with pytest.raises(DataFileError, match=r"socialfirst\.jsonl: the file is empty"):
        load_choice_items("daily_life", data_dir=tmp_path)
    daily.write_text("\n".join(lines[:10]) + "\n")
    with pytest.warns(ItemCountWarning, match=r"socialfirst\.jsonl: holds 10 items.* 49"):
        assert len(load_choice_items("daily_life", data_dir=tmp_path)) == 10


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: egosocial_holdem(hands="x"), "hands must be an integer >= 1"),
        (lambda: egosocial_holdem(seed=-1), "seed must be an integer >= 0"),
        (lambda: egosocial_static(circular="yes"), "circular must be true or false"),
        (lambda: egosocial_number_guessing(rules=1), "rules must be one of"),
        (lambda: egosocial_number_guessing(level="3"), "level must be one of 1, 2, 3"),
        (lambda: egosocial_number_guessing(rounds=101), "<= 100"),
        (lambda: egosocial_static(scenarios=3), "scenarios must be comma-separated names"),
    ],
)
def test_task_parameters_are_typed_and_range_checked(build, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        build()
