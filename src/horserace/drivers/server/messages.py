"""Per-seat pieces of outbound messages. Hidden information leaves only through
`rules.view(state, seat)` and `redact(events, seat)`; nothing else here reads the state
(the live odds are worked out by the family from the view)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Literal

from horserace.core.events import Event, redact
from horserace.core.rules import Rules
from horserace.core.types import CHANCE, TERMINAL, Actor
from horserace.drivers.server.jsonable import to_jsonable
from horserace.drivers.server.protocol import RevealState, SeatInfo, TableState
from horserace.drivers.server.storage import OVER, SeatRow
from horserace.engine import result_to_json
from horserace.families import families, family


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
    return [row.name or f"Seat {row.seat + 1}" for row in seats]


def seat_info(row: SeatRow, connected: bool, away: bool) -> SeatInfo:
    kind: Literal["open", "human", "bot"] = (
        "human" if row.kind == "human" else "bot" if row.kind == "bot" else "open"
    )
    return SeatInfo(
        seat=row.seat, name=row.name, kind=kind, bot=row.bot, connected=connected, away=away
    )


def table_state(*args: Any, **kwargs: Any) -> TableState:
    """`table_state_data` as the protocol's model."""
    return state_model(table_state_data(*args, **kwargs))


def state_model(data: dict[str, Any]) -> TableState:
    """A state as plain data (`table_state_data`) as the protocol's model, for the welcome."""
    reveal = data["reveal"]
    shown = None if reveal is None else RevealState.model_construct(**reveal)
    return TableState.model_construct(**{**data, "reveal": shown})


def table_state_data(
    rules: Rules[Any, Any],
    state: Any,
    seat: int | None,
    status: Literal["waiting", "playing", "over"],
    seed: int,
    moves: bool,
    reveal: RevealState | None = None,
    deadline: float | None = None,
) -> dict[str, Any]:
    """A `TableState` as plain data, built from checked values (nothing to validate, and
    the hottest message goes straight to the encoder): `seat`'s view, and the legal actions
    when this connection `moves` now (its seat's turn; or, for a companion table's host,
    chance's outcomes or a seat nobody holds); `deadline`, the turn clock's end of the person
    to move."""
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
    return {
        "status": status,
        "actor": actor_json(actor),
        "legal": legal,
        "view": view,
        "result": result_to_json(rules.result(state)) if over and actor is TERMINAL else None,
        "seed": str(seed) if over else None,
        **odds_data(rules.family, seen),
        "reveal": None if reveal is None else reveal.model_dump(),
        "deadline": deadline,
        "entry": entry_data(rules, state) if legal else None,
    }


def entry_data(rules: Rules[Any, Any], state: Any) -> dict[str, Any]:
    """How the one who moves may enter what a real board showed: the same rules the terminal
    reads (whether a roll counts by its sum alone; a deal a hand at a time)."""
    hands = rules.hands_to_deal(state)
    pack: dict[str, int] = {}
    if hands:
        outcomes, weights = rules.chance_weights(state)
        pack = {action.text: weight for action, weight in zip(outcomes, weights, strict=True)}
    return {"sums": rules.reads_only_sum(state), "hands": hands, "pack": pack}


def prepare_live_odds() -> None:
    """Every family's live odds made ready (compiled or loaded), for a thread at start-up."""
    for each in families():
        each.prepare_odds()


def odds_data(family_name: str, view: Any) -> dict[str, Any]:
    """A state's `odds` (each horse's live win chance, worked out by its family from the view
    alone), `odds_decimals` (the decimals of a percent each may print with) and `odds_rough`
    (a quick estimate); the odds None where the family cannot say cheaply."""
    shown = family(family_name).shown_odds(view)
    if shown is None:
        return {"odds": None, "odds_decimals": None, "odds_rough": False}
    decimals = dict(shown.decimals)
    return {"odds": dict(shown.win), "odds_decimals": decimals, "odds_rough": shown.rough}
