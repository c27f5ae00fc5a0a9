"""The table master: the one writer of one table.

Every change goes through `TableMaster.lock` in the order authenticate -> authorise ->
validate -> apply -> persist -> broadcast. The engine is the only authority: legality comes
from `rules.legal_actions` / `verify`, moves go through `Game.act` (seats) and `Game.apply`
(chance, drawn from `SeededChance(seed)` in the order the engine asks), and nothing here knows
a rule. An action is durable in storage before any connection hears of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import replace

from horserace.core.actions import Action
from horserace.core.errors import IllegalAction, InvalidAction, RecordError
from horserace.drivers.server.connection import Connection, encode
from horserace.drivers.server.fair import FAIR
from horserace.drivers.server.messages import (
    actor_json,
)
from horserace.drivers.server.protocol import (
    Ack,
    Act,
    AnsweringForYou,
    ErrorReply,
    Undo,
    Undone,
)
from horserace.drivers.server.seating import (
    TableRefusal,
    bot_name,
    now,
    refusal_code,
)
from horserace.drivers.server.storage import (
    BOT,
    HUMAN,
    OPEN,
    OVER,
    PLAYING,
    WAITING,
    SeatRow,
)
from horserace.drivers.server.table_base import request_key
from horserace.drivers.server.table_moves import NotStored
from horserace.drivers.server.table_seeds import TableSeeds
from horserace.engine import replay
from horserace.families.presets import get_preset

log = logging.getLogger("horserace.drivers.server")


class TableMaster(TableSeeds):
    """The requests of people: seats, connections, actions, undo, chat."""

    # --- seats ---
    async def join(
        self, name: str, seat: int | None, token_hash: str, commitment: str | None = None
    ) -> int:
        if not name.strip():
            raise TableRefusal("invalid", "a name is needed: type the name others will see")
        async with self.lock:
            if self.status != WAITING:
                raise TableRefusal("over" if self.status == OVER else "waiting", "no seat is open")
            open_seats = [row.seat for row in self.seats if row.kind == OPEN]
            if seat is None:
                if not open_seats:
                    raise TableRefusal("illegal", "every seat is taken")
                seat = open_seats[0]
            if seat not in open_seats:
                raise TableRefusal("illegal", f"seat {seat + 1} is not open")
            self.seats[seat] = replace(
                self.seats[seat], kind=HUMAN, name=name.strip(), token_hash=token_hash
            )
            await self._write(self.storage.save_seats, list(self.seats))
            if commitment is not None and self.chance_mode == FAIR:
                self.commitments[seat] = commitment
                await self._save_settings()
            if any(row.kind == OPEN for row in self.seats):
                self._broadcast_seats()
            else:
                await self._begin()
        self.kick()
        return seat

    async def leave(self, seat: int) -> None:
        """Before the start the seat opens again; during play a bot takes it for good."""
        async with self.lock:
            row = self.seats[seat]
            if self.status == WAITING:
                self.seats[seat] = SeatRow(seat=seat, kind=OPEN, bot=row.bot)
                if self.commitments.pop(seat, None) is not None:
                    await self._save_settings()
            else:
                self.seats[seat] = replace(row, kind=BOT, name=f"{row.name} (bot)", token_hash=None)
                self.away.discard(seat)
                self.stepped_away.discard(seat)
                self.answering.discard(seat)
            await self._write(self.storage.save_seats, list(self.seats))
            for connection in self.connections:
                if connection.seat == seat:
                    self.connections.unseat(connection)
                    connection.seat = None  # it watches from now on
            self._broadcast_seats()
            self.on_change(self)
            if self.revealing and not self._unrevealed():
                await self._set_dice()  # nobody else's seed is awaited
        self.kick()

    async def start(self) -> None:
        """The host starts now: open seats get bots (or, at a companion table, stay for the
        people at the real board, whose moves the host enters)."""
        async with self.lock:
            if self.status != WAITING:
                raise TableRefusal("illegal", "the game has already started")
            if not self.settings.companion:
                self.seats = [
                    replace(row, kind=BOT, name=bot_name(row.seat)) if row.kind == OPEN else row
                    for row in self.seats
                ]
                await self._write(self.storage.save_seats, list(self.seats))
            await self._begin()
        self.kick()

    # --- connections ---
    async def connect(self, connection: Connection, since: int | None) -> None:
        async with self.lock:
            self.touch()
            connection.greeted = True
            seat_changed = self.connections.add(connection)
            # a player the table stood in for while gone takes the seat back; one who stepped
            # away stays away (across a reload too) until they say they are back
            back = connection.seat in self.away and connection.seat not in self.stepped_away
            if back:
                self.away.discard(connection.seat)
            self.connections.send(connection, self._welcome_text(connection, since))
            if back:
                self._broadcast_seats(skip=connection)
            elif seat_changed:
                self.connections.seats_changed(self._broadcast_seats)
            else:
                self.connections.count_changed()
        self.kick()

    async def resync(self, connection: Connection, since: int | None) -> None:
        async with self.lock:
            self.connections.send(connection, self._welcome_text(connection, since))

    def disconnect(self, connection: Connection) -> None:
        """Without the lock and without waiting (a socket's handler may be cancelled while
        it ends): only the audience changes, and what it sends goes out later."""
        self.touch()
        if connection in self.connections:
            if self.connections.remove(connection):
                self.connections.seats_changed(self._broadcast_seats)
            else:
                self.connections.count_changed()
        self.kick()

    # --- a person's move ---
    async def act(self, connection: Connection, message: Act) -> None:
        """Refused with a typed error (and no change) unless every check passes."""
        started = time.perf_counter()
        async with self.lock:
            key = request_key(connection.seat, message.request_id)
            try:
                seat, action = self._check_act(connection, message, key)
                await self.commit(action, seat, key)
            except TableRefusal as refusal:
                known = self.requests.get(key)
                connection.send(
                    ErrorReply(
                        code=refusal_code(refusal.code),
                        message=str(refusal),
                        version=known if refusal.code == "duplicate" else self.version,
                        request_id=message.request_id,
                    ).model_dump(mode="json")
                )
                if self.metrics is not None:
                    self.metrics.refusals.labels(refusal.code).inc()
                return
            except NotStored as failed:
                log.error("table %s could not store a move", self.id, exc_info=failed)
                connection.send(
                    ErrorReply(
                        code="unavailable",
                        message="the move could not be stored; nothing changed, send it again",
                        version=self.version,
                        request_id=message.request_id,
                    ).model_dump(mode="json")
                )
                return
            connection.send(Ack(request_id=message.request_id, version=self.version).model_dump())
            if self.metrics is not None:
                self.metrics.latency.observe(time.perf_counter() - started)
        self.kick()

    def _check_act(
        self, connection: Connection, message: Act, key: str
    ) -> tuple[int | None, Action]:
        if connection.seat is None and not (connection.host and self.settings.companion):
            raise TableRefusal("not-seated", "you are watching this table; take a seat to play")
        if key in self.requests:
            raise TableRefusal("duplicate", "this action was already made")
        if self.status == WAITING:
            raise TableRefusal("waiting", "the game has not started yet")
        if self.revealing:
            raise TableRefusal("waiting", "the players' seeds for the dice are being revealed")
        if self.status == OVER:
            raise TableRefusal("over", "the game is over")
        if message.version != self.version:
            raise TableRefusal(
                "stale", f"the table is at version {self.version}, not {message.version}"
            )
        actor = self.game.actor
        if not self.may_move(connection, actor):
            whose = self.names[actor] if isinstance(actor, int) else actor_json(actor)
            raise TableRefusal("not-your-turn", f"it is {whose}'s turn")
        try:
            action = self.rules.parse_action(self.game.state, message.action)
            self.rules.verify(self.game.state, action)
        except InvalidAction as error:
            raise TableRefusal("invalid", str(error)) from None
        except IllegalAction as error:
            raise TableRefusal("illegal", str(error)) from None
        except (ValueError, OverflowError):  # a text the parser cannot read, such as "²"
            raise TableRefusal("invalid", f"{message.action!r} is no action of this game") from None
        return (actor if isinstance(actor, int) else None), action

    async def undo(self, connection: Connection, message: Undo) -> None:
        """Companion mode: the host takes back the last action a person made (or entered),
        with the bots' moves that followed it; the table is rebuilt by replaying the rest."""
        async with self.lock:
            try:
                if not self.settings.companion:
                    raise TableRefusal("not-companion", "undo is for companion tables")
                if not connection.host:
                    raise TableRefusal("not-host", "only the host may undo")
                if message.version != self.version:
                    raise TableRefusal("stale", f"the table is at version {self.version}")
                keep = self._last_entry()
                if keep is None:
                    raise TableRefusal("nothing-to-undo", "nobody has made a move yet")
            except TableRefusal as refusal:
                connection.send(
                    ErrorReply(
                        code=refusal_code(refusal.code), message=str(refusal), version=self.version
                    ).model_dump(mode="json")
                )
                return
            await self._undo_from(keep)
        self.kick()

    def _last_entry(self) -> int | None:
        """The index of the last step a person made or entered (it carries a request id)."""
        made = set(self.requests.values())
        for index in range(len(self.step_versions) - 1, -1, -1):
            if self.step_versions[index] in made:
                return index
        return None

    async def _undo_from(self, keep: int) -> None:
        """The table as it was before step `keep`: its record up to there replayed (off the
        event loop), the rest of it gone from storage."""
        whole = self.game.record()
        kept = replace(whole, steps=whole.steps[:keep], result=None)
        report = await asyncio.to_thread(replay, kept, get_preset)
        if not report.ok or report.game is None:
            raise RecordError("; ".join(report.problems))
        if self._archive is not None:  # an archive under way is stored before it is dropped
            with contextlib.suppress(Exception):
                await asyncio.shield(self._archive)
        await self._write(self.storage.truncate, keep, self.version + 1)
        self._published, self._archive = None, None
        self.game = report.game
        self.undone.append((self.step_versions[keep - 1] if keep else 0, self.version + 1))
        self.version += 1
        self.last_reset = self.version
        gone = set(self.step_versions[keep:])
        del self.step_versions[keep:]
        del self.step_events[keep:]
        del self.step_news[keep:]
        self.requests = {rid: v for rid, v in self.requests.items() if v not in gone}
        if self.status == OVER:
            self.status = PLAYING
            self.storage.set_status(self.id, PLAYING)
        self.clocked_out = {step for step in self.clocked_out if step < keep}
        for connection in self.connections:
            state = self._state_for(connection)
            connection.send(Undone(version=self.version, state=state).model_dump(mode="json"))

    # --- "answer for me" ---
    async def answer_for_me(self, connection: Connection, on: bool) -> None:
        """A seated person's own choice: the table makes their one legal answer whenever they
        have exactly one, after a person's pause. Told to that seat's connections alone."""
        async with self.lock:
            seat = connection.seat
            if seat is None:
                self._refuse(connection, "not-seated", "take a seat to have answers made for you")
                return
            if on:
                self.answering.add(seat)
            else:
                self.answering.discard(seat)
            told = AnsweringForYou(on=on).model_dump(mode="json")
            for each in self.connections:
                if each.seat == seat:
                    self.connections.send(each, encode(told))
        self.kick()

    # --- a bot in a person's seat, for now ---
    async def stand_in(self, connection: Connection, seat: int, on: bool) -> None:
        """A person steps away (their seat's stand-in bot plays for them) and comes back;
        the host may do the same for a person who is not here. Everyone sees it on the
        seats; a person who connects again takes the seat back, unless they stepped away
        themselves: then only their coming back ends it."""
        async with self.lock:
            mine = connection.seat == seat
            if not (mine or connection.host):
                self._refuse(connection, "not-host", "only the host may hand another's seat over")
                return
            if not 0 <= seat < len(self.seats) or self.seats[seat].kind != HUMAN:
                self._refuse(connection, "illegal", "that seat is not a person's")
                return
            if not mine and on and self.connected(seat):
                self._refuse(connection, "illegal", f"{self.names[seat]} is here: they choose")
                return
            if on:
                self.away.add(seat)
                if mine:
                    self.stepped_away.add(seat)
            else:
                self.away.discard(seat)
                self.stepped_away.discard(seat)
            self._broadcast_seats()
        self.kick()

    # --- the chat ---
    async def say(self, connection: Connection, text: str) -> None:
        """A chat line from a seat or the host, to everyone at the table."""
        async with self.lock:
            refusal: str | None
            if connection.seat is None and not connection.host:
                refusal = "take a seat to chat; watchers read along"
            else:
                refusal = self.chat.refusal(connection, now())
            if refusal is not None:
                connection.send(
                    ErrorReply(
                        code="rate-limited" if "slow" in refusal else "not-seated",
                        message=refusal,
                        version=self.version,
                    ).model_dump(mode="json")
                )
                return
            name = self.names[connection.seat] if connection.seat is not None else "host"
            line = self.chat.add(connection.seat, name, text, now())
            await self._save_settings()  # kept with the table, and published with its record
            self.connections.everyone(line.model_dump(mode="json"))
