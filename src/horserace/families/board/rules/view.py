"""What one seat (or a spectator, seat None) may know: hands only if open or its own, the
market only once it is face up; built only when a driver asks for it."""

from __future__ import annotations

from dataclasses import dataclass

from horserace.components.board import Board
from horserace.components.cards import RankCounts, total
from horserace.core.types import Actor
from horserace.families.board.rules.config import BoardConfig
from horserace.families.board.rules.records import (
    Betting,
    Dealing,
    Interrupt,
    Market,
    Offer,
    Pairing,
    Penalty,
    PhaseRecord,
    Responding,
    Rolling,
    Trading,
    innermost,
)
from horserace.families.board.rules.state import BoardState, Phase


@dataclass(frozen=True)
class BoardView:
    seat: int | None
    round: int
    rounds: int
    dealer: int
    phase: Phase
    actor: Actor  # whose turn it is: public, and never a sign of anyone's cards
    chips: tuple[int, ...]
    pot: int
    jockey: int
    hands: tuple[RankCounts | None, ...]
    hand_sizes: tuple[int, ...]
    packet: RankCounts | None  # the seat's own draft packet
    undealt: int
    discards: RankCounts
    lines: tuple[int, ...]
    positions: tuple[int, ...]
    board: Board
    roller: int
    race_rolls: int
    decks: int
    pending: Penalty | None
    offer: Offer | None
    market: RankCounts | None  # None while it still lies face down
    folded: tuple[bool, ...]
    wagered: tuple[int, ...]
    bet_level: int
    round_bets: tuple[int, ...]
    blocks: tuple[int, ...]
    four_dice: tuple[int, ...]
    out: tuple[bool, ...]
    out_rounds: tuple[int | None, ...]  # the round each seat went out in, None while still in
    winner: int | None  # the winning horse once the race is decided
    to_deal: int  # cards still to be dealt in this deal (0 outside the deal)
    deal_to: int | Market | None  # who gets the next card while dealing: a seat or the market
    config: BoardConfig


def _find(record: PhaseRecord, kind: type[PhaseRecord]) -> PhaseRecord | None:
    while True:
        if isinstance(record, kind):
            return record
        if not isinstance(record, Interrupt):
            return None
        record = record.then


def build_view(state: BoardState, seat: int | None) -> BoardView:
    config = state.config
    n = config.players
    cards, race, seats = state.cards, state.race, state.seats
    record = state.phase_record
    hands = tuple(
        hand if config.open_hands or owner == seat else None
        for owner, hand in enumerate(cards.hands)
    )
    base = innermost(record)
    roller = base.roller if isinstance(base, Rolling) else (state.dealer + 1) % n
    responding = _find(record, Responding)
    trading = _find(record, Trading)
    pairing = _find(record, Pairing)
    betting = record if isinstance(record, Betting) else None
    face_up = state.phase in (Phase.RACE, Phase.PAYOUT, Phase.OVER)
    return BoardView(
        seat=seat,
        round=state.round,
        rounds=config.rounds,
        dealer=state.dealer,
        phase=state.phase,
        actor=state.actor,
        chips=state.ledger.balances[:n],
        pot=state.pot,
        jockey=state.jockey,
        hands=hands,
        hand_sizes=tuple(total(hand) for hand in cards.hands),
        packet=cards.packets[seat] if seat is not None else None,
        undealt=total(cards.deck),
        discards=cards.discards,
        lines=race.lines,
        positions=race.positions,
        board=config.board,
        roller=roller,
        race_rolls=race.race_rolls,
        decks=config.decks,
        pending=responding.pending[0] if isinstance(responding, Responding) else None,
        offer=trading.offer if isinstance(trading, Trading) else None,
        market=cards.market if face_up and config.market else None,
        folded=seats.folded,
        wagered=seats.wagered,
        bet_level=betting.level if betting is not None else 0,
        round_bets=betting.round_bets if betting is not None else (0,) * n,
        blocks=race.blocks,
        four_dice=pairing.dice if isinstance(pairing, Pairing) else (),
        out=tuple(o is not None for o in seats.out),
        out_rounds=seats.out,
        winner=race.winner,
        to_deal=record.to_deal if isinstance(record, Dealing) else 0,
        deal_to=record.deal_to if isinstance(record, Dealing) else None,
        config=config,
    )
