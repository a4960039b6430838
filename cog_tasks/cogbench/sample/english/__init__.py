"""English files of the bundled CogBench fixture set."""
