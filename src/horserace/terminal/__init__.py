"""What every family's terminal drawing is built on: the screen that prints or redraws a board,
the seat played at the keyboard, and what a family tells `horserace play`."""
