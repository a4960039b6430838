"""CogLM as lm-eval tasks (text-completion protocol); see README.md."""
