"""CogEval: graphs, prompt generator, answer parsing and scoring."""
