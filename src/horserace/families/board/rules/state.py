"""The board game's state in small immutable parts, so a step copies only what it changes.

The parts are named tuples: immutable, and the cheapest values Python can build per step.

`BoardState` holds the parts (cards, race, seats' round status, the ledger) and the current
phase's own small record; whose turn it is is computed once per step (by the flow) and stored.
"""

from __future__ import annotations

from typing import NamedTuple

from horserace.components.cards import NO_CARDS, RankCounts
from horserace.core.ledger import Ledger
from horserace.core.types import Actor
from horserace.families.board.rules.config import BoardConfig
from horserace.families.board.rules.records import Phase, PhaseRecord, innermost

__all__ = ["AT_GATE", "EMPTY_LINES", "BoardState", "Cards", "Phase", "Race", "SeatStatus"]


class Cards(NamedTuple):
    """Every card of the round: hands, the undealt deck (the stub once dealt), discards."""

    hands: tuple[RankCounts, ...]
    deck: RankCounts
    discards: RankCounts
    packets: tuple[RankCounts, ...]  # draft: the cards in front of each seat, still to pick from
    market: RankCounts  # Schellenberg: the extra hand (face up after scratching)
    given_up: tuple[RankCounts, ...]  # per seat: cards given up to scratches this round


class Race(NamedTuple):
    """The board: scratch lines, horses' advances, chips under horses (Husted)."""

    lines: tuple[int, ...]  # horse on scratch line k at index k - 1, 0 when empty
    positions: tuple[int, ...]  # advances made, per horse 2..12
    blocks: tuple[int, ...]  # Husted: chips under each horse
    scratch_rolls: int
    race_rolls: int
    winner: int | None  # the winning horse once the race is decided
    mover: int | None  # the seat that moved the winner across, once the race is won

    def line_of(self, horse: int) -> int:
        """The scratch line a horse stands on (1..4), or 0 if it runs."""
        lines = self.lines
        for index in range(4):
            if lines[index] == horse:
                return index + 1
        return 0


class SeatStatus(NamedTuple):
    """Who is still in the game, and this round's Husted betting per seat."""

    out: tuple[int | None, ...]  # the round in which the seat went out; None while it is in
    folded: tuple[bool, ...]
    wagered: tuple[int, ...]


class BoardState(NamedTuple):
    """The whole table. Hidden parts (deck, hands, packets) leave the core only via the view."""

    config: BoardConfig
    round: int
    dealer: int
    cards: Cards
    race: Race
    seats: SeatStatus
    ledger: Ledger  # seats, then the Main Pot, then the Jockey Pot when it is used
    phase_record: PhaseRecord
    actor: Actor  # computed by the flow once per step

    # --- reading helpers (the parts stay the truth) --------------------------------------
    @property
    def phase(self) -> Phase:
        return innermost(self.phase_record).phase

    @property
    def hands(self) -> tuple[RankCounts, ...]:
        return self.cards.hands

    @property
    def packets(self) -> tuple[RankCounts, ...]:
        return self.cards.packets

    @property
    def deck(self) -> RankCounts:
        return self.cards.deck

    @property
    def discards(self) -> RankCounts:
        return self.cards.discards

    @property
    def market(self) -> RankCounts:
        return self.cards.market

    @property
    def lines(self) -> tuple[int, ...]:
        return self.race.lines

    @property
    def positions(self) -> tuple[int, ...]:
        return self.race.positions

    @property
    def out(self) -> tuple[bool, ...]:
        return tuple(o is not None for o in self.seats.out)

    @property
    def pot(self) -> int:
        return self.ledger.balances[self.config.players]

    @property
    def jockey(self) -> int:
        return self.ledger.balances[self.config.players + 1] if self.config.jockey_pot else 0

    def line_of(self, horse: int) -> int:
        return self.race.line_of(horse)

    def position(self, horse: int) -> int:
        return self.race.positions[horse - 2]


def fresh_cards(players: int, deck: RankCounts) -> Cards:
    empty = (NO_CARDS,) * players
    return Cards(empty, deck, NO_CARDS, empty, NO_CARDS, empty)


AT_GATE = (0,) * 11
EMPTY_LINES = (0, 0, 0, 0)
FRESH_RACE = Race(EMPTY_LINES, AT_GATE, AT_GATE, 0, 0, None, None)
