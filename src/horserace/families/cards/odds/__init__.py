"""Exact odds of the card race from any public position, and the dealer's book against them."""
