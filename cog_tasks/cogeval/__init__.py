"""CogEval (Momennejad et al. 2023): cognitive maps and planning, generated from graph data.

Reading Inspect logs and the command line belong to the frontends above this package.
"""
