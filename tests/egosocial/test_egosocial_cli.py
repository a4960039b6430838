import json
from pathlib import Path

import pytest
from inspect_ai.log import list_eval_logs, read_eval_log

from cog_tasks.cli import main
from cog_tasks.egosocial.inspect.chance import ChanceAnswerer
from cog_tasks.egosocial.opponents.holdem_dqn import load_opponent, sha256_of


@pytest.fixture(scope="module")
def chance_logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    log_dir = tmp_path_factory.mktemp("chance_logs")
    for task, arguments in (
        ("egosocial_static", ["-T", "source=both", "-T", "size=1"]),
        ("egosocial_number_guessing", ["-T", "rounds=3"]),
        ("egosocial_holdem", ["-T", "hands=2"]),
    ):
        assert main(["egosocial", "chance", task, *arguments, "--log-dir", str(log_dir)]) == 0
    return log_dir


@pytest.mark.slow
def test_chance_baseline_only_gives_valid_answers(chance_logs: Path) -> None:
    logs = {
        read_eval_log(info).eval.task.split("/")[-1]: read_eval_log(info)
        for info in list_eval_logs(str(chance_logs))
    }
    assert set(logs) == {"egosocial_static", "egosocial_number_guessing", "egosocial_holdem"}
    for log in logs.values():
        assert log.status == "success", log.error
        assert log.eval.model == "mockllm/chance"
    metrics = {
        name: {k: v.value for k, v in log.results.scores[0].metrics.items()}
        for name, log in logs.items()
    }
    assert metrics["egosocial_static"]["invalid"] == 0.0
    assert metrics["egosocial_number_guessing"]["invalid_rate"] == 0.0
    assert metrics["egosocial_holdem"]["invalid_action_rate"] == 0.0


def test_chance_answers_depend_only_on_seed_and_conversation() -> None:
    prompt = "Pick one.\n\nA) red\nB) blue\nC) green\n\nReply in the form 'ANSWER: $LETTER'."
    first, again = ChanceAnswerer(3), ChanceAnswerer(3)
    assert [first.reply(prompt, str(i)) for i in range(20)] == [
        again.reply(prompt, str(i)) for i in range(20)
    ]
    assert {first.reply(prompt, str(i)) for i in range(20)} == {
        "ANSWER: A",
        "ANSWER: B",
        "ANSWER: C",
    }
    with pytest.raises(ValueError, match="cannot tell"):
        first.reply("Tell me a story.")


@pytest.mark.slow
def test_report_writes_figures_and_summary(chance_logs: Path, tmp_path: Path, capsys) -> None:
    assert main(["egosocial", "report", str(chance_logs), "--out", str(tmp_path)]) == 0
    written = capsys.readouterr().out.split()
    assert {Path(p).name for p in written} == {
        "number_guessing_curves.png",
        "accuracy_by_table.png",
        "summary.json",
        "summary.md",
    }
    for name in ("number_guessing_curves.png", "accuracy_by_table.png"):
        assert (tmp_path / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    table = (tmp_path / "summary.md").read_text()
    assert "mockllm/chance" in table and "| L3 hit rate |" in table
    assert "| Non-li |" in table and "| counterfactual |" in table and "unit: game" in table
    summary = json.loads((tmp_path / "summary.json").read_text())
    cells = summary["cells"]
    bounded = [cell for cell in cells if cell["ci_low"] is not None]
    assert bounded and all(cell["ci_low"] <= cell["ci_high"] for cell in bounded)
    assert any(cell["reference"] and cell["row"].endswith("always B") for cell in cells)
    games = summary["number_guessing_games"]
    assert sorted(game["level"] for game in games) == [1, 2, 3]
    assert next(g for g in games if g["level"] == 2)["opponent"] == [50, 45, 40]


def test_report_without_logs_fails_clearly(tmp_path: Path, capsys) -> None:
    assert main(["egosocial", "report", str(tmp_path)]) == 2
    error = capsys.readouterr().err
    assert error.startswith("cog-tasks egosocial report: error: no EgoSocialArena logs")
    assert error.count("\n") == 1


@pytest.mark.slow
def test_train_opponents_command_writes_hashed_weights(tmp_path: Path, capsys) -> None:
    args = ["--seed", "5", "--episodes", "20", "--style", "conservative", "--out", str(tmp_path)]
    assert main(["egosocial", "train-opponents", *args]) == 0
    record = json.loads((tmp_path / "training.json").read_text())
    assert record["command"] == f"cog-tasks egosocial train-opponents {' '.join(args)}"
    assert record["config"]["seed"] == 5
    weights = tmp_path / "dqn_conservative.pt"
    assert record["opponents"]["conservative"]["sha256"] == sha256_of(weights)
    assert load_opponent("conservative", tmp_path).style == "conservative"
    assert "sha256" in capsys.readouterr().out


def test_train_opponents_needs_an_explicit_output_folder(capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["egosocial", "train-opponents", "--episodes", "1"])
    assert exit_info.value.code == 2
    assert "--out" in capsys.readouterr().err
