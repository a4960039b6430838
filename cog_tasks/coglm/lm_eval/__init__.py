"""CogLM's lm-eval task families: ``coglm`` (log-likelihood) and ``coglm_gen`` (generation)."""
