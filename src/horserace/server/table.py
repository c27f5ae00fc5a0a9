"""The table master: the one writer of one table.

Every change goes through `TableMaster.lock` in the order authenticate -> authorise ->
validate -> apply -> persist -> broadcast. The engine is the only authority: legality comes
from `rules.legal_actions` / `verify`, moves go through `Game.act` (seats) and `Game.apply`
(chance, drawn from `SeededChance(seed)` in the order the engine asks), and nothing here knows
a rule. An action is durable in storage before any connection hears of it.
"""

from __future__ import annotations

import asyncio
import bisect
import contextlib
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, Literal

from horserace.core.actions import Action
from horserace.core.chance import SeededChance
from horserace.core.errors import IllegalAction, InvalidAction, RecordError
from horserace.core.events import Event
from horserace.core.record import GameRecord, RecordedStep
from horserace.core.types import CHANCE, TERMINAL
from horserace.engine import Game, Step, replay
from horserace.rules.registry import get_preset
from horserace.server.audience import Audience
from horserace.server.bots import bot_family, bot_for_move
from horserace.server.connection import Connection, encode
from horserace.server.fair import FAIR, PLAYER_SEEDS, FairChance, fair_key, seed_hash
from horserace.server.messages import (
    actor_json,
    events_for,
    seat_info,
    seat_names,
    table_state,
)
from horserace.server.ops import Metrics
from horserace.server.protocol import (
    Ack,
    Act,
    ErrorReply,
    MissedStep,
    NextTable,
    Seats,
    TableState,
    Undo,
    Undone,
    Update,
    Welcome,
)
from horserace.server.records import Checked, check_published, published_lines
from horserace.server.seating import (
    CHAT,
    ChatRoom,
    Status,
    TableRefusal,
    TableSettings,
    now,
    refusal_code,
    status_of,
)
from horserace.server.signing import ServerKey
from horserace.server.sql_storage import TableMoved
from horserace.server.storage import (
    BOT,
    HUMAN,
    OPEN,
    OVER,
    PLAYING,
    WAITING,
    SeatRow,
    Storage,
    StoredStep,
    TableRow,
)
from horserace.server.writer import GroupWriter

log = logging.getLogger("horserace.server")
CHANCE_RUN = 64  # chance's moves stored in one write at most
MAX_MISSED = 100  # steps a catch-up sends at most: further behind, a snapshot and the latest


QUICK_ANSWER = (0.5, 1.5)  # a person's "pass", in bot pauses: the table answers as fast


def _nobody(table: TableMaster) -> None:
    """No lobby listens, no other worker takes the table (a table made outside a hub)."""


def request_key(seat: int | None, request_id: str) -> str:
    """Request ids are the client's own: two seats may both send "r-1", so each is kept
    under the seat that sent it (the host of a companion table is its own sender)."""
    who = "host" if seat is None else str(seat)
    return f"{who}:{request_id}"


