"""The players' seeds for the dice, committed to and then revealed (as provably fair casinos
do). Before play each seated player may send the SHA-256 of a seed of their own (`commit`);
the server's seed was committed to by its hash when the table was made. When play is to
start the commitments are closed and everyone is shown them; only then may each player
reveal (`reveal`), and a seed that does not hash to its commitment is refused. The dice's
key is set from the server's seed and every revealed seed once all are in, or after
`reveal_seconds`: a commitment still unrevealed then is left out (the record lists it with
no seed), and so is the commitment of a player who left. Nobody can aim the dice: no player
knows the server's seed, and each chose their seed before seeing anyone else's."""

from __future__ import annotations

import asyncio
import hmac

from horserace.drivers.server.connection import Connection
from horserace.drivers.server.fair import FAIR, commitment_of
from horserace.drivers.server.protocol import Committed, ErrorCode, ErrorReply, Revealed
from horserace.drivers.server.storage import HUMAN, PLAYING, WAITING
from horserace.drivers.server.table_breaks import TableBreaks


class TableSeeds(TableBreaks):
    def _refuse(self, connection: Connection, code: ErrorCode, message: str) -> None:
        reply = ErrorReply(code=code, message=message, version=self.version)
        connection.send(reply.model_dump())

    async def commit_seed(self, connection: Connection, commitment: str) -> None:
        """A seated player's commitment (SHA-256 of their seed), before play; again: it
        replaces the first. Answered with `committed`; everyone sees it when play starts."""
        async with self.lock:
            seat = connection.seat
            if seat is None:
                self._refuse(connection, "not-seated", "take a seat to add a seed to the dice")
            elif self.chance_mode != FAIR:
                self._refuse(connection, "illegal", "this table's dice are not drawn by the server")
            elif self.status != WAITING:
                self._refuse(connection, "illegal", "commitments are made before play")
            else:
                self.commitments[seat] = commitment
                await self._save_settings()
                connection.send(Committed(seat=seat, commitment=commitment).model_dump())

    async def reveal_seed(self, connection: Connection, seed: str) -> None:
        """A committed player's seed, once every commitment is in and shown; it must hash to
        the seat's commitment. The last one in sets the dice."""
        async with self.lock:
            seat = connection.seat
            commitment = None if seat is None else self.commitments.get(seat)
            if seat is None:
                self._refuse(connection, "not-seated", "watchers have no seed to reveal")
            elif self.status == WAITING:
                self._refuse(
                    connection,
                    "waiting",
                    "seeds are revealed when play starts, once every commitment is in",
                )
            elif not self.revealing:
                self._refuse(connection, "illegal", "the dice are set: seeds are revealed before")
            elif commitment is None:
                self._refuse(connection, "illegal", f"seat {seat + 1} committed to no seed")
            elif not hmac.compare_digest(commitment_of(seed), commitment):
                self._refuse(connection, "illegal", "that seed does not match your commitment")
            elif seat in self.player_seeds:
                connection.send(Revealed(seat=seat).model_dump())  # the same seed again
            else:
                self.player_seeds[seat] = seed
                await self._save_settings()
                self.connections.everyone(Revealed(seat=seat).model_dump())
                if not self._unrevealed():
                    await self._set_dice()
        self.kick()

    def _unrevealed(self) -> list[int]:
        """Committed seats whose player is still here and has not revealed."""
        return [
            seat
            for seat in sorted(self.commitments)
            if seat not in self.player_seeds and self.seats[seat].kind == HUMAN
        ]

    async def _begin(self) -> None:
        """The game starts (the caller holds the lock): commitments close and are shown to
        everyone with the state; the dice are set once the reveals are in (at once when
        nobody committed)."""
        self._start()
        await self._write(self.storage.set_status, PLAYING)
        if self.revealing:
            await self._save_settings()
            if not self._unrevealed():
                await self._set_dice()
                return
        self._broadcast_seats(with_state=True)

    async def _set_dice(self) -> None:
        """Reveals are over: the dice's key is set from the seeds revealed, and the first move
        is offered (the caller holds the lock)."""
        self.revealing = False
        self.chance = self._chance()
        await self._save_settings()
        self._broadcast_seats(with_state=True)

    def _arm_timer(self) -> None:
        """While the seeds are awaited, the reveal deadline; then the turn timer."""
        if not self.revealing:
            super()._arm_timer()
        elif self._reveal_timer is None or self._reveal_timer.done():
            self._reveal_timer = self._spawn(self._reveal_deadline())

    async def _reveal_deadline(self) -> None:
        await asyncio.sleep(self.reveal_seconds)
        async with self.lock:
            if self.revealing:
                await self._set_dice()
        self.kick()
