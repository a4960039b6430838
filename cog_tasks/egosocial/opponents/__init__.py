"""EgoSocialArena opponents: rule-based number guessers and DQN hold'em players."""
