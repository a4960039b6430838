"""CogEval (Momennejad et al. 2023): cognitive maps and planning, generated from graph data."""
