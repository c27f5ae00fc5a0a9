"""The one place where the phase changes. A step opens a transaction on the state, lets the
current phase do the action, then decides what comes next (running automatic records, such as
a roll's sums, until a seat or chance must act) and stores whose turn it is."""

from __future__ import annotations

from horserace.components.dice import DiceRoll, FourDice
from horserace.core.actions import Action
from horserace.core.events import Event
from horserace.core.types import CHANCE
from horserace.families.board.rules import events as ev
from horserace.families.board.rules.actions import (
    Answer,
    Buy,
    Deal,
    Discard,
    Keep,
    Offer,
    Pair,
    PlayAce,
    PlayJoker,
    PlayKing,
    Power,
    Roll,
    Settle,
)
from horserace.families.board.rules.phases import (
    ante,
    betting,
    deal,
    draft,
    draw,
    face_cards,
    joker,
    market,
    payout,
    race,
    reset,
    respond,
    scratch,
    trade,
)
from horserace.families.board.rules.records import (
    Betting,
    Dealing,
    Drafting,
    Drawing,
    FaceCardTurn,
    Finished,
    JokerTurn,
    MarketTurn,
    NextRound,
    Pairing,
    Payout,
    Penalty,
    PhaseRecord,
    Racing,
    Resolving,
    Responding,
    Rolling,
    Scratching,
    Trading,
)
from horserace.families.board.rules.seats import next_seat
from horserace.families.board.rules.state import BoardState
from horserace.families.board.rules.tx import Tx

_ROLLING = (Scratching, Racing)
_SETTLING = (Payout, NextRound, Finished)


def step(state: BoardState, action: Action) -> tuple[BoardState, tuple[Event, ...]]:
    """Apply an action the rules already verified; returns the next state and its events."""
    record = state.phase_record
    if type(action) is Roll and type(record) in _ROLLING:
        # calling for the dice changes nothing but whose turn it is: chance rolls next
        assert isinstance(record, Rolling)
        rolling = type(record)(record.roller, rolling=True)
        return (
            BoardState(
                state.config,
                state.round,
                state.dealer,
                state.cards,
                state.race,
                state.seats,
                state.ledger,
                rolling,
                CHANCE,
            ),
            (),
        )
    tx = Tx(state)
    return tx.commit(_run(tx, _act(tx, record, action)))


def begin(tx: Tx) -> PhaseRecord:
    """The first round of a new game (or the next one): announce it and deal."""
    dealing = deal.start(tx)
    return dealing if dealing is not None else _dealt(tx)


# --- what each action does, then what comes next ----------------------------------------------
def _act(tx: Tx, record: PhaseRecord, action: Action) -> PhaseRecord:
    if isinstance(record, Dealing):
        assert isinstance(action, Deal)
        nxt = deal.deal(tx, record, action.rank)
        return nxt if nxt is not None else _dealt(tx)
    if isinstance(record, Scratching):
        assert isinstance(action, DiceRoll)
        return _scratch_roll(tx, record.roller, action)
    if isinstance(record, Racing):
        return _race_roll(tx, record.roller, action)
    if isinstance(record, Pairing):
        assert isinstance(action, Pair)
        tx.emit(ev.PairChosen(record.seat, action.first, action.second))
        return Resolving(record.then, record.seat, (action.first, action.second))
    if isinstance(record, Responding):
        return _respond(tx, record, action)
    if isinstance(record, JokerTurn | FaceCardTurn | MarketTurn):
        return _seat_choice(tx, record, action)
    if isinstance(record, Trading):
        if isinstance(action, Offer):
            return trade.make_offer(tx, record, action)
        if isinstance(action, Answer):
            return trade.answer(tx, record, action.accept)
        return trade.pass_turn(tx, record)
    if isinstance(record, Drafting):
        assert isinstance(action, Keep)
        drafting = draft.keep(tx, record, action.rank)
        return drafting if drafting is not None else _round_ready(tx)
    if isinstance(record, Betting):
        bets = betting.bet(tx, record, action)  # type: ignore[arg-type]
        return bets if bets is not None else _betting_over(tx, record.round_no)
    if isinstance(record, Drawing):
        if isinstance(action, Deal):
            drawing = draw.draw_card(tx, record, action.rank)
        else:
            assert isinstance(action, Discard)
            drawing = draw.discard(tx, record, action)
        return drawing if drawing is not None else _betting_round(tx, 2)
    if isinstance(record, Payout):
        assert isinstance(action, Settle)
        return Finished() if payout.pay_out(tx) else NextRound()
    if isinstance(record, NextRound):
        reset.gather(tx)
        return begin(tx)
    raise AssertionError(f"no rule handles {action!r} in {record!r}")


def _dealt(tx: Tx) -> PhaseRecord:
    deal.finish(tx)
    if tx.config.draft:
        drafting = draft.start(tx)
        if drafting is not None:
            return drafting
    return _round_ready(tx)


def _round_ready(tx: Tx) -> PhaseRecord:
    """Cards in hand: the antes, then Husted's betting or the scratch phase."""
    ante.pay_antes(tx)
    if tx.config.husted:
        return _betting_round(tx, 1)
    return _start_scratch(tx)


