"""lm-eval model backends that this package registers (see :mod:`.shared_prefix`)."""
