"""The version of CogBench's Inspect task, declared once: bump it when a change alters scores."""

TASK_VERSION = "2.0.0"
