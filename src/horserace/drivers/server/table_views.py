"""What each connection is shown: the welcome with its bounded catch-up (a snapshot of the
seat's view and at most MAX_MISSED steps after it, encoded once for everyone who would get
the same), each step's update, and the seat list."""

from __future__ import annotations

import bisect
from typing import Any

from horserace.core.types import CHANCE
from horserace.drivers.server.connection import Connection, encode
from horserace.drivers.server.messages import actor_json, events_for, state_model, table_state_data
from horserace.drivers.server.protocol import (
    MissedStep,
    NextTable,
    RevealState,
    Seats,
    TableState,
    Welcome,
)
from horserace.drivers.server.storage import OPEN
from horserace.drivers.server.table_base import TableBase
from horserace.engine import Step
from horserace.families import family

MAX_MISSED = 100  # steps a catch-up sends at most: further behind, a snapshot and the latest


class TableViews(TableBase):
    # --- a connection's welcome and catch-up ---
    def _welcome_text(self, connection: Connection, since: int | None) -> str:
        """The welcome, encoded once for every connection that would get the same one at this
        version (a burst of catch-ups on a finished table costs one encoding)."""
        missed_from = self._missed_from(since)
        key = (
            connection.seat,
            connection.host,
            missed_from,
            self.version,
            len(self.chat.lines),
            (self.revealing, len(self.player_seeds)),
            self._seats_now(),  # a join, a leave or a connection changes no version
            self._deadline(self.game.state),
            connection.seat in self.answering,
            None if self.race_break is None else str(self.race_break.data()),
        )
        text = self._welcomes.get(key)
        if text is None:
            if len(self._welcomes) > 64 or any(k[3] != self.version for k in self._welcomes):
                self._welcomes.clear()
            text = encode(self._welcome(connection, missed_from).model_dump(mode="json"))
            self._welcomes[key] = text
        return text

    def _seats_now(self) -> tuple[tuple[str, str, bool, bool], ...]:
        """Who sits where, who is here and who is away, as the welcome shows them."""
        return tuple(
            (row.kind, row.name, self.connected(row.seat), row.seat in self.away)
            for row in self.seats
        )

    def _missed_from(self, since: int | None) -> tuple[int, bool]:
        """(index of the first step to send, resync): at most MAX_MISSED steps are ever sent;
        a client further behind (or behind an undo) gets the snapshot with the latest steps
        for its log, and `resync` says the log is not complete."""
        end = len(self.step_versions)
        if since is None or since == self.version:
            return end, False
        if since > self.version:  # it saw what is no more
            return max(0, end - MAX_MISSED), True
        first = bisect.bisect_right(self.step_versions, since)
        undone = any(kept < since < made for kept, made in self.undone)
        if undone or end - first > MAX_MISSED:
            return max(0, end - MAX_MISSED), True
        return first, False

    def _welcome(self, connection: Connection, missed_from: tuple[int, bool]) -> Welcome:
        seat = connection.seat
        first, resync = missed_from
        missed = [
            MissedStep(
                version=self.step_versions[i],
                events=events_for(self.step_events[i], seat, self.names),
                news=self.step_news[i].get(seat, []),
            )
            for i in range(first, len(self.step_versions))
        ]
        return Welcome(
            table=self.id,
            preset=self.preset.name,
            family=self.rules.family,
            money=family(self.rules.family).money,
            title=self.settings.title,
            seat=seat,
            host=connection.host,
            companion=self.settings.companion,
            version=self.version,
            seed_hash=self.seed_hash,
            turn_seconds=self.settings.turn_seconds,
            seats=self.seat_infos(),
            state=self._state_for(connection),
            missed=missed,
            resync=resync,
            pace=self.settings.pace,
            chat=self.chat.lines,
            next_table=self.next_table,
            answer_for_me=seat in self.answering,
        )

    def _state_for(self, connection: Connection, state: Any = None) -> TableState:
        """What `connection` may know of the table now (or of `state`, a step's after)."""
        return state_model(self._state_data(connection, state))

    def _state_data(self, connection: Connection, state: Any = None) -> dict[str, Any]:
        """`_state_for` as plain data, for the encoder without a pydantic model between."""
        state = self.game.state if state is None else state
        moves = not self.revealing and self.may_move(connection, self.rules.actor(state))
        reveal = None
        if self.revealing:
            reveal = RevealState(
                commitments={str(seat): hashed for seat, hashed in self.commitments.items()},
                revealed=sorted(self.player_seeds),
            )
        data = table_state_data(
            self.rules,
            state,
            connection.seat,
            self.status,
            self.seed,
            moves,
            reveal,
            self._deadline(state),
        )
        shown = self.race_break
        now = shown is not None and state is self.game.state
        data["race_break"] = shown.data() if shown is not None and now else None
        return data

    def _deadline(self, state: Any) -> float | None:
        """When the clock of the person to move runs out, for the table's latest state."""
        clock = self.turn_clock() if state is self.game.state else None
        return None if clock is None else round(clock.deadline, 3)

    def may_move(self, connection: Connection, actor: Any) -> bool:
        """Whose move a connection may make: its own seat's; at a companion table the host
        also enters chance and the moves of seats nobody holds."""
        if isinstance(actor, int) and actor == connection.seat:
            return True
        if not (connection.host and self.settings.companion):
            return False
        return actor is CHANCE or (isinstance(actor, int) and self.seats[actor].kind == OPEN)

    # --- what everyone is told ---
    def _broadcast_step(self, step: Step) -> None:
        cache: dict[tuple[int | None, bool], str] = {}
        actor = actor_json(step.actor)
        assert actor != "terminal"
        for connection in self.connections:
            key = (connection.seat, connection.host)
            text = cache.get(key)
            if text is None:
                # an `Update` (protocol.py) as plain data: the hottest message is not
                # validated again field by field, only encoded
                text = encode(
                    {
                        "type": "update",
                        "version": self.version,
                        "step": step.index,
                        "actor": actor,
                        "events": events_for(step.events, connection.seat, self.names),
                        "news": self.step_news[-1].get(connection.seat, []),
                        "state": self._state_data(connection, step.after),
                    }
                )
                cache[key] = text
            self.connections.send(connection, text)

    def _broadcast_seats(self, skip: Connection | None = None, with_state: bool = False) -> None:
        """Who sits where; `with_state` (the start) adds each viewer's state, so the first
        move is offered without a reload."""
        self.connections.seats_sent()
        self.on_change(self)
        message = Seats(
            version=self.version, status=self.status, seats=self.seat_infos()
        ).model_dump(mode="json", exclude={"state"})
        if not with_state:
            self.connections.everyone(message, skip=skip)
            return
        cache: dict[tuple[int | None, bool], str] = {}
        for connection in self.connections:
            if connection is not skip and connection.greeted:
                key = (connection.seat, connection.host)
                if key not in cache:
                    state = self._state_data(connection)
                    cache[key] = encode({**message, "state": state})
                self.connections.send(connection, cache[key])

    def moved_to(self, table_id: str) -> None:
        """The host's next game with these seats: every page here follows."""
        self.next_table = table_id
        self.connections.everyone(NextTable(table=table_id).model_dump(mode="json"))
