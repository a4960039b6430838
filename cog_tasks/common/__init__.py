"""What every benchmark shares.

Data sources, files, settings, statistics, the CLI kit, models and log
reading. Nothing here imports a benchmark.
"""
