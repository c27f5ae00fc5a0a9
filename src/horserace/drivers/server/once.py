"""Work done once for everyone who asks for it while it runs: a table read back from storage,
a record made ready to send. The first to ask starts it; the others wait on the same work;
a caller that goes away does not cancel it for the rest; once it is over, the next to ask
starts it again (what it made is kept by the caller, where it is kept at all)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class Once(Generic[T]):
    """The work under way, by key."""

    def __init__(self) -> None:
        self._running: dict[str, asyncio.Future[T]] = {}

    async def run(self, key: str, work: Callable[[], Awaitable[T]]) -> T:
        pending = self._running.get(key)
        if pending is None:
            pending = self._running[key] = asyncio.ensure_future(work())
            pending.add_done_callback(lambda _: self._running.pop(key, None))
        return await asyncio.shield(pending)
