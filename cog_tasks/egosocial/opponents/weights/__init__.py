"""Shipped DQN hold'em opponents: ``*.pt`` weights, their ``*.sha256`` and training record."""
