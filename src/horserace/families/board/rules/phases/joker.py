"""Advanced Mode's Joker: after a race roll resolves, its roller may play one Joker to move
any running horse one slot forward or back (never behind the gate). The roller is always
asked, Joker or not, so the turn order tells nobody about their hand."""

from __future__ import annotations

from horserace.components.cards import JOKER
from horserace.core.actions import Action
from horserace.families.board.rules import events as ev
from horserace.families.board.rules.actions import PASS, PlayJoker
from horserace.families.board.rules.phases.race import move_horse, running
from horserace.families.board.rules.phases.respond import discard_played
from horserace.families.board.rules.state import BoardState
from horserace.families.board.rules.tx import Tx


def legal(state: BoardState, seat: int) -> tuple[Action, ...]:
    moves: list[Action] = [PASS]
    if not state.cards.hands[seat][JOKER]:
        return (PASS,)
    for horse in running(state):
        moves.append(PlayJoker(horse, forward=True))
        if state.race.positions[horse - 2] > 0:
            moves.append(PlayJoker(horse, forward=False))
    return tuple(moves)


def play(tx: Tx, seat: int, action: PlayJoker) -> None:
    discard_played(tx, seat, JOKER)
    tx.emit(ev.JokerPlayed(seat, action.horse, action.forward))
    move_horse(tx, action.horse, 1 if action.forward else -1, seat)
