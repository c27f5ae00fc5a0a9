"""A finished table's record as it is sent: made once however many ask for it at once (two
loops asking for a long record while it was being made each made it again, and the threads
doing so held the interpreter from the event loop for seconds), and written a slice at a time
with the event loop turning between slices (written whole, one long record was one `send` the
other tables' moves waited for)."""

from __future__ import annotations

import asyncio
import gzip
import itertools

from starlette.types import Message

from horserace.drivers.server.published import SLICE, Published, Sendable, Sliced
from horserace.drivers.server.records import Archive, RecordCheck

RECORD = '{"format": "horserace-record"}\n' * 2000


def test_a_record_asked_for_by_many_at_once_is_made_once() -> None:
    async def run() -> None:
        made: list[str] = []
        ready = asyncio.Event()

        async def archived(table_id: str) -> Archive | None:
            made.append(table_id)
            await ready.wait()  # still being made while the others ask
            return Archive(RECORD, RecordCheck(()))

        published = Published(asyncio.Semaphore(2))
        asking = [asyncio.ensure_future(published.sendable("t1", archived)) for _ in range(5)]
        while not made:  # the first is being made; the others ask meanwhile
            await asyncio.sleep(0)
        for _ in range(5):
            await asyncio.sleep(0)
        ready.set()
        answers = await asyncio.gather(*asking)
        assert made == ["t1"]
        assert all(answer is answers[0] for answer in answers)
        assert answers[0] is not None and answers[0].record == RECORD.encode()
        assert await published.sendable("t1", archived) is answers[0]  # kept: not made again
        assert made == ["t1"]

        async def nowhere(table_id: str) -> Archive | None:
            return None

        assert await published.sendable("t2", nowhere) is None

    asyncio.run(run())


def test_a_long_body_is_written_a_slice_a_turn_of_the_loop() -> None:
    body = b"x" * (5 * SLICE + 17)

    async def run() -> tuple[list[Message], list[int]]:
        sent: list[Message] = []
        ticks = 0
        at_send: list[int] = []  # the loop's turns taken by another task, at each write

        async def ticker() -> None:
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0)

        async def send(message: Message) -> None:
            sent.append(message)
            at_send.append(ticks)

        async def receive() -> Message:
            return {"type": "http.disconnect"}

        other = asyncio.ensure_future(ticker())
        await asyncio.sleep(0)
        scope = {"type": "http", "method": "GET"}
        await Sliced(body, media_type="application/x-ndjson")(scope, receive, send)
        other.cancel()
        return sent, at_send

    sent, at_send = asyncio.run(run())
    headers = dict(sent[0]["headers"])
    assert sent[0]["type"] == "http.response.start"
    assert headers[b"content-length"] == str(len(body)).encode()
    pieces = [message["body"] for message in sent[1:]]
    assert b"".join(pieces) == body
    assert max(len(piece) for piece in pieces) == SLICE and len(pieces) == 7  # 6 and the end
    assert [message.get("more_body", False) for message in sent[1:]] == [True] * 6 + [False]
    turns = [after - before for before, after in itertools.pairwise(at_send[1:])]
    assert all(turn >= 1 for turn in turns), turns  # the other task ran between slices


def test_sendable_bytes_are_the_record_plain_and_gzipped() -> None:
    made = Sendable.of(Archive(RECORD, RecordCheck(())))
    assert made.record == RECORD.encode() and gzip.decompress(made.gzipped) == made.record
    assert len(made.gzipped) * 10 < len(made.record)
