"""lm-eval task folders; pass this directory to lm-eval's ``--include_path``."""
