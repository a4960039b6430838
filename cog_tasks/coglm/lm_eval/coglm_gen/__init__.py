"""CogLM as lm-eval tasks (chat protocol, generated answers); see README.md."""
