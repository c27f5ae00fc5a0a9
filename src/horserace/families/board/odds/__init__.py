"""Exact odds of the dice board game: the race (and its scratch phase) in closed form, the
odds a seat's view allows, and the designer that searches for fair boards."""
