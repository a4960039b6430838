"""CogEval (Momennejad et al. 2023): cognitive maps and planning, generated from graph data.

Modules: ``graphs`` (the six graphs and their conditions, as data), ``domains``
(state names and wording), ``planning`` (optimal answers with networkx and
breadth-first search), ``generator`` (dialogs and expected answers),
``parsing`` and ``scoring`` (reading the final answer, graph-aware scoring and
failure labels), ``results`` (rescoring JSONL, score tables), ``report``
(figures) and ``baseline`` (seeded chance answers). Inspect logs are read by
:mod:`cog_tasks.inspect_evals.cogeval.logs`, the command line lives in
:mod:`cog_tasks.commands.cogeval`.
"""
