"""EgoSocialArena: scenario generators and game rules."""
