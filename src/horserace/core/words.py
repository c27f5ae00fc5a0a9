"""Counted words as a person writes them, in the rules' event texts, the news and the command
line alike: "1 card", "2 cards", "1 race", "3 scratches", "an exacta"."""

from __future__ import annotations


def with_article(word: str) -> str:
    """'a trifecta', 'an exacta': the article as the word is said (by its first letter)."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def counted(count: int, word: str, plural: str | None = None) -> str:
    """`count` and the word, singular for exactly one (`plural` when adding "s" is wrong)."""
    if count == 1:
        return f"{count} {word}"
    return f"{count} {plural or word + 's'}"
