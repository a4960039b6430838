"""The versions of EgoSocialArena's Inspect tasks; bump one when a change alters its scores."""

TASK_VERSIONS: dict[str, str] = {
    "egosocial_static": "4.3.0",
    "egosocial_blackjack_beliefs": "2.3.0",
    "egosocial_number_guessing": "5.1.0",
    "egosocial_holdem": "4.2.0",
}
