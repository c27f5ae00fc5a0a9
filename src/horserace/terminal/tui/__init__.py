"""The full-screen table on Textual: one screen for every family, the game's play loop on a
thread of its own, people's answers typed into a choice panel. Imported only when a game is played
or replayed on a terminal, so the command line starts fast."""
