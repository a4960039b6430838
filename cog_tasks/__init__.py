"""cog-tasks: cognitive-science LLM benchmarks for lm-eval and Inspect."""

__version__ = "0.3.0"
