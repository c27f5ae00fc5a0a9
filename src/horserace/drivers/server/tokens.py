"""Seat tokens: 256 random bits given once to the person who takes a seat; storage keeps only
their SHA-256, and a presented token is checked with a constant-time compare."""

from __future__ import annotations

import hashlib
import hmac
import secrets

TOKEN_BYTES = 32  # 256 bits


def new_token() -> str:
    """A fresh bearer token (URL-safe text, 43 characters)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(token: str | None, stored_hash: str | None) -> bool:
    """Constant-time: the time taken says nothing about how much of a guess was right."""
    if not token or not stored_hash:
        return False
    return hmac.compare_digest(hash_token(token), stored_hash)


def new_table_id() -> str:
    """Table ids appear in shared links: random, short, and unrelated to any token."""
    return secrets.token_urlsafe(9)
