"""cog-tasks: cognitive-science LLM benchmarks for lm-eval and Inspect."""

__version__ = "0.2.0"
