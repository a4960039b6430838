"""CogLM as lm-eval tasks (chat protocol, generated answers); see cog_tasks/coglm/README.md."""
