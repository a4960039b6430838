"""The versions of EgoSocialArena's Inspect tasks, declared once in one table.

The tasks changed at different times, so each keeps its own version; bump a
task's entry when a change alters its scores.
"""

TASK_VERSIONS: dict[str, str] = {
    "egosocial_static": "4.2.0",
    "egosocial_blackjack_beliefs": "2.2.0",
    "egosocial_number_guessing": "5.1.0",
    "egosocial_holdem": "4.1.0",
}
