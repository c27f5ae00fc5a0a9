"""Counted words as a person writes them, in the rules' event texts, the news and the command
line alike: "1 card", "2 cards", "1 race", "3 scratches"."""

from __future__ import annotations


def counted(count: int, word: str, plural: str | None = None) -> str:
    """`count` and the word, singular for exactly one (`plural` when adding "s" is wrong)."""
    if count == 1:
        return f"{count} {word}"
    return f"{count} {plural or word + 's'}"
