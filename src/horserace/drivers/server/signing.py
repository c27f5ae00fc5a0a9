"""Records anyone can check: each published line carries a hash chain over every line before
it, and the last (the result) carries the server's Ed25519 signature of the chain's end.

Changing, removing, adding or reordering any line breaks the chain; a record cut short has no
signed result line; a record of another table names another table and seed hash, and the
signature covers both. Anyone holding the server's public key (`GET /api/server-key`) can
check a record without trusting the server again.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
from pathlib import Path
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
)

from horserace.core.errors import ConfigError
from horserace.drivers.server.at_rest import PRIVATE_FILE, SeedSeal, private_directory, private_file

CHAIN_START = hashlib.sha256(b"horserace signed record").hexdigest()
CHAIN = "chain"
SIGNATURE = "signature"


def canonical(row: dict[str, Any]) -> str:
    """The exact text a line's chain link covers: the row without its chain and signature,
    keys sorted, no spaces."""
    body = {key: value for key, value in row.items() if key not in (CHAIN, SIGNATURE)}
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def link(previous: str, row: dict[str, Any]) -> str:
    return hashlib.sha256(f"{previous}\n{canonical(row)}".encode()).hexdigest()


def signed_message(chain_end: str, lines: int) -> bytes:
    return f"horserace-record:{chain_end}:{lines}".encode()


class ServerKey:
    """The server's signing key, kept in a file (mode 0600, in a folder made 0700) that every
    process of one server shares; made on first start. It also seals the tables' seeds and
    steps."""

    def __init__(self, private: Ed25519PrivateKey) -> None:
        self._private = private
        raw = private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        self.public_hex = raw.hex()

    @classmethod
    def generate(cls) -> ServerKey:
        return cls(Ed25519PrivateKey.generate())

    @classmethod
    def load_or_create(cls, path: str | Path) -> ServerKey:
        file = Path(path)
        if file.exists():
            private_file(file)  # one made readable by others is narrowed to its owner
            raw = bytes.fromhex(file.read_text().strip())
            if len(raw) != 32:
                raise ConfigError(f"{file} is not a signing key (64 hex digits)")
            return cls(Ed25519PrivateKey.from_private_bytes(raw))
        key = cls.generate()
        private_directory(file.parent)
        raw = key._private.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
        descriptor = os.open(file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE)
        with os.fdopen(descriptor, "w") as out:
            out.write(raw.hex() + "\n")
        return key

    def seed_seal(self) -> SeedSeal:
        """What seals the tables' seeds and steps in the database: a key derived from this one."""
        raw = self._private.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
        return SeedSeal(raw)

    def peer_secret(self) -> str:
        """What workers show each other on a forwarded request: derived from this key, so the
        workers of every host that holds the key share it, and nobody else has it."""
        raw = self._private.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
        return hmac.new(raw, b"horserace-peers", hashlib.sha256).hexdigest()

    def sign(self, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The rows with their chain links, the last one signed."""
        previous = CHAIN_START
        chained = []
        for row in rows:
            previous = link(previous, row)
            chained.append({**row, CHAIN: previous})
        signature = self._private.sign(signed_message(previous, len(chained)))
        chained[-1][SIGNATURE] = signature.hex()
        return chained


def signature_valid(public_hex: str, chain_end: str, lines: int, signature_hex: str) -> bool:
    try:
        public = Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_hex))
        public.verify(bytes.fromhex(signature_hex), signed_message(chain_end, lines))
    except (ValueError, InvalidSignature):
        return False
    return True