class TableMaster:
    def __init__(self, row: TableRow, storage: Storage, bot_delay: float = 0.0) -> None:
        preset = get_preset(row.preset)
        self.id = row.id
        self.preset = preset
        self.rules = preset.rules
        self.config = self.rules.make_config(row.config)
        self.seed = row.seed
        self.seed_hash = seed_hash(row.seed)
        self.settings = TableSettings.from_dict(row.settings)
        self.host_hash = row.host_hash
        self.created = row.created
        self.status: Status = status_of(row.status)
        self.seats = list(row.seats)
        self.storage = storage
        self.bot_delay = self.settings.bot_delay(bot_delay)
        self.bots = bot_family(self.rules.family)
        self.game = Game(row.preset, self.rules, self.config, row.seed, row.chance)
        self.chance_mode = row.chance
        seeds = row.settings.get(PLAYER_SEEDS, {})
        self.player_seeds: dict[int, str] = {int(k): str(v) for k, v in seeds.items()}
        self.chance = self._chance()
        self.version = row.version
        self.step_versions: list[int] = []
        self.step_events: list[tuple[Event, ...]] = []
        self.requests: dict[str, int] = {}  # a person's request id -> the version it made
        self.last_reset = 0  # the version made by the last undo
        self.undone: list[tuple[int, int]] = []  # (last version kept, version the undo made)
        self.hurry: object = None  # a spectator's skip: bots move at once while this race runs
        self.chat = ChatRoom(row.settings.get(CHAT, []))
        self.next_table: str | None = None  # the host's next game with these seats
        self.connections = Audience()
        self.last_active = time.monotonic()  # the last change or connection (housekeeping)
        self.on_change: Callable[[TableMaster], None] = _nobody  # the lobby hears of changes
        self.on_moved: Callable[[TableMaster], None] = _nobody  # another worker owns it now
        self._welcomes: dict[tuple[Any, ...], str] = {}  # encoded welcomes at this version
        self.metrics: Metrics | None = None  # the app's, once a hub holds the table
        self.writer: GroupWriter | None = None  # the hub's group writer
        self._published: str | None = None
        self._checked: Checked | None = None
        self.away: set[int] = set()
        self.lock = asyncio.Lock()
        self.tasks: set[asyncio.Task[None]] = set()
        self._driver: asyncio.Task[None] | None = None
        self._timer: asyncio.Task[None] | None = None
        self._timer_version = -1
        self._jitter = secrets.SystemRandom()  # timing only: never the game's chance

    # --- building and resuming ---
    @classmethod
    def restore(
        cls, row: TableRow, steps: Sequence[StoredStep], storage: Storage, bot_delay: float
    ) -> TableMaster:
        """Rebuild a table by replaying its stored actions through the engine (which checks
        every event, and every chance outcome against the seed)."""
        table = cls(row, storage, bot_delay)
        record = GameRecord(
            preset=row.preset,
            config=row.config,
            seed=row.seed,
            chance=row.chance,
            steps=tuple(RecordedStep(s.actor, s.action, s.events) for s in steps),
        )
        chance = table.chance

        def follow(step: Step) -> None:
            table.step_events.append(step.events)
            if chance is not None and step.actor is CHANCE:
                chance.choose(table.rules, step.before)  # keep the generator in step

        report = replay(record, get_preset, observe=follow)
        if not report.ok or report.game is None:
            raise RecordError(f"table {row.id}: " + "; ".join(report.problems))
        table.game = report.game
        for stored in steps:
            table.step_versions.append(stored.version)
            if stored.request_id is not None:
                table.requests[stored.request_id] = stored.version
        return table

    # --- what the lobby shows ---
    @property
    def names(self) -> list[str]:
        return seat_names(self.seats)

    def connected(self, seat: int) -> bool:
        return self.connections.connected(seat)

    def seat_infos(self) -> list[Any]:
        return [
            seat_info(row, self.connected(row.seat), row.seat in self.away) for row in self.seats
        ]

    def summary(self) -> dict[str, Any]:
        """The lobby's line for this table: never a token hash, never the seed before the end."""
        race = self._race()
        return {
            "id": self.id,
            "preset": self.preset.name,
            "title": self.settings.title,
            "status": self.status,
            "version": self.version,
            "players": len(self.seats),
            "open_seats": [row.seat for row in self.seats if row.kind == OPEN],
            "seats": [info.model_dump() for info in self.seat_infos()],
            "turn_seconds": self.settings.turn_seconds,
            "companion": self.settings.companion,
            "seed_hash": self.seed_hash,
            "seed": str(self.seed) if self.status == OVER else None,
            "created": self.created,
            "config": self.rules.config_to_dict(self.config),
            "pace": self.settings.pace,
            "race": race[1] if race is not None else None,
            "next_table": self.next_table,
        }

    def record(self) -> GameRecord:
        """The whole record (seed included): only once the game is over."""
        if self.status != OVER:
            raise TableRefusal("waiting", "the record is published when the game is over")
        return self.game.record()

    def published(self, key: ServerKey) -> str:
        """The record as published once the game is over: chained and signed (a table of
        the fair generator), or the plain record of an older table."""
        if self._published is None:
            record = self.record()
            if self.chance_mode == FAIR:
                chat = [line.model_dump(mode="json") for line in self.chat.lines]
                lines = published_lines(record, key, self.id, self.player_seeds, chat)
            else:
                lines = list(record.lines())
            self._published = "".join(line + "\n" for line in lines)
        return self._published

    async def checked(self, key: ServerKey) -> Checked:
        """The published record checked as anyone would check it (once; it cannot change)."""
        if self._checked is None:
            text = self.published(key)
            self._checked = await asyncio.to_thread(
                check_published, text, table=self.id, published_hash=self.seed_hash
            )
        return self._checked

    # --- seats ---
    def _chance(self) -> SeededChance | FairChance | None:
        """Where the dice come from: the fair generator keyed by the seed and the players'
        seeds; the Mersenne Twister of tables made before it; none at a companion table."""
        if self.chance_mode == FAIR:
            return FairChance(fair_key(self.seed, self.player_seeds))
        return SeededChance(self.seed) if self.chance_mode == "seeded" else None

    def _save_seeds(self) -> None:
        """The settings as stored: the table's own, the players' seeds and the chat."""
        seeds = {str(seat): seed for seat, seed in sorted(self.player_seeds.items())}
        chat = [line.model_dump(mode="json") for line in self.chat.lines]
        stored = {**self.settings.to_dict(), PLAYER_SEEDS: seeds, CHAT: chat}
        self.storage.save_settings(self.id, stored)

    async def join(
        self, name: str, seat: int | None, token_hash: str, seed: str | None = None
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
            self.storage.save_seats(self.id, self.seats)
            if seed is not None and self.chance_mode == FAIR:
                self.player_seeds[seat] = seed
                self._save_seeds()
            starts = not any(row.kind == OPEN for row in self.seats)
            if starts:
                self._start()
            self._broadcast_seats(with_state=starts)
        self.kick()
        return seat

    async def leave(self, seat: int) -> None:
        """Before the start the seat opens again; during play a bot takes it for good."""
        async with self.lock:
            row = self.seats[seat]
            if self.status == WAITING:
                self.seats[seat] = SeatRow(seat=seat, kind=OPEN, bot=row.bot)
                if self.player_seeds.pop(seat, None) is not None:
                    self._save_seeds()
            else:
                self.seats[seat] = replace(row, kind=BOT, name=f"{row.name} (bot)", token_hash=None)
                self.away.discard(seat)
            self.storage.save_seats(self.id, self.seats)
            for connection in self.connections:
                if connection.seat == seat:
                    self.connections.unseat(connection)
                    connection.seat = None  # it watches from now on
            self._broadcast_seats()
            self.on_change(self)
        self.kick()

    async def start(self) -> None:
        """The host starts now: open seats get bots (or, at a companion table, stay for the
        people at the real board, whose moves the host enters)."""
        async with self.lock:
            if self.status != WAITING:
                raise TableRefusal("illegal", "the game has already started")
            if not self.settings.companion:
                self.seats = [
                    replace(row, kind=BOT, name=f"{row.bot} bot") if row.kind == OPEN else row
                    for row in self.seats
                ]
                self.storage.save_seats(self.id, self.seats)
            self._start()
            self._broadcast_seats(with_state=True)
        self.kick()

    def ready_to_start(self) -> bool:
        """No seat is left open (a table of bots alone starts at once)."""
        return not any(row.kind == OPEN for row in self.seats)

    def start_now(self) -> None:
        """Start without the lock: only before any connection or task can reach the table."""
        self._start()

    def _start(self) -> None:
        self.chance = self._chance()  # keyed by every seed the players added before play
        self.status = PLAYING
        self.storage.set_status(self.id, PLAYING)

    def seat_of(self, token_check: Callable[[str | None], bool]) -> int | None:
        """The seat whose stored token hash the check accepts (every seat is checked, so the
        time taken does not say which seat matched)."""
        found = [row.seat for row in self.seats if token_check(row.token_hash)]
        return found[0] if found and self.seats[found[0]].kind == HUMAN else None

    # --- connections ---
    async def connect(self, connection: Connection, since: int | None) -> None:
        async with self.lock:
            self.touch()
            connection.greeted = True
            seat_changed = self.connections.add(connection)
            back = connection.seat is not None and connection.seat in self.away
            if connection.seat is not None:
                self.away.discard(connection.seat)  # the player takes the seat back
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

    def busy(self) -> bool:
        """Something is under way: a move, a bot thinking, a turn timer running."""
        return self.lock.locked() or any(not task.done() for task in self.tasks)

    def touch(self) -> None:
        self.last_active = time.monotonic()

    def _welcome_text(self, connection: Connection, since: int | None) -> str:
        """The welcome, encoded once for every connection that would get the same one at this
        version (a burst of catch-ups on a finished table costs one encoding)."""
        missed_from = self._missed_from(since)
        key = (connection.seat, connection.host, missed_from, self.version, len(self.chat.lines))
        text = self._welcomes.get(key)
        if text is None:
            if len(self._welcomes) > 64 or any(k[3] != self.version for k in self._welcomes):
                self._welcomes.clear()
            text = encode(self._welcome(connection, missed_from).model_dump(mode="json"))
            self._welcomes[key] = text
        return text

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
            )
            for i in range(first, len(self.step_versions))
        ]
        return Welcome(
            table=self.id,
            preset=self.preset.name,
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
        )

    def _state_for(self, connection: Connection, state: Any = None) -> TableState:
        """What `connection` may know of the table now (or of `state`, a step's after)."""
        state = self.game.state if state is None else state
        return table_state(
            self.rules,
            state,
            connection.seat,
            self.status,
            self.seed,
            moves=self.may_move(connection, self.rules.actor(state)),
        )

    def may_move(self, connection: Connection, actor: Any) -> bool:
        """Whose move a connection may make: its own seat's; at a companion table the host
        also enters chance and the moves of seats nobody holds."""
        if isinstance(actor, int) and actor == connection.seat:
            return True
        if not (connection.host and self.settings.companion):
            return False
        return actor is CHANCE or (isinstance(actor, int) and self.seats[actor].kind == OPEN)

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
        if self.status == OVER:
            raise TableRefusal("over", "the game is over")
        if message.version != self.version:
            raise TableRefusal(
                "stale", f"the table is at version {self.version}, not {message.version}"
            )
        actor = self.game.actor
        if not self.may_move(connection, actor):
            whose = f"P{actor + 1}" if isinstance(actor, int) else actor_json(actor)
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
            self._undo_from(keep)
        self.kick()

    def _last_entry(self) -> int | None:
        """The index of the last step a person made or entered (it carries a request id)."""
        made = set(self.requests.values())
        for index in range(len(self.step_versions) - 1, -1, -1):
            if self.step_versions[index] in made:
                return index
        return None

    def _undo_from(self, keep: int) -> None:
        whole = self.game.record()
        report = replay(replace(whole, steps=whole.steps[:keep], result=None), get_preset)
        if not report.ok or report.game is None:
            raise RecordError("; ".join(report.problems))
        self.storage.truncate(self.id, keep, self.version + 1)
        self._published = self._checked = None
        self.game = report.game
        self.undone.append((self.step_versions[keep - 1] if keep else 0, self.version + 1))
        self.version += 1
        self.last_reset = self.version
        gone = set(self.step_versions[keep:])
        del self.step_versions[keep:]
        del self.step_events[keep:]
        self.requests = {rid: v for rid, v in self.requests.items() if v not in gone}
        if self.status == OVER:
            self.status = PLAYING
            self.storage.set_status(self.id, PLAYING)
        self._timer_version = -1
        for connection in self.connections:
            state = self._state_for(connection)
            connection.send(Undone(version=self.version, state=state).model_dump(mode="json"))

    # --- moves ---
    async def commit(
        self, action: Action, seat: int | None = None, request: str | None = None
    ) -> Step:
        """Apply (`Game.act` for a seat, `Game.apply` for chance; the rules verify first),
        persist, then tell everyone (see `_publish`)."""
        mark = self._mark()
        step = self.game.apply(action) if seat is None else self.game.act(seat, action)
        await self._publish(mark, [(step, request)])
        return step

    async def _chance_run(self) -> None:
        """Chance's moves until a seat is to move (a deal of many cards), up to CHANCE_RUN of
        them: applied one after another, stored in one write, then told in order."""
        assert self.chance is not None
        mark = self._mark()
        steps: list[tuple[Step, str | None]] = []
        while len(steps) < CHANCE_RUN and self.game.actor is CHANCE:
            steps.append((self.game.apply(self.chance.choose(self.rules, self.game.state)), None))
        await self._publish(mark, steps)

    def _mark(self) -> tuple[Any, int, int]:
        draws = self.chance.draws if isinstance(self.chance, FairChance) else -1
        return self.game.state, len(self.game.steps), draws

    async def _publish(
        self, mark: tuple[Any, int, int], steps: list[tuple[Step, str | None]]
    ) -> None:
        """Persist the steps just applied (through the group writer when there is one, off
        the event loop; the table's lock is held meanwhile, other tables move on), then tell
        everyone, step by step. If storage fails, the game (and the dice) are put back as
        they were at `mark` and nobody is told."""
        stored = []
        version = self.version
        for step, request in steps:
            version += 1
            recorded = self.game.steps[step.index]
            stored.append(
                StoredStep(
                    step=step.index,
                    version=version,
                    actor=recorded.actor,
                    action=recorded.action,
                    events=recorded.events,
                    request_id=request,
                )
            )
        status: Status = OVER if self.game.over else PLAYING
        try:
            if self.writer is not None:
                await self.writer.append(self.id, stored, status)
            else:
                self.storage.append_steps(
                    [(self.id, row, status if row is stored[-1] else PLAYING) for row in stored]
                )
        except BaseException as error:
            self.game.state = mark[0]
            del self.game.steps[mark[1] :]
            if isinstance(self.chance, FairChance) and mark[2] >= 0:
                self.chance.draws = mark[2]
            if isinstance(error, TableMoved):
                self.on_moved(self)
            raise
        finished = status != self.status
        self.last_active = time.monotonic()
        for (step, request), row in zip(steps, stored, strict=True):
            if self.metrics is not None:
                by = (
                    "person" if request is not None else "chance" if step.actor is CHANCE else "bot"
                )
                self.metrics.actions.labels(by).inc()
            self.version = row.version
            self.status = status if row is stored[-1] else PLAYING
            self.step_versions.append(row.version)
            self.step_events.append(step.events)
            if request is not None:
                self.requests[request] = row.version
            self._broadcast_step(step)
        if finished:
            self.on_change(self)

    def _broadcast_step(self, step: Step) -> None:
        cache: dict[tuple[int | None, bool], str] = {}
        actor = actor_json(step.actor)
        assert actor != "terminal"
        for connection in self.connections:
            key = (connection.seat, connection.host)
            text = cache.get(key)
            if text is None:
                text = encode(
                    Update(
                        version=self.version,
                        step=step.index,
                        actor=actor,
                        events=events_for(step.events, connection.seat, self.names),
                        state=self._state_for(connection, step.after),
                    ).model_dump(mode="json")
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
                    state = self._state_for(connection).model_dump(mode="json")
                    cache[key] = encode({**message, "state": state})
                self.connections.send(connection, cache[key])

    # --- who moves when nobody is asked ---
    def _automatic(self) -> Literal["chance", "bot", "answer"] | None:
        """What the driver does next: draw chance, let a bot (or a stand-in) move, answer for
        a person who has nothing to play but "pay" or "pass", or wait."""
        if self.status != PLAYING:
            return None
        actor = self.game.actor
        if actor is TERMINAL:
            return None
        if actor is CHANCE:
            return "chance" if self.chance is not None else None
        assert isinstance(actor, int)
        row = self.seats[actor]
        if row.kind == BOT or actor in self.away:
            return "bot"
        if self._only_answer(actor) is not None:
            return "answer"
        return None

    def _only_answer(self, seat: int) -> Action | None:
        """The one thing `seat` may do, when that is to pay or pass (holding no card that
        could answer): the table says it for them."""
        legal = self.rules.legal_actions(self.game.state, seat)
        if len(legal) == 1 and legal[0].text in ("pay", "pass"):
            return legal[0]
        return None

    def kick(self) -> None:
        """Make sure the driver runs if anything should happen without a person."""
        if self._driver is None or self._driver.done():
            self._driver = self._spawn(self._drive())

    def _spawn(self, coroutine: Any) -> asyncio.Task[None]:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self._finished)
        return task

    def _finished(self, task: asyncio.Task[None]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("table %s stopped moving", self.id, exc_info=task.exception())

    async def _drive(self) -> None:
        while True:
            async with self.lock:
                move = self._automatic()
                if move is None:
                    self._arm_timer()
                    return
                if move == "chance":
                    await self._chance_run()
                    version = -1
                else:
                    version = self.version
            if version < 0:
                await asyncio.sleep(0)
                continue
            if move == "answer":
                await asyncio.sleep(self._quick_person())
                await self._answer_for(version)
                continue
            await asyncio.sleep(0 if self._hurrying() else self.bot_delay)
            await self._bot_move(version)

    def _quick_person(self) -> float:
        """How long a quick person takes to press "pass": the others must not tell the
        table's answer from theirs, so it takes as long, at random."""
        return self._jitter.uniform(QUICK_ANSWER[0], QUICK_ANSWER[1]) * self.bot_delay

    async def _answer_for(self, version: int) -> None:
        """Pay or pass for the seat, exactly as if they had pressed it (nobody is told)."""
        async with self.lock:
            seat = self.game.actor
            if self.version != version or not isinstance(seat, int):
                return
            if self._automatic() != "answer":
                return
            answer = self._only_answer(seat)
            assert answer is not None
            await self.commit(answer, seat)

    async def _bot_move(self, version: int) -> None:
        """A bot's move at `version`: it decides off the lock, then moves if nothing changed."""
        async with self.lock:
            seat = self.game.actor
            if self.version != version or not isinstance(seat, int):
                return
            if self._automatic() != "bot":
                return
            row = self.seats[seat]
            bot = bot_for_move(self.bots, row.bot, self.seed, seat, len(self.game.steps))
            view = self.rules.view(self.game.state, seat)
            legal = self.rules.legal_actions(self.game.state, seat)
        choice = await asyncio.to_thread(bot.choose, view, legal)
        async with self.lock:
            if self.version == version and self._automatic() == "bot":
                await self.commit(choice, seat)

    # --- spectators of a bots' table, and the chat ---
    def _race(self) -> tuple[str, int] | None:
        """Which race (or round) the table is in: a skip lasts until this changes."""
        view = self.rules.view(self.game.state, None)
        for name in ("round", "race_number", "race"):
            number = getattr(view, name, None)
            if isinstance(number, int):
                return (name, number)
        return None

    def _hurrying(self) -> bool:
        if self.hurry is None:
            return False
        if self.status == PLAYING and self.hurry == self._race():
            return True
        self.hurry = None
        return False

    async def skip(self, connection: Connection) -> None:
        """Bots alone at the table: anyone watching may skip to the end of this race."""
        async with self.lock:
            if any(row.kind != BOT for row in self.seats) or self.status != PLAYING:
                connection.send(
                    ErrorReply(
                        code="illegal",
                        message="skipping is for tables where only bots play",
                        version=self.version,
                    ).model_dump(mode="json")
                )
                return
            self.hurry = self._race()
        if self._driver is not None and not self._driver.done():
            self._driver.cancel()  # it may be sleeping through a bot's pause
        self._driver = None
        self.kick()

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
            self._save_seeds()  # kept with the table, and published with its record
            self.connections.everyone(line.model_dump(mode="json"))

    def moved_to(self, table_id: str) -> None:
        """The host's next game with these seats: every page here follows."""
        self.next_table = table_id
        self.connections.everyone(NextTable(table=table_id).model_dump(mode="json"))

    def _arm_timer(self) -> None:
        """A dropped person's turn: after `turn_seconds` their stand-in bot takes the seat
        (until they come back). A person who is here is never hurried."""
        actor = self.game.actor
        seconds = self.settings.turn_seconds
        if self.status != PLAYING or not isinstance(actor, int) or seconds <= 0:
            return
        if self.seats[actor].kind != HUMAN or self.connected(actor) or actor in self.away:
            return
        pending = self._timer is not None and not self._timer.done()
        if pending and self._timer_version == self.version:
            return
        if self._timer is not None:
            self._timer.cancel()
        self._timer_version = self.version
        self._timer = self._spawn(self._turn_timer(self.version, actor, seconds))

    async def _turn_timer(self, version: int, seat: int, seconds: float) -> None:
        await asyncio.sleep(seconds)
        async with self.lock:
            if self.version != version or self.game.actor != seat or self.connected(seat):
                return
            self.away.add(seat)
            self._broadcast_seats()
        self.kick()

    async def close(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        for task in list(self.tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.connections.close()
