"""Benchmark metrics: calibrated accuracy, cognitive age, kappa, deviance."""
