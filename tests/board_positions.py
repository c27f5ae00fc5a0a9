"""Set up a board position directly (the shortest way to an exact situation in a test).

`arrange(state, ...)` replaces the parts named by the keywords and recomputes whose turn it is;
the phase is given as a Phase with its roller (scratch or race) and optional trading window.
"""

from __future__ import annotations

from typing import Any

from horserace.core.ledger import Ledger
from horserace.families.board.rules.records import PhaseRecord, Racing, Scratching, Trading
from horserace.families.board.rules.state import BoardState, Phase

_CARDS = ("hands", "deck", "discards", "packets", "market", "given_up")
_RACE = ("lines", "positions", "blocks", "scratch_rolls", "race_rolls", "winner", "mover")
_SEATS = ("out", "folded", "wagered")


def arrange(
    state: BoardState,
    *,
    phase: Phase | None = None,
    roller: int | None = None,
    traders: tuple[int, ...] | None = None,
    record: PhaseRecord | None = None,
    ledger: Ledger | None = None,
    chips: list[int] | None = None,
    **parts: Any,
) -> BoardState:
    cards = state.cards._replace(**{k: v for k, v in parts.items() if k in _CARDS})
    race = state.race._replace(**{k: v for k, v in parts.items() if k in _RACE})
    seats = state.seats._replace(**{k: v for k, v in parts.items() if k in _SEATS})
    unknown = set(parts) - set(_CARDS) - set(_RACE) - set(_SEATS)
    if unknown:
        raise TypeError(f"arrange() does not know {sorted(unknown)}")
    if chips is not None:
        ledger = Ledger.open(state.ledger.labels, chips)
    if record is None and phase is not None:
        start = roller if roller is not None else (state.dealer + 1) % state.config.players
        record = Racing(start) if phase is Phase.RACE else Scratching(start)
    if record is None:
        record = state.phase_record
    if traders is not None:
        offers = (state.config.trade_offers,) * state.config.players
        record = Trading(record, traders, offers)
    actor = record.actor()
    assert actor is not None
    return BoardState(
        state.config,
        state.round,
        state.dealer,
        cards,
        race,
        seats,
        ledger if ledger is not None else state.ledger,
        record,
        actor,
    )
