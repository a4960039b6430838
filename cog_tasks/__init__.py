"""cog-tasks: cognitive-science LLM benchmarks for lm-eval and Inspect."""

from importlib import metadata

try:
    __version__ = metadata.version("cog-tasks")
except metadata.PackageNotFoundError:  # imported from a source tree that was never installed
    __version__ = "0+unknown"
