"""EgoSocialArena on Inspect: the static environment and the two interactive games."""

from cog_tasks.inspect_evals.egosocial.games import egosocial_holdem, egosocial_number_guessing
from cog_tasks.inspect_evals.egosocial.static import egosocial_static

__all__ = ["egosocial_holdem", "egosocial_number_guessing", "egosocial_static"]
