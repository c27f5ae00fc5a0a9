"""The one play loop every driver uses, and replay, which re-runs a record through the rules."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from horserace.core.actions import Action
from horserace.core.chance import ChanceSource, SeededChance
from horserace.core.errors import HorseraceError, IllegalAction, RecordError
from horserace.core.events import Event
from horserace.core.record import GameRecord, Journal, RecordedStep
from horserace.core.rules import Result, Rules, Standing
from horserace.core.types import CHANCE, TERMINAL, Actor, actor_text, is_whole_number


class Agent(Protocol):
    """A seat's decision maker (bot or person): sees its view and the legal actions only.

    An agent with `reads_view = False` (the random bot) is handed None instead of a view, so
    a game between such agents never builds one, unless it asks for one for a given choice
    (`wants_view(legal)`: the random bot's choices that cost money)."""

    def choose(self, view: Any, legal: Sequence[Action]) -> Action: ...


def needs_view(agent: Agent, legal: Sequence[Action]) -> bool:
    """Whether `agent` is handed a view for this choice (see Agent)."""
    if getattr(agent, "reads_view", True):
        return True
    wants = getattr(agent, "wants_view", None)
    return wants is not None and bool(wants(legal))


class PlayedStep:
    """One step of a game's record, kept as the objects it was made of: the text and the
    events' JSON are made only when someone reads them (writing the record, storing it)."""

    __slots__ = ("_action", "_actor", "_events", "_json")

    def __init__(self, actor: Actor, action: Action, events: tuple[Event, ...]) -> None:
        self._actor, self._action, self._events = actor, action, events
        self._json: tuple[dict[str, Any], ...] | None = None

    @property
    def actor(self) -> str:
        return actor_text(self._actor)

    @property
    def action(self) -> str:
        return self._action.text

    @property
    def events(self) -> tuple[dict[str, Any], ...]:
        if self._json is None:
            self._json = tuple(event.to_json() for event in self._events)
        return self._json

    def recorded(self) -> RecordedStep:
        return RecordedStep(self.actor, self.action, self.events)


@dataclass(frozen=True, slots=True)
class Step:
    """One applied action, as observers (renderers, statistics) receive it."""

    index: int
    actor: Actor
    action: Action
    before: Any
    after: Any
    events: tuple[Event, ...]


def result_to_json(result: Result) -> dict[str, Any]:
    return {
        "winners": list(result.winners),
        "standings": [_standing_json(s) for s in result.standings],
        "unclaimed": result.unclaimed,
    }


def _standing_json(standing: Standing) -> dict[str, Any]:
    row = {"seat": standing.seat, "chips": standing.chips, "place": standing.place}
    if standing.out is not None:
        row["out"] = standing.out
    return row


@dataclass
class Game:
    """A table in progress: rules, config and the current state, with its record so far."""

    preset: str
    rules: Rules[Any, Any]
    config: Any
    seed: int | None
    chance_mode: str
    state: Any = None
    steps: list[PlayedStep | RecordedStep] = field(default_factory=list)
    seating: dict[str, Any] | None = None  # who sits where, kept in the record's header
    journal: Journal | None = None  # the record on disk, appended to as each step is played

    def __post_init__(self) -> None:
        if self.state is None:
            self.state = self.rules.initial_state(self.config)

    @property
    def actor(self) -> Actor:
        return self.rules.actor(self.state)

    @property
    def over(self) -> bool:
        return self.actor is TERMINAL

    def act(self, seat: int, action: Action) -> Step:
        """A seat's move: refused (IllegalAction) unless it is that seat's turn and allowed."""
        actor = self.actor
        if actor != seat:
            self.rules.refuse_out_of_turn(self.state, seat)
            whose = (
                f"seat {actor + 1}'s turn" if isinstance(actor, int) else f"{actor.value}'s turn"
            )
            raise IllegalAction(f"seat {seat + 1} cannot act now: it is {whose}")
        return self.apply(action)

    def apply(self, action: Action) -> Step:
        """Apply through the rules (which verify first) and append to the record."""
        before = self.state
        actor = self.rules.actor(before)
        events = self._advance(actor, action)
        return Step(len(self.steps) - 1, actor, action, before, self.state, events)

    def _advance(self, actor: Actor, action: Action) -> tuple[Event, ...]:
        """`apply` for the play loop, which knows whose turn it is and keeps no Step."""
        self.state, events = self.rules.apply(self.state, action)
        self.steps.append(PlayedStep(actor, action, events))
        if self.journal is not None:
            self._journal_last()
        return events

    def _journal_last(self) -> None:
        """The step just played onto the record on disk, and the result if it ended the game."""
        assert self.journal is not None
        self.journal.step(self.steps[-1])
        if self.over:
            self.journal.result(result_to_json(self.rules.result(self.state)))

    def record(self) -> GameRecord:
        result = result_to_json(self.rules.result(self.state)) if self.over else None
        return GameRecord(
            preset=self.preset,
            config=self.rules.config_to_dict(self.config),
            seed=self.seed,
            chance=self.chance_mode,
            steps=tuple(
                step.recorded() if isinstance(step, PlayedStep) else step for step in self.steps
            ),
            result=result,
            seating=self.seating,
        )

    def undo(self) -> tuple[str, ...]:
        """Withdraw the last outcome typed in (companion mode) and every step that followed it.

        Nothing is erased: the record keeps what was typed and gains an undo line, whose event
        names the withdrawn actions; replaying the record withdraws them again. Returns the
        withdrawn actions' texts (none when nothing typed in is left to withdraw)."""
        kept = standing_steps(self.steps)
        rules = self.rules
        state = rules.initial_state(self.config)
        typed: list[tuple[int, Any]] = []  # (index in kept, state before) of each typed outcome
        for index, step in enumerate(kept):
            if step.actor == CHANCE_TEXT and rules.forced_chance(state) is None:
                typed.append((index, state))
            state, _ = rules.apply(state, rules.parse_action(state, step.action))
        if not typed:
            return ()
        cut, self.state = typed[-1]
        withdrawn = tuple(step.action for step in kept[cut:])
        event = {"type": WITHDRAWN, "actions": list(withdrawn)}
        self.steps.append(RecordedStep(CHANCE_TEXT, UNDO, (event,)))
        if self.journal is not None:
            self._journal_last()
        return withdrawn


UNDO = "undo"  # the action text of a record's undo line
WITHDRAWN = "withdrawn"  # the type of its one event
CHANCE_TEXT = actor_text(CHANCE)


def standing_steps(
    steps: Sequence[PlayedStep | RecordedStep],
) -> list[PlayedStep | RecordedStep]:
    """The steps still in force: each undo line withdraws the steps its event names."""
    kept: list[PlayedStep | RecordedStep] = []
    for step in steps:
        if step.actor == CHANCE_TEXT and step.action == UNDO:
            del kept[len(kept) - len(step.events[0]["actions"]) :]
        else:
            kept.append(step)
    return kept


def play(
    game: Game,
    agents: Mapping[int, Agent],
    chance: ChanceSource,
    observe: Callable[[Step], None] | None = None,
    max_steps: int = 1_000_000,
    tally: Callable[[tuple[Event, ...]], None] | None = None,
) -> Game:
    """Run `game` to its end: chance from `chance`, every seat's move from its agent.

    `observe` sees every Step; `tally` (for simulations) sees only each step's events, and
    then the game keeps no record of its steps."""
    rules = game.rules
    for _ in range(max_steps):
        state = game.state
        actor = rules.actor(state)
        if actor is TERMINAL:
            return game
        if actor is CHANCE:
            action = chance.choose(rules, state)
        else:
            legal = rules.legal_actions(state, actor)
            agent = agents[actor]
            view = rules.view(state, actor) if needs_view(agent, legal) else None
            action = agent.choose(view, legal)
        if observe is not None:
            observe(game.apply(action))
        elif tally is not None:
            game.state, events = rules.apply(state, action)
            tally(events)
        else:
            game._advance(actor, action)
    raise HorseraceError(f"the game did not end within {max_steps} steps")


@dataclass(frozen=True)
class ReplayReport:
    """What replaying a record found: `problems` is empty when every step checked out."""

    steps_checked: int
    problems: tuple[str, ...]
    game: Game | None

    @property
    def ok(self) -> bool:
        return not self.problems


def first_difference(recorded: Sequence[Any], played: Sequence[Any]) -> str:
    """The first event where a record and the rules part, in words a reader can check: a
    record written under an earlier reading of a rule stops here."""
    for number, (want, got) in enumerate(zip(recorded, played, strict=False), start=1):
        if want != got:
            return (
                f"event {number}: the record has {_compact(want)}, the rules give {_compact(got)}"
            )
    if len(recorded) > len(played):
        return f"the record has more: {_compact(recorded[len(played)])}"
    return f"the rules give more: {_compact(played[len(recorded)])}"


def _compact(event: Any) -> str:
    return json.dumps(event, sort_keys=True, separators=(",", ":"))


def replay(
    record: GameRecord,
    resolve: Callable[[str], Any],
    observe: Callable[[Step], None] | None = None,
) -> ReplayReport:
    """Re-run `record`; report the first step whose actor, legality, events or dice differ.

    `resolve` maps a preset name to its Preset (kept as a parameter so the core does not
    import the registry). Seeded chance is re-drawn from the seed and must match.
    """
    try:
        preset = resolve(record.preset)
        config = preset.rules.stored_config(record.config)
    except HorseraceError as error:
        return ReplayReport(0, (f"header: {error}",), None)
    game = Game(record.preset, preset.rules, config, record.seed, record.chance)
    redraw = (
        SeededChance(record.seed) if record.chance == "seeded" and record.seed is not None else None
    )
    for index, recorded in enumerate(record.steps):
        where = f"step {index} ({recorded.actor}: {recorded.action!r})"
        if recorded.actor == CHANCE_TEXT and recorded.action == UNDO:
            if record.chance != "typed":
                return ReplayReport(
                    index, (f"{where}: only typed-in outcomes can be undone",), game
                )
            game.undo()
            if game.steps[-1].events != recorded.events:
                problem = f"{where}: the record withdraws other steps than the undo does"
                return ReplayReport(index, (problem,), game)
            continue
        actor = game.actor
        if actor_text(actor) != recorded.actor:
            try:
                if is_whole_number(recorded.actor):
                    game.rules.refuse_out_of_turn(game.state, int(recorded.actor))
            except IllegalAction as error:
                return ReplayReport(index, (f"{where}: {error}",), game)
            return ReplayReport(index, (f"{where}: it is {actor_text(actor)}'s turn",), game)
        try:
            action = game.rules.parse_action(game.state, recorded.action)
            if redraw is not None and actor is CHANCE:
                expected = redraw.choose(game.rules, game.state)
                if expected.text != action.text:
                    problem = f"{where}: the seed gives {expected.text!r} here"
                    return ReplayReport(index, (problem,), game)
            step = game.apply(action)
        except (HorseraceError, IllegalAction) as error:
            return ReplayReport(index, (f"{where}: {error}",), game)
        played = tuple(e.to_json() for e in step.events)
        if played != tuple(recorded.events):
            differs = first_difference(recorded.events, played)
            problem = f"{where}: the events differ from the record ({differs})"
            return ReplayReport(index, (problem,), game)
        if observe is not None:
            observe(step)
    steps = len(record.steps)
    if record.result is not None:
        if not game.over:
            return ReplayReport(
                steps, ("the record claims a result but the game is not over",), game
            )
        actual = result_to_json(game.rules.result(game.state))
        if actual != record.result:
            return ReplayReport(steps, ("the recorded result differs from the replayed one",), game)
    return ReplayReport(steps, (), game)


def require_replays(record: GameRecord, resolve: Callable[[str], Any]) -> Game:
    """Replay or raise RecordError: for callers that want the game or an exception."""
    report = replay(record, resolve)
    if not report.ok or report.game is None:
        raise RecordError("; ".join(report.problems))
    return report.game
