"""CogBench: records, loader and questionnaire parsing."""