def _betting_round(tx: Tx, round_no: int) -> PhaseRecord:
    record = betting.start(tx, round_no)
    return record if record is not None else _betting_over(tx, round_no)


def _betting_over(tx: Tx, round_no: int) -> PhaseRecord:
    if round_no == 1:
        drawing = draw.start(tx)
        return drawing if drawing is not None else _betting_round(tx, 2)
    return _start_scratch(tx)


def _start_scratch(tx: Tx) -> PhaseRecord:
    roller = next_seat(tx.seats.out, tx.dealer)
    return trade.open_window(tx, "before-scratch", Scratching(roller))


def _scratch_roll(tx: Tx, roller: int, dice: DiceRoll) -> PhaseRecord:
    tx.emit(ev.DiceRolled(roller, (dice.low, dice.high), "scratch"))
    done = scratch.roll(tx, roller, dice.total)
    if not done.counted:
        return Scratching(roller)
    after = next_seat(tx.seats.out, roller)
    nxt: PhaseRecord = Scratching(after)
    if done.done:
        market.open_market(tx)
        nxt = trade.open_window(tx, "after-scratch", Racing(scratch.first_race_roller(tx, roller)))
    if done.new_line:
        nxt = trade.open_window(tx, "after-each-scratch", nxt)
    return _owe(tx, done.debts, nxt)


def _race_roll(tx: Tx, roller: int, action: Action) -> PhaseRecord:
    nxt = Racing(next_seat(tx.seats.out, roller))
    if isinstance(action, FourDice):
        race.count_roll(tx)
        tx.emit(ev.FourDiceRolled(roller, action.dice))
        return Pairing(nxt, roller, action.dice)
    assert isinstance(action, DiceRoll)
    tx.emit(ev.DiceRolled(roller, (action.low, action.high), "race"))
    horse, config = action.total, tx.config
    if config.responses or config.market or tx.race.line_of(horse) or tx.race.blocks[horse - 2]:
        race.count_roll(tx)
        return Resolving(nxt, roller, (horse,))
    race.move_horse(tx, horse, 1, roller, counts_roll=True)  # the everyday roll moves a horse on
    return nxt


def _owe(tx: Tx, debts: tuple[Penalty, ...], then: PhaseRecord) -> PhaseRecord:
    """Penalties: answered one by one where the deck has Aces and Kings, else paid at once."""
    if not tx.config.responses:
        for debt in debts:
            tx.pay(debt.debtor, debt.amount, debt.reason)
        return then
    return _ask(tx, debts, then)


def _ask(tx: Tx, pending: tuple[Penalty, ...], then: PhaseRecord) -> PhaseRecord:
    """The first debtor is asked (always, whatever they hold); nothing owed is paid at once."""
    while pending and not pending[0].amount:
        head, pending = pending[0], pending[1:]
        tx.pay(head.debtor, 0, head.reason)
    if not pending:
        return then
    head = pending[0]
    tx.emit(ev.PenaltyOwed(head.debtor, head.amount, head.reason))
    return Responding(then, pending)


def _respond(tx: Tx, record: Responding, action: Action) -> PhaseRecord:
    if isinstance(action, PlayAce):
        pending = respond.ace(tx, record)
    elif isinstance(action, PlayKing):
        pending = respond.king(tx, record, action.left)
    else:
        pending = respond.pay(tx, record)
    return _ask(tx, pending, record.then)


def _seat_choice(
    tx: Tx, record: JokerTurn | FaceCardTurn | MarketTurn, action: Action
) -> PhaseRecord:
    if isinstance(action, PlayJoker):
        joker.play(tx, record.seat, action)
    elif isinstance(action, Power):
        face_cards.play(tx, record.seat, action)
    elif isinstance(action, Buy):
        market.buy(tx, record.seat, action)
    return record.then


# --- automatic records ---------------------------------------------------------------------
def _run(tx: Tx, record: PhaseRecord) -> PhaseRecord:
    """Resolve what needs nobody's decision until a seat or chance must act."""
    while True:
        if tx.race.winner is not None and not isinstance(record, _SETTLING):
            return Payout()
        if not isinstance(record, Resolving):
            return record
        record = _resolve(tx, record)


def _resolve(tx: Tx, record: Resolving) -> PhaseRecord:
    seat = record.seat
    if record.sums:
        rest = Resolving(record.then, seat, record.sums[1:], record.after)
        debt = race.resolve_sum(tx, record.sums[0], seat)
        if debt is None:
            return rest
        if tx.config.responses:
            return _ask(tx, (debt,), rest)
        tx.pay(debt.debtor, debt.amount, debt.reason)
        return FaceCardTurn(rest, seat) if tx.config.husted else rest
    if not record.after:
        return record.then
    if tx.config.responses:  # the roller is always asked about a Joker
        return JokerTurn(record.then, seat)
    if market.may_buy(tx, seat):
        return MarketTurn(record.then, seat)
    return record.then
