"""EgoSocialArena on Inspect: the static environment, the blackjack beliefs and the two games."""

from cog_tasks.egosocial.inspect.beliefs import egosocial_blackjack_beliefs
from cog_tasks.egosocial.inspect.games import egosocial_holdem, egosocial_number_guessing
from cog_tasks.egosocial.inspect.static import egosocial_static

__all__ = [
    "egosocial_blackjack_beliefs",
    "egosocial_holdem",
    "egosocial_number_guessing",
    "egosocial_static",
]
