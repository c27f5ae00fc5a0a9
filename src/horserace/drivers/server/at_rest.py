"""What the server keeps on disk, kept from other eyes: its folders made readable by their
owner alone (0700), its files too (0600), and each table's seed and each step's action and
events sealed with the server's key, so a copy of the database alone tells neither what the
dice of an unfinished game will be nor what cards its seats hold.

A sealed seed is `sealed:` and the URL-safe base64 of a 12-byte nonce and the AES-256-GCM
ciphertext of the seed's decimal text, with the table's id as associated data (a sealed seed
moved to another table does not open). The AES key is derived with HKDF-SHA256 from the
server's signing key, so the one key file keeps both; a database made before seeds were
sealed holds them as plain decimal text, which still reads (and is sealed on the next start).
A step's action text and its events' JSON are sealed the same way, each with a nonce of its
own, bound to the table, the step and the column (a sealed step moved to another place does
not open); clear ones, from older servers, still read.
"""

from __future__ import annotations

import base64
import os
import secrets
import stat
from pathlib import Path

from horserace.core.errors import ConfigError

SEALED = "sealed:"
NONCE_BYTES = 12
PRIVATE_FILE = 0o600
PRIVATE_DIRECTORY = 0o700


def private_directory(path: Path) -> None:
    """Make `path` and every missing folder above it readable by the owner alone (a folder
    that already exists is left as it is: it may be the working directory)."""
    missing = []
    here = path
    while not here.exists():
        missing.append(here)
        if here.parent == here:
            break
        here = here.parent
    for folder in reversed(missing):
        folder.mkdir(mode=PRIVATE_DIRECTORY, exist_ok=True)
        os.chmod(folder, PRIVATE_DIRECTORY)  # mkdir's mode is cut by the umask


def private_file(path: Path) -> None:
    """`path` exists and only its owner may read or write it: made empty with mode 0600 if
    missing, narrowed to 0600 if others could read it (its folder made private if new)."""
    private_directory(path.parent)
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE)
    except FileExistsError:
        if stat.S_IMODE(path.stat().st_mode) & 0o077:
            os.chmod(path, PRIVATE_FILE)
        return
    os.close(descriptor)


class SeedSeal:
    """Seals and opens table seeds (and the steps' texts) with a key derived from the
    server's signing key."""

    def __init__(self, secret: bytes) -> None:
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM
        from cryptography.hazmat.primitives.kdf.hkdf import HKDF

        derive = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=b"horserace seeds")
        self._aead = AESGCM(derive.derive(secret))

    def seal(self, table_id: str, seed: int) -> str:
        return self._seal(str(seed), table_id.encode())

    def unseal(self, table_id: str, stored: str) -> int:
        return int(self._open(stored, table_id.encode(), f"table {table_id}'s seed"))

    def seal_text(self, table_id: str, place: str, text: str) -> str:
        """`text` (a step's action or events) sealed for that `place` of that table alone."""
        return self._seal(text, _bound(table_id, place))

    def open_text(self, table_id: str, place: str, stored: str) -> str:
        return self._open(stored, _bound(table_id, place), f"table {table_id}'s record")

    def _seal(self, text: str, bound: bytes) -> str:
        nonce = secrets.token_bytes(NONCE_BYTES)
        sealed = self._aead.encrypt(nonce, text.encode(), bound)
        return SEALED + base64.urlsafe_b64encode(nonce + sealed).decode()

    def _open(self, stored: str, bound: bytes, what: str) -> str:
        from cryptography.exceptions import InvalidTag

        raw = base64.urlsafe_b64decode(stored.removeprefix(SEALED))
        try:
            text = self._aead.decrypt(raw[:NONCE_BYTES], raw[NONCE_BYTES:], bound)
        except InvalidTag:
            raise ConfigError(
                f"{what} was sealed with another key: start the server with"
                " the key file it was made with (--key-file)"
            ) from None
        return text.decode()


def _bound(table_id: str, place: str) -> bytes:
    """The associated data of a step's sealed text: its table, step and column (a NUL
    apart, which neither a table id nor a seed's associated data holds)."""
    return f"{table_id}\0{place}".encode()


def open_seed(seal: SeedSeal | None, table_id: str, stored: str) -> int:
    """A stored seed: plain decimal text (databases made before sealing), or sealed, which
    only the key it was sealed with opens."""
    if not stored.startswith(SEALED):
        return int(stored)
    if seal is None:
        raise ConfigError(f"table {table_id}'s seed is sealed: the server's key is needed")
    return seal.unseal(table_id, stored)


def open_text(seal: SeedSeal | None, table_id: str, place: str, stored: str) -> str:
    """A step's stored action or events: clear (older databases, or a server without a key)
    or sealed, which only the key it was sealed with opens."""
    if not stored.startswith(SEALED):
        return stored
    if seal is None:
        raise ConfigError(f"table {table_id}'s record is sealed: the server's key is needed")
    return seal.open_text(table_id, place, stored)
