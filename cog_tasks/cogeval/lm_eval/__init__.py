"""lm-eval task family for CogEval (dialogs flattened into one context)."""
