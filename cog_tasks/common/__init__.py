"""What every benchmark shares; nothing here imports a benchmark."""
