import re
from pathlib import Path

import pytest
from inspect_ai import eval as inspect_eval
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage, GenerateConfig, ModelOutput, ModelUsage, get_model

from cog_tasks.cogbench.inspect import cogbench
from cog_tasks.cogbench.inspect.solver import ModelGenerator, hit_token_limit
from cog_tasks.cogbench.loader import load_trajectories
from cog_tasks.cogbench.metrics import cohen_kappa, pooled_tallies
from cog_tasks.common.scripted import ScriptedReplies

TOPIC = "Market Analysis"
# Scripted ratings per question of the topic; None = an unparseable reply.
SCRIPTED = [2, 3, None, 5, 4]


class ScriptedRater(ScriptedReplies):
    """``custom_outputs`` for mockllm: exact replies chosen from the prompt text."""

    model_name = "mockllm/model"

    def __init__(self) -> None:
        self.prompts: list[str] = []
        questions, _ = load_trajectories("a", source="sample", topics=[TOPIC])
        self.ratings = dict(zip(questions[0].steps[0].questions, SCRIPTED, strict=True))

    def reply(self, prompt: str) -> str:
        if prompt.endswith("Reason: <one sentence>"):
            return "no idea" if '"I cannot decide."' in prompt else "Score: 4"
        rating = self.ratings[re.search(r'Statement: "(.*)"', prompt).group(1)]
        return "I cannot decide." if rating is None else f"Thoughts: scripted.\nRating: {rating}"

    def reply_to(self, messages: list[ChatMessage], config: GenerateConfig) -> str:
        prompt = messages[-1].text
        self.prompts.append(prompt)
        return self.reply(prompt)


@pytest.fixture(scope="module")
def scripted_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[EvalLog, ScriptedRater, Path]:
    agent_replies, judge_replies = ScriptedRater(), ScriptedRater()
    log_dir = tmp_path_factory.mktemp("cogbench_logs")
    [log] = inspect_eval(
        cogbench(agent="react", source="sample", topics=TOPIC, iterations=1),
        model=get_model("mockllm/model", custom_outputs=agent_replies),
        model_roles={"judge": get_model("mockllm/model", custom_outputs=judge_replies)},
        epochs=2,
        log_dir=str(log_dir),
        display="none",
    )
    assert log.status == "success", log.error
    return log, agent_replies, log_dir


@pytest.mark.slow
def test_scripted_answers_give_exact_pooled_metrics(scripted_run) -> None:
    log, agent_replies, _ = scripted_run
    trajectories, _ = load_trajectories("a", source="sample", topics=[TOPIC], max_iteration=1)
    metrics = {name: m.value for name, m in log.results.scores[0].metrics.items()}
    expected = {
        iteration: cohen_kappa(
            [r for t in trajectories for r in t.steps[iteration].human_ratings],
            SCRIPTED * len(trajectories),
        )
        for iteration in (0, 1)
    }
    assert metrics["authenticity_t0"] == pytest.approx(expected[0])
    assert metrics["authenticity_avg_a"] == pytest.approx(expected[1])  # only iteration 1 here
    assert expected[0] != pytest.approx(expected[1])
    assert metrics["invalid_rate_a"] == pytest.approx(0.2)
    # four answers judged 4, the unparseable one gets an unreadable verdict that counts as 1
    assert metrics["rationality_avg_a"] == pytest.approx(17 / 5)
    assert metrics["rationality_readable_avg"] == pytest.approx(4.0)
    assert metrics["judge_invalid_rate_a"] == pytest.approx(0.2)
    assert metrics["no_reasoning_rate"] == 0.0
    # the judge role got every judge prompt, the agent model none
    assert not any(p.endswith("Reason: <one sentence>") for p in agent_replies.prompts)


@pytest.mark.slow
def test_trajectory_is_kept_per_iteration(scripted_run) -> None:
    log, agent_replies, _ = scripted_run
    assert len(log.samples) == 4  # 2 profiles x 2 epochs
    sample = log.samples[0]
    iterations = sample.store["cogbench_iterations"]
    assert [entry["iteration"] for entry in iterations] == [0, 1]
    first = iterations[1]["answers"][0]
    assert first["rating"] == 2 and first["reason"] == "scripted."
    assert first["human_rating"] == sample.metadata["steps"][1]["human_ratings"][0]
    assert iterations[1]["answers"][2]["rating"] is None
    assert sample.scores["cogbench_scorer"].value["t1_invalid"] == 1
    metadata = sample.scores["cogbench_scorer"].metadata
    assert metadata["rationality"][1]["scores"][2] == "unreadable"
    # 2 iterations x 5 answers judged, the unparseable one unreadable in each
    assert (metadata["judge_asked"], metadata["judge_invalid"], metadata["no_reasoning"]) == (
        10,
        2,
        0,
    )
    assert metadata["truncated_replies"] == 0 and metadata["distill_failed"] == 0
    assert "t1: agent 2 3 ? 5 4" in sample.output.completion
    # ReAct sees feedback as an observation (4 samples x 5 questions), and the
    # unreadable answer is asked again 3 times (default retries) in each sample;
    # the default feedback is the paper's: last round's human rating
    observed = [p for p in agent_replies.prompts if "Observation from last round" in p]
    assert len(observed) == 4 * 5 + 4 * 3
    assert all("people with your profile rated it" in p for p in observed)


def test_unknown_agent_is_rejected() -> None:
    with pytest.raises(ValueError, match="agent must be one of"):
        cogbench(agent="gpt", source="sample")


