"""Durable writes off the event loop: one writer thread takes every action queued by every
table and commits them together (group commit), so a wait for the disk is shared by all the
tables that moved meanwhile and never blocks the loop.

A table awaits its own action's commit before anyone hears of it; if the batch fails, each of
its actions is tried alone, so only the one that cannot be stored fails (and its table is put
back as it was). The tables of a batch are woken SETTLE_PER_TURN a turn of the event loop:
each then tells its step to everyone, and fifty of them at once made one long turn that
every socket waited behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import threading
from collections.abc import Sequence

from horserace.drivers.server.storage import PLAYING, Storage, StoredStep

MAX_BATCH = 512
SETTLE_PER_TURN = 8  # tables woken after a commit in one turn of the event loop
_STOP = object()

Item = tuple[str, list[StoredStep], str, asyncio.Future[None], asyncio.AbstractEventLoop]
Row = tuple[str, StoredStep, str]
Outcome = tuple[asyncio.Future[None], Exception | None]


class GroupWriter:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.batches = 0  # commits made, for the metrics
        self.written = 0
        self._queue: queue.SimpleQueue[Item | object] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="horserace-writer", daemon=True)
        self._thread.start()

    async def append(self, table_id: str, steps: list[StoredStep], status: str) -> None:
        """Returns once a table's actions (in order; the last leaves the table in `status`)
        are committed, all or none; raises what storing them raised."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._queue.put((table_id, steps, status, done, loop))
        await done

    def _run(self) -> None:
        while True:
            first = self._queue.get()
            if first is _STOP:
                return
            batch = [first]
            stop = False
            while len(batch) < MAX_BATCH:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is _STOP:
                    stop = True
                    break
                batch.append(item)
            self._commit([item for item in batch if isinstance(item, tuple)])
            if stop:
                return

    def _commit(self, batch: Sequence[Item]) -> None:
        try:
            self.storage.append_steps([row for item in batch for row in _rows(item)])
        except Exception:
            outcomes: list[tuple[Item, Exception | None]] = []
            for item in batch:  # find the one that cannot be stored; the others go in alone
                try:
                    self.storage.append_steps(_rows(item))
                except Exception as error:
                    outcomes.append((item, error))
                else:
                    outcomes.append((item, None))
            _settle(outcomes)
            return
        self.batches += 1
        self.written += sum(len(item[1]) for item in batch)
        _settle([(item, None) for item in batch])

    def close(self) -> None:
        self._queue.put(_STOP)
        self._thread.join(timeout=30)


def _rows(item: Item) -> list[Row]:
    table, steps, status = item[0], item[1], item[2]
    return [(table, step, status if step is steps[-1] else PLAYING) for step in steps]


def _settle(outcomes: Sequence[tuple[Item, Exception | None]]) -> None:
    """Tell each waiting table how its write went, on its own loop, SETTLE_PER_TURN a turn."""
    by_loop: dict[asyncio.AbstractEventLoop, list[Outcome]] = {}
    for item, error in outcomes:
        by_loop.setdefault(item[4], []).append((item[3], error))
    for loop, waiting in by_loop.items():
        with contextlib.suppress(RuntimeError):  # the loop is gone: nobody is waiting
            loop.call_soon_threadsafe(_settle_some, loop, waiting)


def _settle_some(loop: asyncio.AbstractEventLoop, waiting: list[Outcome]) -> None:
    for done, error in waiting[:SETTLE_PER_TURN]:
        if done.done():
            continue
        if error is None:
            done.set_result(None)
        else:
            done.set_exception(error)
    if len(waiting) > SETTLE_PER_TURN:  # the rest at the next turn, after what these wake
        loop.call_soon(_settle_some, loop, waiting[SETTLE_PER_TURN:])
