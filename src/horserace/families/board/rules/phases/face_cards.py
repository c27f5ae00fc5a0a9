"""Husted's face cards: a player who pays for rolling a scratched horse may also play one:
J moves a horse past the gate back one slot; Q puts one of the player's chips under a horse
(its next roll does not move it), K two chips (its next two rolls). The chips go to the pot.
The payer is always asked, face card or not, so the turn order tells nobody about their hand."""

from __future__ import annotations

from horserace.components.cards import KING
from horserace.families.board.rules import house_events as hev
from horserace.families.board.rules.actions import JACK, PASS, QUEEN, Pass, Power
from horserace.families.board.rules.phases.race import move_horse, running
from horserace.families.board.rules.phases.respond import discard_played
from horserace.families.board.rules.state import BoardState
from horserace.families.board.rules.tx import Tx


def legal(state: BoardState, seat: int) -> tuple[Pass | Power, ...]:
    hand, chips = state.cards.hands[seat], state.ledger.balances[seat]
    moves: list[Pass | Power] = [PASS]
    if not (hand[JACK] or hand[QUEEN] or hand[KING]):
        return (PASS,)
    for horse in running(state):
        if hand[JACK] and state.race.positions[horse - 2] > 0:
            moves.append(Power(JACK, horse))
        if hand[QUEEN] and chips >= 1:
            moves.append(Power(QUEEN, horse))
        if hand[KING] and chips >= 2:
            moves.append(Power(KING, horse))
    return tuple(moves)


def play(tx: Tx, seat: int, action: Power) -> None:
    discard_played(tx, seat, action.card)
    tx.emit(hev.FaceCardPlayed(seat, action.card, action.horse))
    if action.card == JACK:
        move_horse(tx, action.horse, -1, seat)
        return
    chips = 1 if action.card == QUEEN else 2
    tx.pay_in_full(seat, chips, f"chips under horse {action.horse}")
    blocks = list(tx.race.blocks)
    blocks[action.horse - 2] += chips
    tx.race = tx.race._replace(blocks=tuple(blocks))
