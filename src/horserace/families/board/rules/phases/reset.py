"""The next round: Classic passes every hand left and re-deals the discards and the stub;
the other modes gather every card. The dealer moves left; the race starts afresh."""

from __future__ import annotations

from horserace.components.cards import add_counts
from horserace.families.board.rules import events as ev
from horserace.families.board.rules.phases.deal import deck_for
from horserace.families.board.rules.seats import next_seat
from horserace.families.board.rules.state import FRESH_RACE, fresh_cards
from horserace.families.board.rules.tx import Tx


def gather(tx: Tx) -> None:
    """Classic: hands pass left, discards + stub are re-dealt. Otherwise all cards are gathered.
    The dealer moves left; the race and the round's seat status start afresh."""
    config, cards = tx.config, tx.cards
    n = config.players
    if config.reset == "pass-left":
        deck = add_counts(add_counts(cards.deck, cards.discards), cards.market)
        passed = tuple(cards.hands[(seat - 1) % n] for seat in range(n))
        tx.cards = fresh_cards(n, deck)._replace(hands=passed)
        tx.emit(ev.HandsPassed())
    else:
        tx.cards = fresh_cards(n, deck_for(config))
    out = tx.seats.out
    dealer = next_seat(out, tx.dealer) if config.rotate_dealer else tx.dealer
    if out[dealer] is not None:
        dealer = next_seat(out, dealer)
    tx.dealer = dealer
    tx.round += 1
    tx.race = FRESH_RACE
    tx.seats = tx.seats._replace(folded=(False,) * n, wagered=(0,) * n)
