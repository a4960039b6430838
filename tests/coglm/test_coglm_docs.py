"""The scale-out commands in the CogLM README are well formed (checked offline).

Each documented ``lm_eval`` / ``accelerate launch -m lm_eval`` command is parsed
with lm-eval's and Accelerate's own parsers; its ``--model_args`` keys must be
parameters of the lm-eval model class, and its tasks must be tasks of the
log-likelihood family ``coglm``.
"""

import ast
import inspect
import re
import shlex
from pathlib import Path

import lm_eval.models
import yaml
from accelerate.commands.launch import launch_command_parser
from lm_eval._cli.harness import HarnessCLI
from lm_eval.models.huggingface import HFLM

from cog_tasks.cli import tasks_path

BENCHMARK = tasks_path() / "coglm"
FAMILY = BENCHMARK / "lm_eval" / "coglm"
README = BENCHMARK / "README.md"
LM_EVAL_COMMANDS = ("lm_eval ", "accelerate ")


def _documented_commands() -> list[list[str]]:
    blocks = re.findall(r"```bash\n(.*?)```", README.read_text(), flags=re.S)
    lines = [
        line for block in blocks for line in block.splitlines() if line.startswith(LM_EVAL_COMMANDS)
    ]
    return [
        shlex.split(line.replace("$(cog-tasks tasks-path)", str(tasks_path()))) for line in lines
    ]


def _vllm_parameters() -> set[str]:
    # vllm is not installed, so read VLLM.__init__'s parameters from lm-eval's source.
    source = Path(lm_eval.models.__file__).with_name("vllm_causallms.py").read_text()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef) and node.name == "VLLM":
            init = next(
                n for n in node.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"
            )
            return {argument.arg for argument in init.args.args[1:]}
    raise AssertionError("VLLM class not found in lm-eval")


# VLLM forwards unknown --model_args to vllm.LLM; these engine arguments are documented.
VLLM_ENGINE_ARGUMENTS = {"gpu_memory_utilization"}
MODEL_PARAMETERS = {
    "hf": set(inspect.signature(HFLM.__init__).parameters),
    "vllm": _vllm_parameters() | VLLM_ENGINE_ARGUMENTS,
}


def _lm_eval_arguments(command: list[str]) -> list[str]:
    if command[0] == "accelerate":
        launch = launch_command_parser().parse_args(command[2:])
        assert launch.module and launch.training_script == "lm_eval"
        return launch.training_script_args
    assert command[0] == "lm_eval"
    return command[1:]


def test_documented_lm_eval_commands_parse_and_name_real_parameters() -> None:
    commands = _documented_commands()
    assert {c[0] for c in commands} == {"lm_eval", "accelerate"}
    models = set()
    family = {
        yaml.safe_load(path.read_text()).get("group") or path.stem
        for path in FAMILY.glob("coglm*.yaml")
    }
    for command in commands:
        args = HarnessCLI()._parser.parse_args(["run", *_lm_eval_arguments(command)])
        models.add(args.model)
        keys = set(args.model_args)  # lm-eval parses "k=v,k=v" into a dict
        assert keys <= MODEL_PARAMETERS[args.model], (command, keys - MODEL_PARAMETERS[args.model])
        tasks = args.tasks.split(",") if isinstance(args.tasks, str) else args.tasks
        assert tasks and set(tasks) <= family
        assert args.include_path == str(tasks_path())
    assert models == {"hf", "vllm"}
