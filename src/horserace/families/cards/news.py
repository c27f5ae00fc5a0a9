"""What a card-race table announces, a line per happening in the order it happened: the card
turned with what it did, each bet, bid and pass (a bot's as a person's), each payment. The same
lines on the terminal, the web table and a replay."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from horserace.components.french_deck import card_text
from horserace.core.events import Event, redact, seat_name
from horserace.engine import Step
from horserace.families.cards.rules import events as ev
from horserace.terminal.screen import News as TerminalNews

NEWS_STYLES = {
    "move": "",
    "link": "yellow",
    "joker": "bold magenta",
    "finish": "bold green",
    "bet": "cyan",
    "auction": "cyan",
    "pay": "green",
    "course": "",
    "race": "bold",
    "over": "bold magenta",
    "info": "",
}
KINDS: tuple[tuple[tuple[type[Event], ...], str], ...] = (
    ((ev.BetPlaced, ev.SuitPicked, ev.BookOpened), "bet"),
    ((ev.LotOpened, ev.BidMade, ev.BidPassed, ev.HorseSold, ev.CourseSorted), "auction"),
    ((ev.Payment, ev.PoolSettled), "pay"),
    ((ev.RaceStarted, ev.RaceOver, ev.CourseRedealt), "race"),
    ((ev.GameOver,), "over"),
    ((ev.CourseJokerDiscarded,), "joker"),
    ((ev.CourseCardDealt, ev.CourseCardFaceDown), "course"),
)


class News(TerminalNews):
    """One announcement; `kind` picks its colour (moves are not kept on screen)."""

    STYLES = NEWS_STYLES
    QUIET = frozenset({"move", "course"})


def table_news(step: Step, names: Sequence[str], viewer: int | None) -> list[News]:
    """The log lines of one step as `viewer` may see them (None: a spectator); a deal of the
    course starts with its one line (`deal_news`)."""
    events = redact(step.events, viewer)
    lines = step_news(events, names)
    first = next((e for e in events if isinstance(e, FIRST_LINK) and e.link == 1), None)
    if first is None or not _deal_starts(step.before):
        return lines
    at = next(i for i, line in enumerate(lines) if first in line.covers)
    return [*lines[:at], deal_news(step.after, names, first), *lines[at:]]


FIRST_LINK = (ev.CourseCardDealt, ev.CourseCardFaceDown, ev.CourseJokerDiscarded)


def _deal_starts(state: Any) -> bool:
    """The step deals the first card of a course: after a joker discarded for link 1, the
    card dealt there is not the first."""
    return not state.course and not state.discarded


def deal_news(state: Any, names: Sequence[str], first: Event) -> News:
    """Who deals the course, how many cards, face up or down (a card race deals no hands)."""
    config = state.config
    face = "face down" if config.faltering else "face up"
    who = seat_name(names, state.dealer)
    text = f"Race {state.race}: {who} deals the course, {config.course_length} cards {face}"
    return News(text, "race", (first,))


def step_news(events: Sequence[Event], names: Sequence[str]) -> list[News]:
    """A line per happening worth saying; what a turned card did is prefixed with the card."""
    news: list[News] = []
    card = ""
    turned: tuple[Event, ...] = ()
    for index, event in enumerate(events):
        if isinstance(event, ev.CardTurned):
            if turned:
                news.append(News(card + "no horse moves", "move", turned))
            card, turned = f"{card_text(event.card)}: ", (event,)
            continue
        if isinstance(event, ev.HorseMoved):
            if _finishes(events, index):  # its finish line tells it: no link past the course
                turned = (*turned, event)
                continue
            text = f"{ev.horse_name(event.suit)} to link {event.position}"
            news.append(News(card + text, "move", (*turned, event)))
        elif isinstance(event, ev.HorseFinished):
            news.append(News(card + event.describe(names), "finish", (*turned, event)))
        elif isinstance(event, ev.LinkTurned | ev.HorseFellBack):
            news.append(News(card + event.describe(names), "link", (*turned, event)))
        elif isinstance(event, ev.JokerTurned):
            news.append(News(event.describe(names), "joker", (*turned, event)))
        else:
            if turned:
                news.append(News(card + "no horse moves", "move", turned))
            turned = ()
            news.extend(_other_news(event, names))
            continue
        turned = ()
    if turned:
        news.append(News(card + "no horse moves", "move", turned))
    return news


def _finishes(events: Sequence[Event], index: int) -> bool:
    """The move at `index` finishes its horse (the next event says so)."""
    moved, after = events[index], events[index + 1 : index + 2]
    finished = after[0] if after else None
    return (
        isinstance(moved, ev.HorseMoved)
        and isinstance(finished, ev.HorseFinished)
        and finished.suit == moved.suit
    )


def _other_news(event: Event, names: Sequence[str]) -> list[News]:
    if isinstance(event, ev.RaceStarted):  # the deal itself is told by its own line
        text = f"Race {event.race}: the deal passes to {seat_name(names, event.dealer)}"
        return [News(text, "race", (event,))]
    for classes, kind in KINDS:
        if isinstance(event, classes):
            return [News(event.describe(names), kind, (event,))]
    return [News(event.describe(names), "info", (event,))]
