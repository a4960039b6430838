"""Inspect tasks, solvers and scorers, one folder per benchmark."""
