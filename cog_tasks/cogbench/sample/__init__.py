"""Bundled CogBench fixture set (see README.md here): test and demo data, not human data."""
