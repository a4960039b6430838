"""``cog-tasks profile``: a chance profile end to end, and the paired comparison of two."""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from cog_tasks.benchmarks import REGISTRY
from cog_tasks.cli import main
from cog_tasks.commands.profile import (
    PRESETS,
    ModelSpec,
    check_roles,
    compare_profiles,
    step_roles,
    with_chance,
)
from cog_tasks.common.stats import SMALL_N


@pytest.fixture(scope="module")
def chance_profiles(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Two smoke chance profiles with seeds 0 and 1."""
    folders = []
    for seed in (0, 1):
        out = tmp_path_factory.mktemp(f"chance{seed}")
        code = main(
            [
                "profile",
                "run",
                "--model",
                "chance",
                "--preset",
                "smoke",
                "--seed",
                str(seed),
                "--out",
                str(out),
            ]
        )
        assert code == 0
        folders.append(out)
    return folders[0], folders[1]


@pytest.mark.slow
def test_chance_profile_has_every_benchmark_with_intervals(chance_profiles) -> None:
    profile = json.loads((chance_profiles[0] / "profile.json").read_text())
    assert {row["benchmark"] for row in profile["rows"]} == set(REGISTRY)
    for row in profile["rows"]:
        if row["method"] == "none":  # too few units, or all alike: no interval, said so
            assert row["n"] < SMALL_N or row["reason"].endswith("all alike")
            assert row["ci_low"] is None and row["ci_high"] is None
            continue
        assert row["ci_low"] <= row["value"] <= row["ci_high"], row
        assert row["n"] > 0 and row["unit"] and row["run"]["model"]
    assert {row["benchmark"] for row in profile["paper"]} == set(REGISTRY)
    # CogLM reads through the results model: 20 of each ability's items is partial.
    coglm = [row for row in profile["rows"] if row["benchmark"] == "coglm"]
    assert all(row["coverage"]["missing"] == 1020 for row in coglm)
    assert profile["identity"]["preset"] == "smoke" and profile["identity"]["model"] == "chance"
    markdown = (chance_profiles[0] / "profile.md").read_text()
    assert "| coglm |" in markdown and "## Published values for the same measures" in markdown
    assert "PARTIAL: 1020 of 1220 items missing" in markdown
    # A chance profile's chance column is its own value; every row says its scale.
    assert all(row["chance"]["value"] == row["value"] for row in profile["rows"])
    assert {row["scale"] for row in coglm} == {"calibrated", "years"}
    assert (chance_profiles[0] / "profile.png").stat().st_size > 10_000


@pytest.mark.slow
def test_two_chance_profiles_pair_on_shared_units(chance_profiles, tmp_path: Path, capsys) -> None:
    first, second = (json.loads((f / "profile.json").read_text()) for f in chance_profiles)
    comparisons = compare_profiles(first, second)
    paired = [c for c in comparisons if c.difference is not None]
    assert len(paired) >= 20
    by_label = {f"{r['benchmark']} {r['measure']}": r for r in first["rows"]}
    for comparison in paired:
        # The same units in both (seeds differ, items do not): the paired value is the gap.
        if comparison.first is None or comparison.second is None:  # κ undefined: no valid rating
            assert math.isnan(comparison.difference.value), comparison.label
        else:
            gap = comparison.first - comparison.second
            assert comparison.difference.value == pytest.approx(gap), comparison.label
        assert comparison.difference.n == by_label[comparison.label]["n"]
    # Every row pairs, κ and the cognitive age through their statistics: none is dropped.
    assert len(comparisons) == len(first["rows"]) == len(paired)
    assert {"cogbench authenticity_avg_a", "coglm cognitive_age"} <= {c.label for c in paired}
    # A profile against itself: every difference 0, inside its interval, nothing marked.
    for comparison in compare_profiles(first, first):
        if comparison.difference is not None:
            assert comparison.difference.value == 0.0
            assert not comparison.difference.excludes(0.0)
    assert main(["profile", "compare", str(chance_profiles[0]), str(chance_profiles[1])]) == 0
    out = capsys.readouterr().out
    assert f"{len(paired)} rows tested; {len(comparisons) - len(paired)} not paired" in out
    # Below 10 units a difference is never starred (3 Number Guessing games).
    hits = next(line for line in out.splitlines() if "number_guessing_hit_rate:" in line)
    assert "n=3" in hits and not hits.rstrip().endswith("*")
    # One profile given twice is refused by content, a copy included.
    copy = tmp_path / "copy"
    shutil.copytree(chance_profiles[0], copy)
    assert main(["profile", "compare", str(chance_profiles[0]), str(copy)]) == 2
    assert "the same content as" in capsys.readouterr().err
    # Three profiles: one table with a column each, then each minus the base (--base 1).
    relabelled = json.loads((copy / "profile.json").read_text())
    relabelled["identity"]["seed"] = 2
    (copy / "profile.json").write_text(json.dumps(relabelled))
    three = [str(chance_profiles[0]), str(chance_profiles[1]), str(copy)]
    assert main(["profile", "compare", *three, "--base", "1"]) == 0
    out = capsys.readouterr().out
    header = out.splitlines()[0]
    assert header.count("chance (") == 3 and out.count("minus chance") == 2
    assert main(["profile", "compare", *three, "--base", "4"]) == 2
    assert "--base must be from 1 to 3" in capsys.readouterr().err


@pytest.mark.slow
def test_profile_run_refuses_an_out_of_another_identity_or_in_use(
    chance_profiles, tmp_path: Path, capsys
) -> None:
    arguments = ["profile", "run", "--model", "chance", "--preset", "smoke"]
    assert main([*arguments, "--seed", "5", "--out", str(chance_profiles[0])]) == 2
    error = capsys.readouterr().err
    assert "holds the profile of" in error and '"seed": 0' in error and '"seed": 5' in error
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / ".profile.lock").write_text(str(os.getpid()))
    assert main([*arguments, "--out", str(busy)]) == 2
    assert f"{busy} is in use by another profile run (process {os.getpid()})" in (
        capsys.readouterr().err
    )


def test_compare_refuses_other_presets_and_pairs_only_alike_protocols(tmp_path: Path) -> None:
    def profile(model: str, preset: str, max_tokens: str) -> dict:
        run = {"task": "t@1", "model": model, "roles": {}, "arguments": {"x": max_tokens}}
        row = {"benchmark": "b", "measure": "m", "value": 0.5, "n": 12, "unit": "item"}
        units = {f"u{i}": float(i % 2) for i in range(12)}
        return {
            "model": model,
            "preset": preset,
            "identity": {"preset": preset, "max_tokens": None},
            "rows": [{**row, "run": run, "units": units}],
        }

    for name, data in {"a": profile("m1", "smoke", "1"), "b": profile("m2", "full", "1")}.items():
        (tmp_path / f"{name}.json").write_text(json.dumps(data))
    assert main(["profile", "compare", str(tmp_path / "a.json"), str(tmp_path / "b.json")]) == 2
    # One task argument differs: the row is refused, naming it, unless asked.
    (comparison,) = compare_profiles(profile("m1", "s", "1"), profile("m2", "s", "2"))
    assert comparison.difference is None and comparison.reason == "runs differ in x: 1 vs 2"
    (allowed,) = compare_profiles(
        profile("m1", "s", "1"), profile("m2", "s", "2"), allow_different=True
    )
    assert allowed.difference is not None and allowed.reason.startswith("PAIRED DESPITE x")


def test_compare_refuses_a_file_that_is_not_a_profile(tmp_path: Path, capsys) -> None:
    bad = tmp_path / "profile.json"
    bad.write_text('{"model": "x"}')
    assert main(["profile", "compare", str(bad), str(bad)]) == 2
    assert f"{bad}: not a profile.json" in capsys.readouterr().err
    bad.write_text('{"model": "x", "rows": [{"benchmark": "b"}]}')
    assert main(["profile", "compare", str(bad), str(bad)]) == 2
    assert f"{bad}: row 1 is not a profile row" in capsys.readouterr().err


def test_with_chance_puts_chance_on_the_same_rows_only() -> None:
    def row(measure: str, value: float) -> dict:
        run = {"task": "t@1", "model": "m", "roles": {}, "arguments": {}}
        return {
            "benchmark": "b",
            "measure": measure,
            "value": value,
            "ci_low": 0.0,
            "ci_high": 1.0,
            "n": 12,
            "run": run,
        }

    rows = with_chance([row("m1", 0.9), row("m2", 0.8)], [row("m1", 0.25)])
    assert rows[0]["chance"] == {"value": 0.25, "ci_low": 0.0, "ci_high": 1.0, "n": 12}
    assert rows[1]["chance"] is None and rows[1]["value"] == 0.8


DRAWN_ROWS = [  # (row or chance entry, what the figures draw of it)
    ({"value": 0.5, "ci_low": 0.4, "ci_high": 0.6}, (0.5, 0.4, 0.6)),
    ({"value": 0.5, "ci_low": None, "ci_high": None}, (0.5, 0.5, 0.5)),  # no interval: a point
    ({"value": None, "ci_low": None, "ci_high": None}, None),  # undefined (kappa, no ratings)
    ({"value": -0.2, "ci_low": -0.9, "ci_high": None}, (-0.2, -0.9, -0.2)),
    (None, None),  # no chance entry on the row
    ({}, None),
]


@pytest.mark.parametrize(("entry", "drawn"), DRAWN_ROWS)
def test_every_figure_draws_values_through_one_accessor(
    entry: dict | None, drawn: tuple | None, tmp_path: Path
) -> None:
    """``drawable`` is what both figures draw; any entry, as a row or as its chance, draws."""
    from cog_tasks.commands.profile_views import draw_compare, draw_profile, drawable

    assert drawable(entry) == drawn
    run = {"task": "cogbench@1", "model": "m", "roles": {}, "arguments": {}}
    base = {"benchmark": "cogbench", "measure": "kappa", "scale": "kappa", "n": 12, "run": run}
    rows = [{**base, "value": 0.1, "ci_low": 0.0, "ci_high": 0.2, **(entry or {}), "chance": entry}]
    profile = {"rows": rows, "paper": [], "model": "m", "preset": "smoke"}
    assert draw_profile(profile, tmp_path / "p.png").stat().st_size > 1_000
    assert len(draw_compare(["a", "b"], [profile, profile])) > 1_000


def _chromium() -> str | None:
    return shutil.which("chromium-headless-shell") or shutil.which("chromium")


@pytest.mark.slow
def test_profile_page_renders_its_rows_in_headless_chromium(chance_profiles) -> None:
    page = chance_profiles[0] / "profile.html"
    text = page.read_text(encoding="utf-8")
    # One self-contained file: no address outside the page itself.
    assert not re.search(r"""(src|href)=["'](?!data:|#)""", text)
    assert 'src="data:image/png;base64,' in text
    browser = _chromium()
    if browser is None:
        pytest.skip("no headless Chromium (apt-get install chromium-headless-shell)")
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
    flags += ["--disable-component-update", "--disable-sync", "--no-first-run"]
    dom = subprocess.run(
        [browser, *flags, "--dump-dom", page.as_uri()],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    rows = re.findall(r"<tr><td>(\w+)</td><td>(\w+)</td>", dom)
    profile = json.loads((chance_profiles[0] / "profile.json").read_text())
    assert [(r["benchmark"], r["measure"]) for r in profile["rows"]] == rows[: len(profile["rows"])]
    assert "Run identities" in dom and "Published values for the same measures" in dom


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_step_fits_its_task_and_roles(name: str) -> None:
    """Each step's arguments bind to its task's signature; a judged step needs the judge."""
    import inspect as introspection
    from importlib import import_module

    preset = PRESETS[name]
    for step in preset.steps:
        spec = REGISTRY[step.benchmark]
        assert step.task in spec.tasks
        factory = getattr(import_module(spec.task_module), step.task)
        introspection.signature(factory).bind(**step.task_args)
        assert step.epochs >= 1 and (step.limit is None or step.limit >= 1)
    judged = [
        step.task for step in preset.steps if step.task in REGISTRY[step.benchmark].judged_tasks
    ]
    rated = [
        s.task
        for s in preset.steps
        if REGISTRY[s.benchmark].self_judges and s.task_args.get("judge") is not False
    ]
    if rated:  # a judged measure needs a judge, or the model judging itself only when asked
        with pytest.raises(
            ValueError, match="need a judge: pass --model-role judge=MODEL, or --self-judge"
        ):
            check_roles(ModelSpec("openai/gpt-4o"), preset)
    plain = ModelSpec("openai/gpt-4o", self_judge=True)
    if judged:
        with pytest.raises(ValueError, match=f"preset {name} needs a judge for {judged[0]}"):
            check_roles(plain, preset)
    else:
        check_roles(plain, preset)
    # One judge name: --model-role judge=... reaches a task asking for its grader, and back.
    judge = ModelSpec("openai/gpt-4o", roles={"judge": "openai/gpt-4o-mini"})
    assert step_roles(judge) == {"judge": "openai/gpt-4o-mini", "grader": "openai/gpt-4o-mini"}
    check_roles(judge, preset)
    assert step_roles(ModelSpec("m", roles={"grader": "j"}))["judge"] == "j"


def test_a_token_never_reaches_the_lm_eval_command_line_or_the_identity(tmp_path: Path) -> None:
    from cog_tasks.commands.profile import (
        _coglm_command,
        _lm_eval_environment,
        profile_identity,
    )

    fake = "hf_FAKE0123456789"
    model = ModelSpec("hf/m", args={"model_path": "/w", "hf_token": fake, "max_tokens": "8"})
    command = " ".join(_coglm_command(model, 20, tmp_path))
    assert fake not in command and "pretrained=/w,max_tokens=8" in command
    assert _lm_eval_environment(model)["HF_TOKEN"] == fake
    identity = json.dumps(profile_identity(model, PRESETS["smoke"]))
    assert fake not in identity and '"max_tokens": "8"' in identity
    with pytest.raises(ValueError, match="-M api_key: a secret"):
        _lm_eval_environment(ModelSpec("hf/m", args={"api_key": "k"}))


def test_dry_run_counts_requests_and_tokens_and_runs_nothing(tmp_path: Path, capsys) -> None:
    out = tmp_path / "never"
    arguments = ["profile", "run", "--model", "openai/gpt-4o", "--preset", "smoke"]
    arguments += ["--out", str(out), "--dry-run", "--price-in", "2", "--price-out", "8"]
    assert main(arguments) == 0
    lines = capsys.readouterr().out.splitlines()
    assert not out.exists()
    rows = {line.split()[0]: line for line in lines[1:]}
    # 20 items of each of the 10 abilities, one chat request each.
    assert "200 samples      200 requests" in rows["coglm_chat"]
    # Three one-game Number Guessing levels of 3 rounds: a request a round.
    assert "3 samples        9 requests" in rows["egosocial_number_guessing"]
    total = rows["total"].split()
    requests = sum(int(line.split()[3]) for line in lines[1:-1])
    assert int(total[3]) == requests and total[-1].startswith("$")


def _stored_coglm_run(out: Path, spec: ModelSpec, weights: str) -> None:
    """A finished CogLM lm-eval run of ``weights`` where ``profile run`` keeps ``spec``'s."""
    from coglm_lm_eval_files import write_lm_eval_run

    from cog_tasks.coglm.abilities import ABILITIES
    from cog_tasks.coglm.lm_eval.results import FAMILY_VERSION
    from cog_tasks.commands.profile import _setting_digest
    from cog_tasks.common.secrets import redact

    digest = _setting_digest(spec.name, redact(spec.args), 20, spec.seed, FAMILY_VERSION)
    outcomes = {ability.code: [True, False] * 10 for ability in ABILITIES}
    write_lm_eval_run(out / f"coglm_lm_eval-{digest}" / "m", outcomes, model=weights, limit=20)


def test_profile_reuses_a_stored_coglm_run_only_of_its_own_identity(tmp_path: Path) -> None:
    """The CogLM step's folder is keyed by model, arguments, items, seed and task version,
    and what it finds there is checked against them (no lm-eval is started here)."""
    from cog_tasks.commands.profile import ProfileStepError, _run_lm_eval

    (step,) = REGISTRY["coglm"].presets["smoke"]

    model = ModelSpec("hf/tiny", {"model_path": "/m/tiny"})
    _stored_coglm_run(tmp_path / "same", model, "/m/tiny")
    headlines = _run_lm_eval(model, step, tmp_path / "same")
    overall = next(h for h in headlines if h.measure == "overall")
    assert overall.interval.n == 200 and overall.run.task.startswith("coglm@")

    _stored_coglm_run(tmp_path / "weights", model, "/m/other")
    refused = r"stored CogLM run .*'/m/other'.* is not this step's"
    with pytest.raises(ProfileStepError, match=refused):
        _run_lm_eval(model, step, tmp_path / "weights")


def test_the_cpu_preset_has_enough_units_and_every_cogeval_task_at_temperature_0() -> None:
    """Issue 50's sizing: 30 units or more per step (CogBench's fixture set has 4), and every
    condition of CogEval's paper design on a line, a tree and a star, greedy."""
    from cog_tasks.cogeval.generator import generate_items
    from cog_tasks.commands.profile import _task

    paper = {(item.condition, item.graph) for item in generate_items(design="paper")}

    steps = [step for spec in REGISTRY.values() for step in spec.presets["cpu"]]
    assert {step.benchmark for step in steps} == set(REGISTRY)
    for step in steps:
        samples = list(_task(step).dataset)[: step.limit]
        assert len(samples) >= (2 if step.benchmark == "cogbench" else 30), step.task
        if step.benchmark == "cogeval":
            seen = {(s.metadata["condition"], s.metadata["graph"]) for s in samples}  # type: ignore[index]
            assert {condition for condition, _ in seen} == {condition for condition, _ in paper}
            assert {graph[:3] for _, graph in seen} == {"n7t", "n13", "n15"}
            assert {s.metadata["temperature"] for s in samples} == {0.0}  # type: ignore[index]


def test_a_local_model_that_will_sample_is_named_before_the_run() -> None:
    """Inspect's hf provider samples unless told: the profile says so, once, up front."""
    from cog_tasks.commands.profile import sampling_note

    note = sampling_note(ModelSpec("hf/smollm2", {"model_path": "/m"}))
    assert note is not None and "-M do_sample=false" in note
    assert sampling_note(ModelSpec("hf/smollm2", {"do_sample": "false"})) is None
    assert sampling_note(ModelSpec("openai/gpt-4o")) is None
    assert sampling_note(ModelSpec("chance")) is None
    # llama-cpp-python's server samples at temperature 0.8 unless a temperature is sent
    note = sampling_note(ModelSpec("llamacpp/qwen2.5-coder-1.5b"))
    assert note is not None and "--temperature 0" in note
    assert sampling_note(ModelSpec("llamacpp/qwen2.5-coder-1.5b", temperature=0.0)) is None


def test_a_temperature_is_part_of_the_profile_identity_and_the_step_folder() -> None:
    """Profiles at another temperature are another identity, and compare names the difference."""
    from cog_tasks.commands.profile import PRESETS, _preset_difference, profile_identity

    default, greedy = ModelSpec("llamacpp/q"), ModelSpec("llamacpp/q", temperature=0.0)
    assert "temperature" not in profile_identity(default, PRESETS["smoke"])  # as stored before
    assert profile_identity(greedy, PRESETS["smoke"])["temperature"] == 0.0
    first, second = ({"identity": profile_identity(m, PRESETS["smoke"])} for m in (default, greedy))
    assert _preset_difference(first, second) == "temperature: None vs 0.0"


def test_the_coglm_step_gets_only_the_model_arguments_lm_eval_takes() -> None:
    """Inspect's generation arguments (do_sample...) and secrets never reach lm-eval's
    model constructor (Qwen2ForCausalLM refused do_sample with a TypeError)."""
    from cog_tasks.commands.profile import _lm_eval_model_args

    arguments = {"model_path": "/m", "dtype": "bfloat16", "do_sample": "false"}
    arguments |= {"batch_size": "4", "hf_token": "secret"}
    assert _lm_eval_model_args(ModelSpec("hf/q", arguments)) == "pretrained=/m,dtype=bfloat16"


def test_compare_names_the_profile_of_every_trivial_verdict() -> None:
    """N-way compare: the trivial cell says which profile each 'minus it' belongs to."""
    from cog_tasks.commands.profile_views import compare_lines

    stored = Path(__file__).resolve().parents[1] / "benchmarks" / "results" / "profile"
    names = ["smollm2", "gemma3-270m", "chance"]
    profiles = [json.loads((stored / name / "profile.json").read_text()) for name in names]
    lines = [line for line in compare_lines(names, profiles) if line.trivial != "-"]
    assert lines
    for line in lines:
        verdicts = re.findall(r"(\S+) (?:minus it|not paired)", line.trivial)
        assert verdicts and set(verdicts) <= set(names), line.trivial
        assert "model minus it" not in line.trivial


def _payload_profile(model: str, agree: float, right: float) -> dict:
    """A profile of two rows whose headlines are statistics of payloads: κ and the age."""
    import numpy as np

    from cog_tasks.cogbench.intervals import (
        UnitTallies,
        authenticity_interval,
        kappa_payload,
        kappa_statistic,
    )
    from cog_tasks.cogbench.metrics import RatingTally
    from cog_tasks.coglm.abilities import ABILITIES
    from cog_tasks.coglm.headlines import item_headlines
    from cog_tasks.coglm.metrics import ScoredItem
    from cog_tasks.common.headlines import Headline
    from cog_tasks.common.runs import RunIdentity

    rng = np.random.default_rng(int(agree * 10))
    trajectories = {}
    for number in range(12):
        tallies = {}
        for iteration in (0, 1, 2):
            human = rng.integers(1, 6, size=8)
            agent = np.where(rng.random(8) < agree, human, rng.integers(1, 6, size=8))
            tallies[iteration] = RatingTally.from_ratings(human.tolist(), agent.tolist())
        trajectories[f"a-{number}"] = UnitTallies.from_iterations(tallies)
    kappa = Headline(
        "cogbench",
        "authenticity_avg_a",
        authenticity_interval(list(trajectories.values())),
        RunIdentity.of("cogbench@4.2.0", model, arguments={"subset": "a"}),
        {key: kappa_payload(unit) for key, unit in trajectories.items()},
        scale="kappa",
        statistic=kappa_statistic(None),
    )
    items = [
        ScoredItem(a.code, 4, float(rng.random() < right), True, f"{a.code}-{k}")
        for a in ABILITIES
        for k in range(12)
    ]
    run = RunIdentity.of("coglm_chat@2.6.0", model)
    (age,) = [h for h in item_headlines(items, run, pooled_measure="p") if h.scale == "years"]
    rows = json.loads(json.dumps([kappa.as_row(), age.as_row()]))  # as profile.json holds them
    return {"model": model, "preset": "smoke", "identity": {"model": model}, "rows": rows}


def test_compare_pairs_kappa_and_the_cognitive_age_and_reads_rows_without_payloads(
    tmp_path: Path, capsys
) -> None:
    first, second = _payload_profile("m1", 0.9, 0.9), _payload_profile("m2", 0.3, 0.5)
    kappa, age = compare_profiles(first, second)
    for comparison in (kappa, age):
        assert comparison.difference.value == pytest.approx(comparison.first - comparison.second)
        assert comparison.difference.defined and comparison.difference.excludes(0.0)
    assert kappa.difference.n == 12 and -2.0 <= kappa.difference.low <= kappa.difference.high <= 2
    assert age.difference.n == 120 and age.label == "coglm cognitive_age"
    # A profile against itself: 0 inside an interval around it.
    for same in compare_profiles(first, first):
        assert same.difference.low < 0.0 == same.difference.value < same.difference.high
    # The command reads them from profile.json files; older rows (no payloads) still compare.
    older = json.loads(json.dumps(second))
    for row in older["rows"]:
        row["units"] = {}
        del row["statistic"]
    for name, data in {"a": first, "b": second, "old": older}.items():
        (tmp_path / f"{name}.json").write_text(json.dumps(data))
    assert main(["profile", "compare", str(tmp_path / "a.json"), str(tmp_path / "b.json")]) == 0
    out = capsys.readouterr().out
    assert "2 rows tested; 0 not paired" in out
    assert main(["profile", "compare", str(tmp_path / "a.json"), str(tmp_path / "old.json")]) == 0
    out = capsys.readouterr().out
    assert out.count("no per-unit values") == 2 and "0 rows tested; 2 not paired" in out
    assert [c.reason for c in compare_profiles(first, older)] == ["no per-unit values"] * 2


def test_the_preset_help_names_every_preset(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["profile", "run", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    described = help_text.split("how much to run:")[1].split("--dry-run")[0]
    assert [name for name in PRESETS if f"{name} (" not in described] == []


@pytest.mark.slow
def test_a_step_leaves_no_active_model_for_the_next_task_built(tmp_path: Path) -> None:
    """``eval_set`` sets Inspect's active model in its caller's context; a step keeps it inside."""
    from cog_tasks.commands.profile import _run_inspect, _task
    from cog_tasks.common.generation import eval_model
    from cog_tasks.common.spec import Step

    pytest.importorskip("llama_cpp", reason="needs the llamacpp extra")
    step = Step("egosocial", "egosocial_static", {}, limit=1)
    model = ModelSpec("llamacpp/smollm2", {"context": "2048"}, max_tokens=8)  # mockllm: web
    log = _run_inspect(step, _task(step), model, tmp_path)
    assert log.status == "success"
    assert eval_model() is None  # the next step's task is built outside any eval
