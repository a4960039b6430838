"""The version of CogLM's Inspect tasks, declared once: bump it when a change alters scores."""

TASK_VERSION = "2.12.0"
