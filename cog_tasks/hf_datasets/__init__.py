"""Hugging Face dataset builders, dataset cards and push."""
