"""The version of CogBench's Inspect task, declared once: bump it when a change alters scores."""

TASK_VERSION = "4.5.0"
