"""horserace: engine, command line and table for pure-luck horse-race games."""

__version__ = "0.1.0"
