"""CogEval (Momennejad et al. 2023): cognitive maps and planning, generated from graph data.

Modules: ``graphs`` (the six graphs and their conditions, as data), ``domains``
(state names and wording), ``planning`` (optimal answers with networkx and
breadth-first search), ``generator`` (dialogs and expected answers),
``parsing`` and ``scoring`` (answer extraction, graph-aware scoring and failure
modes), ``results`` (rescoring JSONL, score tables, Inspect logs), ``report``
(figures), ``baseline`` (seeded chance answers) and ``cli``.
"""
