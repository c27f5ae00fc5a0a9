"""Antes at the start of a round, from the dealer's left: A into the Main Pot (and 2A into the
Jockey Pot when it is used). Husted pays them before the first betting round."""

from __future__ import annotations

from horserace.families.board.rules.seats import next_seat, seats_from
from horserace.families.board.rules.tx import Tx


def pay_antes(tx: Tx) -> None:
    ante = tx.config.ante
    if not ante:
        return
    out = tx.seats.out
    for seat in seats_from(out, next_seat(out, tx.dealer)):
        tx.pay(seat, ante, "ante")
        if tx.config.jockey_pot:
            tx.pay(seat, 2 * ante, "jockey ante", into=tx.jockey)
