"""The CogLM README's scale-out commands run the log-likelihood family on hf and vLLM.

Every README command is parsed and checked by ``tests/test_readme_commands.py``
(lm-eval's own parser, model arguments, task names); this adds what is
CogLM's: the plain ``lm_eval`` and ``accelerate launch -m lm_eval`` commands
name tasks of the ``coglm`` log-likelihood family only, with this package's
task folder, for both model backends the README documents.
"""

import yaml
from readme_commands import ALL_COMMANDS, calls

from cog_tasks.cli import tasks_path

FAMILY = tasks_path() / "coglm" / "lm_eval" / "coglm"
README = "cog_tasks/coglm/README.md"


def test_scale_out_commands_run_the_log_likelihood_family_on_hf_and_vllm() -> None:
    scale_out = [
        c
        for c in ALL_COMMANDS
        if c.readme == README and c.text.startswith(("lm_eval ", "accelerate "))
    ]
    family = {
        yaml.safe_load(path.read_text()).get("group") or path.stem
        for path in FAMILY.glob("coglm*.yaml")
    }
    assert {"coglm", "coglm_plan"} <= family
    found = [call.parsed for command in scale_out for call in calls(command)]
    parsed = [call for call in found if call.program == "lm-eval"]
    assert len(parsed) == len(scale_out)
    assert {c.text.split()[0] for c in scale_out} == {"lm_eval", "accelerate"}
    assert {p.args.model for p in parsed} == {"hf", "vllm"}
    for call in parsed:
        assert set(call.args.tasks) <= family
        assert call.args.include_path == str(tasks_path())
        assert call.args.output_path == "results/coglm"


def test_llama2_log_likelihood_commands_encode_without_bos() -> None:
    llama = [
        c
        for c in ALL_COMMANDS
        if c.readme == README and "meta-llama/Llama-2-" in c.text and "--tasks coglm " in c.text
    ]
    assert len(llama) >= 3
    for command in llama:
        assert "add_bos_token=False" in command.text, command.text
