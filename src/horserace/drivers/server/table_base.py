"""A table's state: built from its row (or replayed from its record), its lobby line and its
published record. The layers above add what each connection is shown (table_views.py),
moves (table_moves.py), the moves nobody is asked for (table_driver.py) and people's
requests (table.py)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Sequence
from typing import Any, Self

from horserace.core.chance import SeededChance
from horserace.core.errors import RecordError
from horserace.core.events import Event, redact
from horserace.core.record import GameRecord, RecordedStep
from horserace.core.types import CHANCE
from horserace.drivers.server.audience import Audience
from horserace.drivers.server.bots import bot_family
from horserace.drivers.server.fair import (
    COMMITMENTS,
    FAIR,
    PLAYER_SEEDS,
    REVEAL_SECONDS,
    REVEALING,
    FairChance,
    fair_key,
    seed_hash,
)
from horserace.drivers.server.limits import StepBudget
from horserace.drivers.server.lobby import room_code
from horserace.drivers.server.messages import seat_info, seat_names
from horserace.drivers.server.ops import Metrics
from horserace.drivers.server.race_break import RaceBreak
from horserace.drivers.server.records import (
    Archive,
    RecordCheck,
    check_published,
    published_lines,
)
from horserace.drivers.server.seating import (
    CHAT,
    ChatRoom,
    Status,
    TableRefusal,
    TableSettings,
    status_of,
)
from horserace.drivers.server.signing import ServerKey
from horserace.drivers.server.storage import (
    BOT,
    HUMAN,
    OPEN,
    OVER,
    PLAYING,
    Storage,
    StoredStep,
    TableRow,
)
from horserace.drivers.server.turn_clock import AnswerPauses, TurnClock
from horserace.drivers.server.writer import GroupWriter
from horserace.engine import Game, Step, replay
from horserace.families import family
from horserace.families.presets import get_preset

log = logging.getLogger("horserace.drivers.server")
CLOCKED_OUT = "clocked_out"  # the settings' key: the steps a bot played when a clock ran out


def _nobody(table: TableBase) -> None:
    """No lobby listens, no other worker takes the table (a table made outside a hub)."""


def viewers_news(
    news: Callable[[Step, Sequence[str], int | None], list[str]],
    step: Step,
    names: Sequence[str],
    players: int,
) -> dict[int | None, list[str]]:
    """Each viewer's log lines of one step (None: a watcher). A family's news sees the viewer
    only through `redact`, so a step whose every event every viewer may see is told once for
    all (most steps: a roll, a bet, a payment), and one with a hidden card once for each
    distinct way it is seen (a dealt card: by its taker, and by everyone else)."""
    viewers = (None, *range(players))
    if all(event.visible_to(seat) for event in step.events for seat in viewers):
        return dict.fromkeys(viewers, news(step, names, None))
    told: list[tuple[list[Event], list[str]]] = []  # each distinct redaction, told once
    found: dict[int | None, list[str]] = {}
    for seat in viewers:
        seen = redact(step.events, seat)
        lines = next((said for shown, said in told if shown == seen), None)
        if lines is None:
            lines = news(step, names, seat)
            told.append((seen, lines))
        found[seat] = lines
    return found


def request_key(seat: int | None, request_id: str) -> str:
    """Request ids are the client's own: two seats may both send "r-1", so each is kept
    under the seat that sent it (the host of a companion table is its own sender)."""
    who = "host" if seat is None else str(seat)
    return f"{who}:{request_id}"


class TableBase:
    def __init__(self, row: TableRow, storage: Storage, bot_delay: float = 0.0) -> None:
        preset = get_preset(row.preset)
        self.id = row.id
        self.preset = preset
        self.rules = preset.rules
        self.config = self.rules.stored_config(row.config)
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
        self.family = family(self.rules.family)  # its news: the log's words, as on a terminal
        self.game = Game(row.preset, self.rules, self.config, row.seed, row.chance)
        self.chance_mode = row.chance
        seeds = row.settings.get(PLAYER_SEEDS, {})
        self.player_seeds: dict[int, str] = {int(k): str(v) for k, v in seeds.items()}  # revealed
        committed = row.settings.get(COMMITMENTS, {})
        self.commitments: dict[int, str] = {int(k): str(v) for k, v in committed.items()}
        self.revealing = bool(row.settings.get(REVEALING, False))  # play waits for the seeds
        self.reveal_seconds = REVEAL_SECONDS
        self._reveal_timer: asyncio.Task[None] | None = None
        self.chance = None if self.revealing else self._chance()
        self.version = row.version
        self.step_versions: list[int] = []
        self.step_events: list[tuple[Event, ...]] = []
        self.step_news: list[dict[int | None, list[str]]] = []  # each viewer's log lines
        self.requests: dict[str, int] = {}  # a person's request id -> the version it made
        self.last_reset = 0  # the version made by the last undo
        self.undone: list[tuple[int, int]] = []  # (last version kept, version the undo made)
        self.hurry: object = None  # a spectator's skip: bots move at once while this race runs
        self.chat = ChatRoom(row.settings.get(CHAT, []))
        self.next_table: str | None = None  # the host's next game with these seats
        self.race_break: RaceBreak | None = None  # the results between races (natural pace)
        self.connections = Audience()
        self.last_active = time.monotonic()  # the last change or connection (housekeeping)
        self.on_change: Callable[[TableBase], None] = _nobody  # the lobby hears of changes
        self.on_moved: Callable[[TableBase], None] = _nobody  # another worker owns it now
        self._welcomes: dict[tuple[Any, ...], str] = {}  # encoded welcomes at this version
        self.metrics: Metrics | None = None  # the app's, once a hub holds the table
        self.writer: GroupWriter | None = None  # the hub's group writer
        self._published: str | None = None
        self._archive: asyncio.Future[Archive] | None = None  # once over: record and check
        self.heavy: asyncio.Semaphore | None = None  # the hub's bound on replays at once
        self.pacer: StepBudget | None = None  # the steps a second its creator's tables share
        self.away: set[int] = set()
        self.stepped_away: set[int] = set()  # away by their own choice: a reload keeps it
        self.lock = asyncio.Lock()
        self.tasks: set[asyncio.Task[None]] = set()
        self._driver: asyncio.Task[None] | None = None
        self._timer: asyncio.Task[None] | None = None
        self._clock_timed: TurnClock | None = None  # the clock the turn timer runs for
        self.clock: TurnClock | None = None  # the turn clock of the person to move
        self.ran_out: tuple[int, int] | None = None  # (version, seat) whose clock ran out
        self.clocked_out = {int(step) for step in row.settings.get(CLOCKED_OUT, [])}
        self.answering: set[int] = set()  # seats whose person asked "answer for me"
        self.pauses = AnswerPauses(row.seed)  # the pause before each such answer, per seat

    # --- building and resuming ---
    @classmethod
    def restore(
        cls, row: TableRow, steps: Sequence[StoredStep], storage: Storage, bot_delay: float
    ) -> Self:
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
            table.remember(step)
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

    def remember(self, step: Step) -> None:
        """Keep a step's events and every viewer's log lines, for clients that missed them
        (a step a bot played when a person's clock ran out says so first, to everyone)."""
        self.step_events.append(step.events)
        news = viewers_news(self.family.news, step, self.names, len(self.seats))
        if step.index in self.clocked_out and isinstance(step.actor, int):
            said = f"{self.names[step.actor]}'s time ran out: a bot plays this turn."
            news = {viewer: [said, *lines] for viewer, lines in news.items()}
        self.step_news.append(news)

    def turn_clock(self) -> TurnClock | None:
        """The clock of the person to move now (none for a bot's turn, chance's, a seat
        played by its stand-in, or a table without a timer), started the first time this
        turn is looked at: every person's turn runs on it, whatever they hold."""
        actor = self.game.actor
        seconds = self.settings.turn_seconds
        timed = (
            self.status == PLAYING
            and not self.revealing
            and isinstance(actor, int)
            and seconds > 0
            and self.seats[actor].kind == HUMAN
            and actor not in self.away
            and self.race_break is None  # a clock starts once the results are seen
        )
        if not timed or not isinstance(actor, int):
            self.clock = None
        elif self.clock is None or (self.clock.version, self.clock.seat) != (self.version, actor):
            self.clock = TurnClock.start(self.version, actor, seconds)
        return self.clock

    def stood_in(self, seat: int) -> bool:
        """A bot plays `seat` now: a bot's seat, a person's played by its stand-in (they
        dropped), or a person's whose clock ran out on this turn."""
        kind = self.seats[seat].kind
        return kind == BOT or seat in self.away or self.ran_out == (self.version, seat)

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
            "private": self.settings.private,
            "room": room_code(self.id),
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
                lines = published_lines(
                    record, key, self.id, self.player_seeds, self.commitments, chat
                )
            else:
                lines = list(record.lines())
            self._published = "".join(line + "\n" for line in lines)
        return self._published

    @property
    def archiving(self) -> bool:
        """Its archive is made, or under way."""
        return self._archive is not None

    async def paced(self) -> None:
        """Before a move nobody is asked for: wait while the steps a second of the tables
        its creator made are spent (a flood of bot tables from one address shares one
        budget, and the other tables keep their pace)."""
        if self.pacer is not None:
            delay = self.pacer.wait_seconds()
            if delay > 0:
                await asyncio.sleep(delay)

    async def archive(self, key: ServerKey) -> Archive:
        """Once the game is over: its published record and the check of it, worked out once
        (off the event loop, at most `heavy` tables at a time: a long table's replay takes
        seconds) and stored, so every later request is answered from storage."""
        if self.status != OVER:
            raise TableRefusal("waiting", "the record is published when the game is over")
        if self._archive is None:
            made = self._archive = asyncio.ensure_future(self._make_archive(key))

            def forget_failure(done: asyncio.Future[Archive]) -> None:
                if (done.cancelled() or done.exception() is not None) and self._archive is made:
                    self._archive = None  # the next request tries again

            made.add_done_callback(forget_failure)
        return await asyncio.shield(self._archive)

    async def _make_archive(self, key: ServerKey) -> Archive:
        async with self.heavy or contextlib.nullcontext():
            stored = await asyncio.to_thread(self.storage.load_published, self.id)
            if stored is not None:
                return Archive(stored[0], RecordCheck.from_dict(stored[1]))
            text = await asyncio.to_thread(self.published, key)
            checked = await asyncio.to_thread(
                check_published, text, table=self.id, published_hash=self.seed_hash
            )
            await asyncio.to_thread(self.storage.save_published, self.id, text, checked.to_dict())
        return Archive(text, checked)

    # --- seats ---
    def _chance(self) -> SeededChance | FairChance | None:
        """Where the dice come from: the fair generator keyed by the seed and the players'
        seeds; the Mersenne Twister of tables made before it; none at a companion table."""
        if self.chance_mode == FAIR:
            return FairChance(fair_key(self.seed, self.player_seeds))
        return SeededChance(self.seed) if self.chance_mode == "seeded" else None

    async def _write(self, write: Callable[..., None], *values: Any) -> None:
        """A change to the table's row, made off the event loop (other tables move on while
        it waits for the disk); the caller holds the table's lock."""
        await asyncio.to_thread(write, self.id, *values)

    async def _save_settings(self) -> None:
        """The settings as stored: the table's own, the players' commitments and seeds, the
        chat, and the steps a bot played when a person's clock ran out."""
        seeds = {str(seat): seed for seat, seed in sorted(self.player_seeds.items())}
        committed = {str(seat): hashed for seat, hashed in sorted(self.commitments.items())}
        chat = [line.model_dump(mode="json") for line in self.chat.lines]
        stored = {
            **self.settings.to_dict(),
            PLAYER_SEEDS: seeds,
            COMMITMENTS: committed,
            REVEALING: self.revealing,
            CHAT: chat,
            CLOCKED_OUT: sorted(self.clocked_out),
        }
        await self._write(self.storage.save_settings, stored)

    def ready_to_start(self) -> bool:
        """No seat is left open (a table of bots alone starts at once)."""
        return not any(row.kind == OPEN for row in self.seats)

    def start_now(self) -> None:
        """Start without the lock: only before any connection or task can reach the table."""
        self._start()
        self.storage.set_status(self.id, PLAYING)

    def _start(self) -> None:
        """Play starts (the caller stores the new status): the commitments close; the dice
        are set now when nobody committed, else once the seeds are revealed (table_seeds.py)."""
        self.status = PLAYING
        self.revealing = self.chance_mode == FAIR and bool(self.commitments)
        self.chance = None if self.revealing else self._chance()

    def seat_of(self, token_check: Callable[[str | None], bool]) -> int | None:
        """The seat whose stored token hash the check accepts (every seat is checked, so the
        time taken does not say which seat matched)."""
        found = [row.seat for row in self.seats if token_check(row.token_hash)]
        return found[0] if found and self.seats[found[0]].kind == HUMAN else None

    # --- connections ---
    def busy(self) -> bool:
        """Something is under way: a move, a bot thinking, a turn timer running."""
        return self.lock.locked() or any(not task.done() for task in self.tasks)

    def touch(self) -> None:
        self.last_active = time.monotonic()

    def _race(self) -> tuple[str, int] | None:
        """Which race (or round) the table is in: a skip lasts until this changes."""
        view = self.rules.view(self.game.state, None)
        for name in ("round", "race_number", "race"):
            number = getattr(view, name, None)
            if isinstance(number, int):
                return (name, number)
        return None

    async def close(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        for task in list(self.tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.connections.close()
