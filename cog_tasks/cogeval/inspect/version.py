"""The version of CogEval's Inspect task, declared once: bump it when a change alters scores."""

TASK_VERSION = "2.1.0"
