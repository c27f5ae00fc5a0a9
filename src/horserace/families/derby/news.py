"""What a Derby table announces: a line per happening; a turn's dice with the moves they made."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from horserace.core.events import Event
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


class Announcer:
    """Turns each step's events into news lines; remembers the turn's dice as they fall, so the
    sixth die announces all six with the movements they made."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = names
        self.dice: list[int] = []

    def __call__(self, events: Sequence[Event]) -> list[News]:
        names = self.names
        news: list[News] = []
        moves = [e for e in events if isinstance(e, ev.HorseMoved)]
        for event in events:
            if isinstance(event, ev.DieRolled):
                self.dice = [*self.dice[: event.die - 1], event.value]
                if event.die == TURN_DICE:
                    singles = " ".join(map(str, self.dice[:SINGLE_DICE]))
                    zones = " ".join(map(str, self.dice[SINGLE_DICE:]))
                    text = f"turn {event.turn}: singles {singles} | zones {zones}"
                    news.append(News(text, "dice"))
            elif isinstance(event, ev.HorseMoved):
                if event is moves[0]:
                    news.append(News(_moves_text(moves), "move"))
            elif isinstance(event, ev.StuckInMud | ev.MudRolled):
                news.append(News(event.describe(names), "mud"))
            elif isinstance(event, ev.AcceleratorRolled):
                news.append(News(event.describe(names), "accel"))
            elif isinstance(event, ev.HorsePlaced | ev.TieRunsOn):
                news.append(News(event.describe(names), "place"))
            elif isinstance(event, ev.PayoutMade):
                news.append(News(event.describe(names), "money"))
            elif isinstance(event, ev.WagerLost | ev.WagerForfeited):
                news.append(News(event.describe(names), "loss"))
            elif isinstance(event, ev.RaceFinished | ev.RaceStarted | ev.RaceCalled):
                news.append(News(event.describe(names), "race"))
            elif isinstance(event, ev.GameOver):
                news.append(News(event.describe(names), "over"))
            else:
                news.append(News(event.describe(names), "setup"))
        return news