@pytest.mark.parametrize(
    ("argument", "message"),
    [
        ({"iterations": "x"}, "iterations must be an integer >= 1"),
        ({"iterations": 0}, "iterations must be an integer >= 1"),
        ({"recall_k": -3}, "recall_k must be an integer >= 1"),
        ({"forgetting_rate": 1.5}, "forgetting_rate must be a number from 0 to 1"),
        ({"self_judge": "yes"}, "self_judge must be true or false"),
        ({"feedback": "hint"}, "feedback must be one of"),
        ({"explanation": "long"}, "explanation must be one of"),
        ({"max_tokens": True}, "max_tokens must be an integer"),
    ],
)
def test_task_parameters_are_checked_at_build(argument: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        cogbench(source="sample", **argument)


@pytest.mark.slow
def test_a_run_without_a_judge_is_refused(tmp_path) -> None:
    [log] = inspect_eval(
        cogbench(agent="cot", source="sample", iterations=1),
        model=get_model("mockllm/model", custom_outputs=ScriptedRater()),
        limit=1,
        log_dir=str(tmp_path),
        display="none",
    )
    assert log.status == "error" and "needs a judge" in log.error.message


@pytest.mark.slow
def test_smollm2_end_to_end_cot_and_coggpt(smollm2_path: Path, tmp_path: Path) -> None:
    model = get_model("hf/smollm2", model_path=str(smollm2_path), do_sample=False)
    # the judge is covered exactly with scripted replies above; here it would double the cost
    settings = dict(source="sample", iterations=1, judge=False, max_tokens=16, memory_tokens=32)
    logs = inspect_eval(
        [cogbench(agent="cot", **settings), cogbench(agent="coggpt", **settings)],
        model=model,
        sample_id="a-outdoor_adventures-mara_lindqvist",
        max_tasks=2,
        log_dir=str(tmp_path),
        display="none",
    )
    assert [log.status for log in logs] == ["success", "success"]
    for log in logs:
        metrics = log.results.scores[0].metrics
        value = log.samples[0].scores["cogbench_scorer"].value
        assert [value[f"t{t}_pairs"] for t in (0, 1)] == [5, 5]
        ratings, _ = pooled_tallies([value])
        kappas = {t: ratings[t].kappa() for t in (0, 1)}
        # κ is undefined (None) exactly where no rating of the iteration was valid
        assert all((kappas[t] is None) == (ratings[t].invalid == 5) for t in kappas)
        # the log holds a κ metric exactly where κ is defined (never a NaN)
        assert ("authenticity_t0" in metrics) == (kappas[0] is not None)
        later = [kappa for t, kappa in kappas.items() if t >= 1 and kappa is not None]
        assert ("authenticity_avg_a" in metrics) == bool(later)
        if later:
            assert metrics["authenticity_avg_a"].value == pytest.approx(sum(later) / len(later))
        kappa_metrics = [m for name, m in metrics.items() if name.startswith("authenticity")]
        assert all(-1.0 <= metric.value <= 1.0 for metric in kappa_metrics)
        invalid = sum(ratings[t].invalid for t in kappas) / 10
        assert metrics["invalid_rate_a"].value == pytest.approx(invalid)
        iterations = log.samples[0].store["cogbench_iterations"]
        assert [len(entry["answers"]) for entry in iterations] == [5, 5]
    perception = logs[1].samples[0].store["cogbench_iterations"][1]["perception"]
    assert perception["stm_chunks"] == 1
    assert perception["ltm_size"] == len(perception["stored"])
    # a failed distillation (not the JSON list after the retries) stores nothing
    assert perception["distill_failed"] == 0 or perception["stored"] == []
    iterations = logs[1].samples[0].store["cogbench_iterations"]
    metadata = logs[1].samples[0].scores["cogbench_scorer"].metadata
    failed = sum(entry["perception"].get("distill_failed", 0) for entry in iterations)
    assert metadata["distill_failed"] == failed
    # 16-token answers are cut, and every cut reply is counted in the score metadata
    assert metadata["truncated_replies"] == sum(len(entry["truncated"]) for entry in iterations)
    assert metadata["truncated_by_step"]["answer"] > 0


def test_a_reply_at_its_token_limit_is_known_with_or_without_a_stop_reason() -> None:
    def output(stop_reason: str, used: int) -> ModelOutput:
        reply = ModelOutput.from_content("mockllm/model", "Thoughts: I")
        reply.choices[0].stop_reason = stop_reason
        reply.usage = ModelUsage(input_tokens=5, output_tokens=used, total_tokens=5 + used)
        return reply

    assert hit_token_limit(output("max_tokens", 3), 16)
    assert not hit_token_limit(output("stop", 16), 16)
    assert hit_token_limit(output("unknown", 16), 16)  # the hf provider reports no reason
    assert not hit_token_limit(output("unknown", 15), 16)


def test_model_generator_says_when_decoding_is_greedy() -> None:
    assert ModelGenerator(get_model("mockllm/model", config=GenerateConfig(temperature=0))).greedy
    assert ModelGenerator(get_model("mockllm/model")).greedy  # the authors' default
    sampled = get_model("mockllm/model", config=GenerateConfig(temperature=0.7))
    assert not ModelGenerator(sampled).greedy


@pytest.mark.slow
def test_the_agent_and_the_judge_decode_greedily_unless_told(scripted_run) -> None:
    log, _, _ = scripted_run
    calls = [e for s in log.samples for e in s.events if e.event == "model"]
    judged = [c for c in calls if c.role == "judge"]
    assert judged and len(judged) < len(calls)
    # The authors' temperature 0 with no --temperature; the judge's by its own role config.
    assert {c.config.temperature for c in calls} == {0}
