"""CogLM (Piaget stages): records, data resolver, answer extraction."""
