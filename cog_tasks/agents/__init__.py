"""Agents: CogBench agents and EgoSocialArena game opponents."""
