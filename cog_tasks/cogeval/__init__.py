"""CogEval (Momennejad et al. 2023): cognitive maps and planning, generated from graph data.

Modules: ``graphs`` (the six graphs and their conditions, as data), ``domains``
(state names and wording), ``planning`` (optimal answers with networkx and
breadth-first search), ``generator`` (dialogs and expected answers),
``parsing`` and ``scoring`` (reading the final answer, graph-aware scoring and
failure labels), ``results`` (rescoring JSONL, score tables), ``report``
(figures) and ``baseline`` (seeded chance answers). Reading Inspect logs and
the command line belong to the frontends above this package.
"""
