"""The version of CogEval's Inspect task, declared once: bump it when a change alters scores."""

TASK_VERSION = "4.4.0"
