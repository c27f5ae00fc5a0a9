"""A finished table's record as it is sent: encoded and compressed once, off the event loop,
and kept for the next request (the most recently asked, up to KEPT_BYTES). Each request used
to load the record's text from storage and encode and write it whole on the event loop: one
address asking for a long table's record in a loop (546 answers a second, half of them records
of 13,549 steps) raised another table's p99 from 4.8 to 50.7 ms on an idle machine. A record
does not change once its game is over, so what is kept is never stale."""

from __future__ import annotations

import gzip
from collections import OrderedDict
from dataclasses import dataclass

from horserace.drivers.server.records import Archive, RecordCheck

KEPT_BYTES = 64 * 1024 * 1024  # records kept ready to send, encoded and compressed


@dataclass(frozen=True)
class Sendable:
    """A finished table's record as bytes, plain and gzipped, and the check of it."""

    record: bytes
    gzipped: bytes
    check: RecordCheck

    @classmethod
    def of(cls, archive: Archive) -> Sendable:
        """Encoded and compressed (seconds of CPU for the longest records: call it off the
        event loop; zlib lets go of the interpreter while it compresses)."""
        data = archive.record.encode()
        return cls(data, gzip.compress(data, compresslevel=6, mtime=0), archive.check)

    @property
    def size(self) -> int:
        return len(self.record) + len(self.gzipped)


class Published:
    """The sendable records most recently asked for, at most `kept_bytes` of them."""

    def __init__(self, kept_bytes: int = KEPT_BYTES) -> None:
        self.kept_bytes = kept_bytes
        self._kept: OrderedDict[str, Sendable] = OrderedDict()
        self._bytes = 0

    def get(self, table_id: str) -> Sendable | None:
        found = self._kept.get(table_id)
        if found is not None:
            self._kept.move_to_end(table_id)
        return found

    def keep(self, table_id: str, sendable: Sendable) -> None:
        if table_id in self._kept or sendable.size > self.kept_bytes:
            return
        self._kept[table_id] = sendable
        self._bytes += sendable.size
        while self._bytes > self.kept_bytes:
            _, gone = self._kept.popitem(last=False)
            self._bytes -= gone.size
