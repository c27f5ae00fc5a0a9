"""Paying a round out, a step of its own after the winning move: fees for power cards still
held (Advanced), the pot's shares to the winning cards, the Jockey Pot to the seat that moved
the winner across; then who is out (Northwoods) and whether the game is over."""

from __future__ import annotations

from collections.abc import Sequence

from horserace.components.cards import ACE, JOKER, KING
from horserace.core.rules import Result, Standing
from horserace.families.board.rules import events as ev
from horserace.families.board.rules.seats import active_count, next_seat, seats_from
from horserace.families.board.rules.tx import Tx

_FEES = ((KING, 2, "K"), (ACE, 3, "A"), (JOKER, 4, "joker"))


def pay_out(tx: Tx) -> bool:
    """Pay the round out; True when the game is over."""
    config = tx.config
    out, dealer = tx.seats.out, tx.dealer
    order = seats_from(out, next_seat(out, dealer))
    horse = tx.race.winner
    assert horse is not None, "a round is paid out once its race is won"
    if config.responses:  # cards with powers still held are paid for
        for seat in order:
            hand = tx.cards.hands[seat]
            for rank, times, name in _FEES:
                if hand[rank]:
                    tx.pay(seat, hand[rank] * times * config.ante, f"holding {hand[rank]} × {name}")
    folded = tx.seats.folded
    holders = [
        (seat, tx.cards.hands[seat][horse])
        for seat in order
        if tx.cards.hands[seat][horse] and not folded[seat]
    ]
    held = sum(cards for _, cards in holders)
    pot = tx.balance(tx.pot)
    divisor = 4 * config.decks if config.payout == "share" else held
    portion = pot // divisor if divisor else 0
    tx.emit(ev.PotShared(horse, pot, portion, held))
    for seat, cards in holders:
        tx.collect(seat, cards * portion, ev.PayoutMade(seat, cards, cards * portion))
    if config.jockey_pot:
        remainder = tx.balance(tx.pot)
        if remainder:
            tx.sweep(tx.pot, tx.jockey, ev.JockeyPotFilled(remainder))
        winnings = tx.balance(tx.jockey)
        mover = tx.race.mover
        assert mover is not None  # paying out follows a won race
        tx.collect(mover, winnings, ev.JockeyPotWon(mover, winnings), source=tx.jockey)
    tx.emit(ev.PotCarried(tx.balance(tx.pot)))
    if config.elimination:
        _eliminate(tx)
    over = tx.round == config.rounds or (config.elimination and active_count(tx.seats.out) <= 1)
    if over:
        players = config.players
        chips = [tx.balance(seat) for seat in range(players)]
        unclaimed = tx.balance(tx.pot) + (tx.balance(tx.jockey) if config.jockey_pot else 0)
        result = rank_board(chips, tx.seats.out, unclaimed)
        tx.emit(ev.GameOver(result.winners, result.unclaimed))
    return over


def _eliminate(tx: Tx) -> None:
    """At the round's end a player who holds nothing is out: no more cards, no more rolls."""
    out = list(tx.seats.out)
    for seat in range(tx.config.players):
        if out[seat] is None and tx.balance(seat) == 0:
            out[seat] = tx.round
            tx.emit(ev.PlayerOut(seat, tx.round))
    tx.seats = tx.seats._replace(out=tuple(out))


def rank_board(chips: Sequence[int], out: Sequence[int | None], unclaimed: int) -> Result:
    """Players still in by money; below them those who went out, the later out above the
    earlier (out in the same round: equal). Equal keys share a place."""

    def key(seat: int) -> tuple[int, int]:
        went_out = out[seat]
        return (0, -chips[seat]) if went_out is None else (1, -went_out)

    order = sorted(range(len(chips)), key=lambda seat: (key(seat), seat))
    standings: list[Standing] = []
    for index, seat in enumerate(order):
        place = index + 1
        if index and key(seat) == key(order[index - 1]):
            place = standings[-1].place
        standings.append(Standing(seat=seat, chips=chips[seat], place=place, out=out[seat]))
    winners = tuple(s.seat for s in standings if s.place == 1)
    return Result(standings=tuple(standings), winners=winners, unclaimed=unclaimed)
