"""CogLM as lm-eval tasks (text-completion protocol); see cog_tasks/coglm/README.md."""
