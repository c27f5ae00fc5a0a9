"""What a Derby table announces: a line per happening; a turn's dice with the moves they made."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from horserace.core.events import Event
from horserace.engine import Step
from horserace.families.derby.rules import events as ev
from horserace.families.derby.rules.race import SINGLE_DICE, TURN_DICE
from horserace.terminal.screen import News as TerminalNews

NEWS_STYLES: Mapping[str, str] = {
    "setup": "",
    "dice": "bold",
    "move": "",
    "mud": "orange3",
    "accel": "yellow",
    "place": "bold green",
    "money": "green",
    "loss": "red",
    "race": "bold cyan",
    "over": "bold magenta",
    "info": "",
}


class News(TerminalNews):
    STYLES = NEWS_STYLES
    QUIET = frozenset({"move", "dice"})


def _moves_text(moves: Sequence[ev.HorseMoved]) -> str:
    parts = []
    for move in moves:
        how = {"single": "", "double": " double", "zone": " zone", "accelerator": " accel"}
        extra = f" mud try {move.mud_try}" if move.mud_try else ""
        parts.append(f"{move.horse} {move.start}→{move.end}{how.get(move.cause, '')}{extra}")
    return "moves: " + ", ".join(parts)


def table_news(step: Step, names: Sequence[str], viewer: int | None) -> list[News]:
    """The log lines of one step (Derby hides nothing, so every viewer reads the same): what
    the terminal prints, the web table shows and a replay tells."""
    race = getattr(step.before, "race", None)
    earlier = tuple(race.dice) if race is not None else ()
    return step_news(step.events, names, earlier)


class Announcer:
    """Turns each step's events into news lines for a screen that is shown only the events;
    remembers the turn's dice as they fall, so the sixth die announces all six."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = names
        self.dice: tuple[int, ...] = ()

    def __call__(self, events: Sequence[Event]) -> list[News]:
        news = step_news(events, self.names, self.dice)
        for event in events:
            if isinstance(event, ev.DieRolled):
                self.dice = (*self.dice[: event.die - 1], event.value)
        return news


def step_news(events: Sequence[Event], names: Sequence[str], earlier: Sequence[int]) -> list[News]:
    """A line per happening, in order; `earlier` are this turn's dice rolled in earlier steps,
    so the sixth die announces all six with the movements they made."""
    news: list[News] = []
    dice = list(earlier)
    moves = [e for e in events if isinstance(e, ev.HorseMoved)]
    for event in events:
        if isinstance(event, ev.DieRolled):
            dice = [*dice[: event.die - 1], event.value]
            if event.die == TURN_DICE:
                singles = " ".join(map(str, dice[:SINGLE_DICE]))
                zones = " ".join(map(str, dice[SINGLE_DICE:]))
                text = f"turn {event.turn}: singles {singles} | zones {zones}"
                news.append(News(text, "dice", (event,)))
        elif isinstance(event, ev.HorseMoved):
            if event is moves[0]:
                news.append(News(_moves_text(moves), "move", tuple(moves)))
        else:
            news.append(News(event.describe(names), _kind(event), (event,)))
    return news


def _kind(event: Event) -> str:
    for classes, kind in KINDS:
        if isinstance(event, classes):
            return kind
    return "setup"


KINDS: tuple[tuple[tuple[type[Event], ...], str], ...] = (
    ((ev.StuckInMud, ev.MudRolled), "mud"),
    ((ev.AcceleratorRolled,), "accel"),
    ((ev.HorsePlaced, ev.TieRunsOn), "place"),
    ((ev.PayoutMade,), "money"),
    ((ev.WagerLost, ev.WagerForfeited), "loss"),
    ((ev.RaceFinished, ev.RaceStarted, ev.RaceCalled), "race"),
    ((ev.GameOver,), "over"),
)
