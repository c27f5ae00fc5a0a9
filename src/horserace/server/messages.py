"""Per-seat pieces of outbound messages. Hidden information leaves only through
`rules.view(state, seat)` and `redact(events, seat)`; nothing else here reads the state
(the live odds are computed from the view)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Any, Literal

from horserace.components.french_deck import SUITS
from horserace.core.errors import HorseraceError
from horserace.core.events import Event, redact
from horserace.core.rules import Rules
from horserace.core.types import CHANCE, TERMINAL, Actor
from horserace.engine import result_to_json
from horserace.odds.board_view import view_odds
from horserace.odds.cards import RacePosition as CardsPosition
from horserace.odds.cards import TooManyStates, card_odds, position_of
from horserace.odds.derby import table_odds
from horserace.rules.board.view import BoardView
from horserace.rules.cards.state import CardsView
from horserace.rules.cards.state import Phase as CardsPhase
from horserace.rules.derby.model import DerbyView
from horserace.server.jsonable import to_jsonable
from horserace.server.protocol import SeatInfo, TableState
from horserace.server.storage import OVER, SeatRow


def actor_json(actor: Actor) -> int | Literal["chance", "terminal"]:
    if actor is CHANCE:
        return "chance"
    if actor is TERMINAL:
        return "terminal"
    assert isinstance(actor, int)
    return actor


def event_json(event: Event, names: Sequence[str]) -> dict[str, Any]:
    """The event's own fields plus the sentence a person reads in the log."""
    data = to_jsonable(event.to_json())
    assert isinstance(data, dict)
    return {**data, "text": event.describe(names)}


def events_for(events: Iterable[Event], seat: int | None, names: Sequence[str]) -> list[Any]:
    return [event_json(event, names) for event in redact(events, seat)]


def seat_names(seats: Sequence[SeatRow]) -> list[str]:
    return [row.name or f"P{row.seat + 1}" for row in seats]


def seat_info(row: SeatRow, connected: bool, away: bool) -> SeatInfo:
    kind: Literal["open", "human", "bot"] = (
        "human" if row.kind == "human" else "bot" if row.kind == "bot" else "open"
    )
    return SeatInfo(
        seat=row.seat, name=row.name, kind=kind, bot=row.bot, connected=connected, away=away
    )


def table_state(
    rules: Rules[Any, Any],
    state: Any,
    seat: int | None,
    status: Literal["waiting", "playing", "over"],
    seed: int,
    moves: bool,
) -> TableState:
    """`seat`'s view, and the legal actions when this connection `moves` now (its seat's
    turn; or, for a companion table's host, chance's outcomes or a seat nobody holds)."""
    actor = rules.actor(state)
    legal: list[str] = []
    if status == "playing" and moves and isinstance(actor, int):
        legal = [action.text for action in rules.legal_actions(state, actor)]
    elif status == "playing" and moves and actor is CHANCE:
        legal = [action.text for action in rules.chance_weights(state)[0]]
    seen = rules.view(state, seat)
    view = to_jsonable(seen)
    assert isinstance(view, dict)
    over = status == OVER
    return TableState(
        status=status,
        actor=actor_json(actor),
        legal=legal,
        view=view,
        result=result_to_json(rules.result(state)) if over and actor is TERMINAL else None,
        seed=str(seed) if over else None,
        odds=live_odds(seen),
    )


DERBY_SAMPLES = 1000  # races per Derby estimate: a few hundredths of a second, about 1.5% noise
DERBY_SEED = 0  # fixed, so the same table always shows the same numbers
CARDS_BUDGET = (
    3_000  # DP states per cards estimate (under 0.1 s); past it a face-down course gets None
)


def live_odds(view: Any) -> dict[str, float] | None:
    """Each horse's live win chance, worked out from the view alone (public information):
    the dice board exactly, Derby by a seeded Monte Carlo estimate (exact before the race),
    the card race exactly (None while a face-down course leaves too much unseen)."""
    try:
        if isinstance(view, BoardView):
            return dict(_board_odds(view))
        if isinstance(view, DerbyView):
            derby = _derby_odds(_derby_key(view))
            return None if derby is None else dict(derby)
        if isinstance(view, CardsView):
            if view.phase in (CardsPhase.COURSE, CardsPhase.OVER):
                return None
            if len(view.course) < view.config.course_length:
                return None
            cards = _cards_odds(position_of(view))
            return None if cards is None else dict(cards)
    except HorseraceError:  # TooManyStates among them
        return None
    return None


@lru_cache(maxsize=16_384)
def _board_odds(view: BoardView) -> tuple[tuple[str, float], ...]:
    """Cached per view, enough entries for every seat of thousands of tables: a step that
    moves no horse (a card dealt, a chip paid) costs a lookup, not a race."""
    return tuple((str(horse), chance) for horse, chance in view_odds(view).items())


def _derby_key(view: DerbyView) -> DerbyView:
    """The view with what the odds do not read blanked out, so every seat, wager and payout
    of one table position shares one cache entry."""
    n = len(view.horses)
    return replace(
        view,
        seat=None,
        order=(),
        to_act=None,
        silks=(0,) * n,
        odds=(0,) * n,
        wagers=(0,) * n,
        money=(0,) * n,
        bank=0,
        podiums=(),
    )


@lru_cache(maxsize=256)
def _derby_odds(view: DerbyView) -> tuple[tuple[str, float], ...] | None:
    odds = table_odds(view, samples=DERBY_SAMPLES, seed=DERBY_SEED)
    if odds is None:
        return None
    return tuple((str(horse), odds.win(horse)) for horse in odds.horses)


@lru_cache(maxsize=256)
def _cards_odds(position: CardsPosition) -> tuple[tuple[str, float], ...] | None:
    """None (kept, so a costly position is tried once) past the state budget."""
    try:
        odds = card_odds(position, places=1, max_states=CARDS_BUDGET)
    except TooManyStates:
        return None
    return tuple((SUITS[suit], chance) for suit, chance in sorted(odds.win.items()))
