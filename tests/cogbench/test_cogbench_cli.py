import asyncio
import json
import re
from pathlib import Path

import pytest
from inspect_ai.log import list_eval_logs, read_eval_log, write_eval_log

from cog_tasks.cli import main
from cog_tasks.cogbench import cli as cogbench_commands
from cog_tasks.cogbench.evaluation import (
    answered_items,
    copy_previous_tallies,
    judge_items,
    recorded_verdicts,
    score_method,
)
from cog_tasks.cogbench.loader import load_records, load_trajectories, sample_dir
from cog_tasks.cogbench.metrics import cohen_kappa, fleiss_kappa, mean_pairwise_spearman
from cog_tasks.cogbench.rationality import (
    JudgeItem,
    bounded_information,
    judge_agreement,
    judge_answers,
)

EVAL_A = sample_dir() / "english" / "eval_cogbench_a.json"


def test_evaluate_matches_hand_computation(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cogbench", "evaluate", str(EVAL_A), "--method", "Example"]) == 0
    out = capsys.readouterr().out
    records = load_records(EVAL_A)
    first = [item for r in records if r.iteration == 0 for item in r.questionnaire]
    kappa = cohen_kappa(
        [i.human_rating for i in first], [i.answers["Example"].rating for i in first]
    )
    assert f"0th {kappa:.3f}" in out
    scores = score_method("Example", answered_items(records, "Example"))
    assert f"avg(1-3) {scores.authenticity.average:.3f}" in out
    assert "======= Example on eval_cogbench_a.json" in out
    assert "invalid ratings 0" in out


def test_evaluate_counts_missing_answers_and_rejects_unknown_method(tmp_path: Path) -> None:
    records = json.loads(EVAL_A.read_text())
    del records[5]["questionnaire"][0]["answer"]["Example"]
    records[6]["questionnaire"][1]["answer"]["Example"]["rating"] = "no idea"
    records[7]["questionnaire"][2]["answer"]["Example"]["rationality"] = -1
    path = tmp_path / "eval.json"
    path.write_text(json.dumps(records))
    scores = score_method("Example", answered_items(load_records(path), "Example"))
    assert (scores.missing, scores.invalid, scores.rationality_unset) == (1, 2, 2)
    with pytest.raises(ValueError, match="methods found: \\['Example'\\]"):
        answered_items(load_records(path), "CogGPT")


def test_judge_agreement_with_humans() -> None:
    agreement = judge_agreement([4, 3, None, 5, 2], [4, 3, 5, None, 1])
    assert agreement.pairs == 3 and agreement.judge_invalid == 1
    assert agreement.kappa == pytest.approx(cohen_kappa([4, 3, 2], [4, 3, 1]))
    assert agreement.spearman == pytest.approx(1.0)
    assert agreement.exact == pytest.approx(2 / 3)


class ScriptedJudge:
    """Judge replies in order; records the prompts."""

    def __init__(self, replies: list[str]) -> None:
        self.replies = replies
        self.prompts: list[str] = []

    async def __call__(self, prompt: str, max_tokens: int) -> str:
        self.prompts.append(prompt)
        assert max_tokens >= 64  # room for a score and a one-line reason
        return self.replies[len(self.prompts) - 1]


def test_judge_sees_what_the_agent_reasoned_from_and_retries_once() -> None:
    item = JudgeItem(
        profile={"Name": "Ada", "Hobbies": "Chess, go"},
        flows=["first article " + "x" * 3000, "", "second article"],
        question="Board games are fun.",
        rating=4,
        reason="I play every week.",
    )
    judge = ScriptedJudge(["I like it.", "Score: 5\nReason: consistent with her hobbies."])
    [verdict] = asyncio.run(judge_answers(judge, [item]))
    assert verdict.score == 5 and len(judge.prompts) == 2
    prompt = judge.prompts[0]
    assert "Hobbies: Chess, go" in prompt and "x" * 3000 in prompt  # every flow, whole
    assert prompt.index("second article") < prompt.index("first article")  # newest first
    assert "[flow 2 of 2]" in prompt
    bounded = bounded_information(item.flows, budget=100)
    assert bounded.startswith("[flow 2 of 2]\nsecond article") and "[...]" in bounded
    assert len(bounded) < 200
    assert "1 older flow(s) left out" in bounded_information(item.flows, budget=10)
    still_bad = ScriptedJudge(["no", "still no"])
    [verdict] = asyncio.run(judge_answers(still_bad, [item]))
    assert verdict.score is None and len(still_bad.prompts) == 2


def test_eval_file_judge_items_use_stored_profile_and_earlier_flows(tmp_path: Path) -> None:
    records = json.loads(EVAL_A.read_text())
    records[2]["questionnaire"][0]["answer"]["Example"]["profile"] = "Name: Changed\nAge: 99"
    path = tmp_path / "eval.json"
    path.write_text(json.dumps(records))
    loaded = load_records(path)
    items = judge_items(answered_items(loaded, "Example"))
    target = next(
        judged
        for judged, record in zip(items, [r for r in loaded for _ in r.questionnaire], strict=True)
        if judged.profile == "Name: Changed\nAge: 99"
    )
    record = loaded[2]
    same = [
        r.information_flow
        for r in loaded
        if r.topic == record.topic
        and r.profile["Name"] == record.profile["Name"]
        and r.iteration <= record.iteration
    ]
    assert list(target.flows) == same
    assert len(target.flows) == record.iteration + 1


@pytest.mark.slow
def test_chance_report_and_export_round_trip(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    task_args = ["-T", "agent=cot", "-T", "source=sample", "-T", "subset=v", "-T", "iterations=2"]
    assert main(["cogbench", "chance", *task_args, "--log-dir", str(tmp_path)]) == 0
    [log] = [read_eval_log(info.name) for info in list_eval_logs(str(tmp_path))]
    assert log.eval.model == "mockllm/chance" and log.eval.task_args["iterations"] == 2
    metrics = {name: m.value for name, m in log.results.scores[0].metrics.items()}
    assert metrics["invalid_rate_v"] == 0.0 and 1.0 <= metrics["rationality_avg_v"] <= 5.0

    failed = log.model_copy(update={"status": "error"})
    write_eval_log(failed, str(tmp_path / "failed.eval"))
    assert main(["cogbench", "report", str(tmp_path), "--out", str(tmp_path / "report")]) == 0
    out = capsys.readouterr().out
    assert "skipped 1 log(s) with status error" in out
    png = tmp_path / "report" / "cogbench_v_english.png"
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    curves = json.loads((tmp_path / "report" / "cogbench_curves.json").read_text())
    assert curves[0]["agent"] == "cot" and sorted(curves[0]["authenticity"]) == ["0", "1", "2"]
    assert curves[0]["authenticity_avg"]["unit"] == "trajectory"
    assert curves[0]["judge"] == "self (mockllm/chance)"
    assert f"{metrics['authenticity_avg_v']:.3f} [" in out
    trajectories, _ = load_trajectories("v", source="sample", max_iteration=2)
    reference = {t: tally.kappa() for t, tally in copy_previous_tallies(trajectories).items()}
    assert curves[-1]["agent"] == "follower" and curves[-1]["reference_for"] == curves[0]["label"]
    expected = (reference[1] + reference[2]) / 2
    assert curves[-1]["authenticity_avg"]["value"] == pytest.approx(expected)

    exported = tmp_path / "exported.json"
    assert main(["cogbench", "export", log.location, "--out", str(exported)]) == 0
    records = load_records(exported, require_profile=True)
    assert len(records) == 4 * 3
    answers = sum(len(record.questionnaire) for record in records)
    printed = capsys.readouterr().out
    assert f"judge (judge_rationality): 0 of {answers} replies unreadable, 0 answers" in printed
    judged = [item.answers["CoT"].judge for r in records for item in r.questionnaire]
    assert all(verdict and verdict.score in {1, 2, 3, 4, 5} for verdict in judged)
    items = answered_items(records, "CoT")
    scores = score_method("CoT", items, verdicts=recorded_verdicts(items))
    assert scores.authenticity.average == pytest.approx(metrics["authenticity_avg_v"])
    assert scores.authenticity.at(0) == pytest.approx(metrics["authenticity_t0"])
    assert scores.judge is not None  # the export's judge verdicts give the log's Rationality
    assert scores.judge.average == pytest.approx(metrics["rationality_avg_v"])


@pytest.mark.slow
def test_report_keeps_runs_with_different_settings_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["-T", "agent=react", "-T", "source=sample", "-T", "iterations=2", "-T", "judge=false"]
    for feedback in ("rating", "direction"):
        args = [*base, "-T", f"feedback={feedback}", "--log-dir", str(tmp_path / "fb")]
        args += ["--limit", "2"]
        assert main(["cogbench", "chance", *args]) == 0
    for seed in ("1", "2"):
        args = [*base, "--seed", seed, "--log-dir", str(tmp_path / "seeds"), "--limit", "2"]
        assert main(["cogbench", "chance", *args]) == 0
    capsys.readouterr()
    assert main(["cogbench", "report", str(tmp_path / "fb"), "--out", str(tmp_path / "out")]) == 0
    rows = json.loads((tmp_path / "out" / "cogbench_curves.json").read_text())
    agents = [row for row in rows if row["agent"] == "react"]
    feedback = [row["label"].split("feedback=")[1] for row in agents]
    assert sorted(feedback) == ["direction", "rating"]  # two rows, in the logs' time order
    direction = agents[feedback.index("direction")]
    # Each row has its references, on its own two trajectories; direction gets its follower.
    assert [row["label"] for row in rows if row["reference_for"] == direction["label"]] == [
        "follow the direction notes (no model)",
        "copy previous human rating (no model)",
    ]
    assert all(row["authenticity_avg"]["n"] == 2 for row in rows)
    # Two seeds of one identity stay two rows unless pooling is asked for, which is said.
    seeds = tmp_path / "seeds"
    assert main(["cogbench", "report", str(seeds), "--out", str(tmp_path / "s1")]) == 0
    printed = capsys.readouterr().out
    assert "seed=1" in printed and "seed=2" in printed
    assert (
        main(["cogbench", "report", str(seeds), "--pool-seeds", "--out", str(tmp_path / "s2")]) == 0
    )
    assert "pooled 2 runs of one identity" in capsys.readouterr().out


def test_report_without_logs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cogbench", "report", str(tmp_path)]) == 2
    printed = capsys.readouterr()
    assert printed.out == ""
    assert (
        printed.err == f"cog-tasks cogbench report: error: {tmp_path}: no CogBench logs to report\n"
    )


def test_copy_previous_reference_by_hand() -> None:
    trajectories, _ = load_trajectories("a", source="sample", max_iteration=3)
    reference = {t: tally.kappa() for t, tally in copy_previous_tallies(trajectories).items()}
    assert sorted(reference) == [1, 2, 3]
    for iteration in (1, 2, 3):
        human = [r for t in trajectories for r in t.steps[iteration].human_ratings]
        copied = [r for t in trajectories for r in t.steps[iteration - 1].human_ratings]
        assert reference[iteration] == pytest.approx(cohen_kappa(human, copied))


def test_evaluate_checks_the_judge_against_human_rationality(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    class ConstantJudge:
        async def __call__(self, prompt: str, max_tokens: int) -> str:
            return "Score: 4\nReason: plausible."

    monkeypatch.setattr(cogbench_commands, "_judge_generator", lambda name, args: ConstantJudge())
    command = ["cogbench", "evaluate", str(EVAL_A), "--method", "Example", "--judge-model", "x/y"]
    assert main(command) == 0
    out = capsys.readouterr().out
    items = answered_items(load_records(EVAL_A), "Example")
    human = [entry.answer.rationality for entry in items]
    agreement = judge_agreement(human, [4] * len(items))
    assert f"exact agreement {agreement.exact:.3f}" in out
    assert "Spearman n/a" in out  # a constant judge has no rank correlation
    assert "Rationality (judge)" in out and "avg(1-3) 4.000" in out


def test_score_counts_every_unreadable_judge_reply(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Unreadable judge replies are counted over every judged answer, with or without a human
    score, beside the floor-counted mean; answers without reasoning are counted apart."""

    class HedgingJudge:
        async def __call__(self, prompt: str, max_tokens: int) -> str:
            return "Score: 3 or 4"

    raw = json.loads(EVAL_A.read_text())
    for record in raw:
        for item in record["questionnaire"]:
            item["answer"]["Example"]["rationality"] = -1  # no human score anywhere
    raw[0]["questionnaire"][0]["answer"]["Example"]["reason"] = ""
    path = tmp_path / "unscored.json"
    path.write_text(json.dumps(raw))
    monkeypatch.setattr(cogbench_commands, "_judge_generator", lambda name, args: HedgingJudge())
    command = ["cogbench", "score", str(path), "--method", "Example", "--judge-model", "x/y"]
    assert main(command) == 0
    out = capsys.readouterr().out
    answers = sum(len(record["questionnaire"]) for record in raw)
    assert f"judge replies unreadable {answers - 1} of {answers - 1} asked" in out
    assert "answers without reasoning 1" in out
    assert "Rationality (judge)      avg(1-3) 1.000" in out  # the floor, shown with its counts
    readable = next(line for line in out.splitlines() if "readable scores only" in line)
    assert "avg(-) n/a" in readable  # no readable score at all
    trajectories = len({(r["topic"], r["profile"]["Name"]) for r in raw})
    assert f"judge_invalid {trajectories}]" in out


def test_score_reads_the_judge_verdicts_an_export_keeps(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Without --judge-model, score reads judge_rationality: labelled, failures at the floor and
    counted, an answer without a verdict left out and counted; a foreign value is refused."""
    raw = json.loads(EVAL_A.read_text())
    for record in raw:
        for item in record["questionnaire"]:
            item["answer"]["Example"]["judge_rationality"] = 4
    # Iterations 1, 2, 3 of the first trajectory: unreadable, no reasoning, not judged.
    for record, value in zip(raw[1:4], ("unreadable", "no reasoning", -1), strict=True):
        record["questionnaire"][0]["answer"]["Example"]["judge_rationality"] = value
    path = tmp_path / "exported.json"
    path.write_text(json.dumps(raw))
    assert main(["cogbench", "score", str(path), "--method", "Example"]) == 0
    out = capsys.readouterr().out
    # Iterations 1 and 2: 19 fours and a 1 of 20; iteration 3: 19 fours.
    average = (3.85 + 3.85 + 4.0) / 3
    assert f"Rationality (judge)      avg(1-3) {average:.3f}  5th n/a  10th n/a  0th 4.000" in out
    assert "  readable scores only   avg(1-3) 4.000" in out
    assert "  judge: the verdicts in exported.json (judge_rationality)" in out
    answers = sum(len(record["questionnaire"]) for record in raw)
    assert f"judge replies unreadable 1 of {answers - 2} asked" in out
    assert "answers without reasoning 1: each counted as 1 above" in out
    assert "answers without a judge verdict 1: left out above" in out
    assert f"on {answers - 2} answers with a human score (1 of them without a readable" in out

    for record in raw:  # a file not judged (export of a run without a judge): no judge lines
        for item in record["questionnaire"]:
            item["answer"]["Example"]["judge_rationality"] = -1
    path.write_text(json.dumps(raw))
    assert main(["cogbench", "score", str(path), "--method", "Example"]) == 0
    assert "Rationality (judge)" not in capsys.readouterr().out

    raw[0]["questionnaire"][0]["answer"]["Example"]["judge_rationality"] = "4/5"
    path.write_text(json.dumps(raw))
    assert main(["cogbench", "score", str(path), "--method", "Example"]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert "exported.json" in line and "judge_rationality" in line and "'4/5'" in line


def test_export_counts_the_judge_verdicts_it_writes() -> None:
    raw = json.loads(EVAL_A.read_text())
    answers = [item["answer"]["Example"] for record in raw for item in record["questionnaire"]]
    for answer in answers:
        answer["judge_rationality"] = -1
    assert cogbench_commands._judge_counts(raw) == "judge: none (judge_rationality -1 throughout)"
    for answer, value in zip(
        answers, [3, "unreadable", "no reasoning", "unreadable"], strict=False
    ):
        answer["judge_rationality"] = value  # the first four answers; the rest stay -1
    assert cogbench_commands._judge_counts(raw) == (
        "judge (judge_rationality): 2 of 3 replies unreadable, 1 answers without reasoning"
    )


def test_evaluate_per_question_kappa(capsys: pytest.CaptureFixture[str]) -> None:
    command = ["cogbench", "evaluate", str(EVAL_A), "--method", "Example", "--kappa"]
    assert main([*command, "per_question"]) == 0
    out = capsys.readouterr().out
    records = load_records(EVAL_A)
    by_question: dict[str, tuple[list, list]] = {}
    for record in records:
        if record.iteration == 0:
            for item in record.questionnaire:
                human, agent = by_question.setdefault(item.question, ([], []))
                human.append(item.human_rating)
                agent.append(item.answers["Example"].rating)
    kappas = [k for h, a in by_question.values() if (k := cohen_kappa(h, a)) is not None]
    assert f"0th {sum(kappas) / len(kappas):.3f}" in out


def test_agreement_command(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["cogbench", "agreement", str(EVAL_A), f"{EVAL_A}:Example"]) == 0
    out = capsys.readouterr().out
    records = load_records(EVAL_A)
    rows = [
        [item.human_rating, item.answers["Example"].rating]
        for record in records
        for item in record.questionnaire
    ]
    assert f"Fleiss kappa: {fleiss_kappa(rows):.3f}" in out
    assert f"mean pairwise Spearman: {mean_pairwise_spearman(rows):.3f}" in out
    negative = sum(1 for human, _ in rows if human <= 2)
    neutral = sum(1 for human, _ in rows if human == 3)
    assert f"eval_cogbench_a.json:human_rating: {negative} / {neutral} / " in out
    assert f"items scored by all: {len(rows)} (left out, unscored by some rater: 0)" in out
    assert main(["cogbench", "agreement", str(EVAL_A)]) == 2
    assert "at least two raters" in capsys.readouterr().err
    assert main(["cogbench", "agreement", str(EVAL_A), str(tmp_path / "none.json")]) == 2
    assert "none.json" in capsys.readouterr().err


def test_agreement_labels_every_rater_apart(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Files of one name in two folders get labels that differ, each with its own counts."""
    raw = json.loads(EVAL_A.read_text())
    raw[0]["questionnaire"][0]["answer"]["Example"]["rating"] = "no idea"
    for folder in ("first", "second"):
        (tmp_path / folder).mkdir()
        # Not byte-identical: a copy of a rater's file is the same rater, refused.
        (tmp_path / folder / "eval.json").write_text(json.dumps(raw, indent=len(folder)))
    first, second = (tmp_path / folder / "eval.json" for folder in ("first", "second"))
    specs = [f"{first}:Example", f"{second}:Example", str(first)]
    assert main(["cogbench", "agreement", *specs]) == 0
    out = capsys.readouterr().out
    labels = ["first/eval.json:Example", "second/eval.json:Example", "first/eval.json:human_rating"]
    assert f"raters: {', '.join(labels)} (ratings)" in out
    for label in labels:  # each rater keeps its own tallies and coverage line
        assert sum(line.startswith(f"  {label}: ") for line in out.splitlines()) == 2
    assert "second/eval.json:Example: replies 1 invalid" in out
    # FILE:human_rating names the same ratings as FILE: refused, not shown twice.
    assert main(["cogbench", "agreement", str(first), f"{first}:human_rating"]) == 2
    assert "the same ratings as" in capsys.readouterr().err
    # A byte copy of a rater's file is that rater: refused, naming both.
    copy = tmp_path / "copy_of_first.json"
    copy.write_bytes(first.read_bytes())
    assert main(["cogbench", "agreement", str(first), str(copy)]) == 2
    err = capsys.readouterr().err
    assert "same file content" in err and str(first) in err


def test_rationality_agreement(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Fleiss kappa of two annotators' Rationality scores; an unscored item is left out."""
    raw = json.loads(EVAL_A.read_text())
    raw[0]["questionnaire"][0]["answer"]["Example"]["rationality"] = -1
    for record in raw[1:]:
        for item in record["questionnaire"]:
            item["answer"]["Example"]["rationality"] = 6 - item["answer"]["Example"]["rationality"]
    second = tmp_path / "annotator2.json"
    second.write_text(json.dumps(raw))
    specs = [f"{EVAL_A}:Example", f"{second}:Example"]
    assert main(["cogbench", "agreement", "--rationality", *specs]) == 0
    out = capsys.readouterr().out
    first = [
        i.answers["Example"].rationality for r in load_records(EVAL_A) for i in r.questionnaire
    ]
    other = [
        i.answers["Example"].rationality for r in load_records(second) for i in r.questionnaire
    ]
    rows = [[a, b] for a, b in zip(first, other, strict=True) if b is not None]
    assert "(rationality)" in out and f"Fleiss kappa: {fleiss_kappa(rows):.3f}" in out
    assert f"items scored by all: {len(rows)} (left out, unscored by some rater: 1)" in out
    assert "annotator2.json:Example: replies 1 invalid" in out  # the rater that left it out
    assert "eval_cogbench_a.json:Example: every item scored" in out
    lacking = raw.pop()
    second.write_text(json.dumps(raw))
    assert main(["cogbench", "agreement", "--rationality", *specs]) == 0
    items = len(lacking["questionnaire"])
    partial = rf"annotator2\.json:Example: PARTIAL: 1 \w+ incomplete \({items} of their declared"
    assert re.search(partial, capsys.readouterr().out)  # the record it lacks, named
    assert main(["cogbench", "agreement", "--rationality", str(EVAL_A), specs[1]]) == 2
    assert "needs FILE:METHOD raters" in capsys.readouterr().err


def test_export_of_a_file_that_is_not_a_cogbench_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    notes = tmp_path / "notes.json"
    notes.write_text('{"results": {}}', encoding="utf-8")
    assert main(["cogbench", "export", str(notes), "--out", str(tmp_path / "out.json")]) == 2
    (line,) = capsys.readouterr().err.splitlines()
    assert line.endswith(f"{notes}: not an Inspect log (Unable to read log file: {notes})")
    assert not (tmp_path / "out.json").exists()


def test_score_refuses_duplicate_and_empty_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sample = sample_dir() / "english" / "eval_cogbench_a.json"
    records = json.loads(sample.read_text())
    doubled = tmp_path / "doubled.json"
    doubled.write_text(json.dumps([*records, records[3]]))
    assert main(["cogbench", "score", str(doubled), "--method", "CoT"]) == 2
    error = capsys.readouterr().err.strip()
    assert (
        f"doubled.json: record {len(records)} repeats record 3" in error
        and len(error.splitlines()) == 1
    )
    empty = tmp_path / "empty.json"
    empty.write_text("[]")
    assert main(["cogbench", "evaluate", str(empty), "--method", "CoT"]) == 2
    assert "empty.json: holds no records" in capsys.readouterr().err
