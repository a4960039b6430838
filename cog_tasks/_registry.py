"""Inspect entry point: importing this module registers every registered benchmark's ``@task``."""

from importlib import import_module

from cog_tasks.benchmarks import specs
from cog_tasks.common.errors import one_line_under_inspect
from cog_tasks.common.llamacpp_inspect import llamacpp  # noqa: F401 (registers the provider)

for _spec in specs():
    import_module(_spec.task_module)

one_line_under_inspect()  # a bad -T value: our one line, last, exit code 2
