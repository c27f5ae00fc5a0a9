"""The dice board game: one Rules class for Classic, Advanced, Northwoods and the house rules,
each of which is configuration (config.py). The flow (flow.py) moves from phase to phase; each
phase (phases/) says what may be done and does it; every chip moves through one transaction."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from horserace.components.cards import ALL_RANKS, NO_CARDS, RANKS, full_deck
from horserace.components.dice import ALL_FOUR_DICE, ALL_ROLLS, DiceRoll, FourDice
from horserace.core.actions import Action
from horserace.core.chance import lookup_table
from horserace.core.errors import IllegalAction, InvalidAction
from horserace.core.events import Event
from horserace.core.ledger import Ledger
from horserace.core.rules import Result, Rules
from horserace.core.types import CHANCE, TERMINAL, Actor, is_whole_number
from horserace.families.board.rules import flow
from horserace.families.board.rules import records as rec
from horserace.families.board.rules.actions import (
    NEXT_ROUND,
    PASS,
    PAYOUT,
    ROLL,
    Deal,
    Meet,
    Offer,
    Roll,
    SeatAction,
    Settle,
    parse_seat_action,
)
from horserace.families.board.rules.config import BoardConfig, board_config
from horserace.families.board.rules.phases import (
    betting,
    deal,
    draft,
    draw,
    face_cards,
    joker,
    market,
    payout,
    race,
    respond,
    trade,
)
from horserace.families.board.rules.state import (
    FRESH_RACE,
    BoardState,
    SeatStatus,
    fresh_cards,
)
from horserace.families.board.rules.tx import Tx
from horserace.families.board.rules.view import BoardView, build_view

_ROLL_WEIGHTS = tuple(2 if roll.low != roll.high else 1 for roll in ALL_ROLLS)
_FOUR_WEIGHTS = tuple(dice.weight for dice in ALL_FOUR_DICE)
_DEALS = tuple(Deal(rank) for rank in ALL_RANKS)
_ROLL_TABLE = lookup_table(ALL_ROLLS, _ROLL_WEIGHTS)
_FOUR_TABLE = lookup_table(ALL_FOUR_DICE, _FOUR_WEIGHTS)


class BoardRules(Rules[BoardConfig, BoardState]):
    family = "board"

    # --- configuration -------------------------------------------------
    def make_config(self, options: Mapping[str, Any]) -> BoardConfig:
        return board_config(options)

    # --- the game tree ---------------------------------------------------
    def initial_state(self, config: BoardConfig) -> BoardState:
        n = config.players
        labels = [f"seat {seat + 1}" for seat in range(n)] + ["pot"]
        balances = [config.starting_chips] * n + [0]
        if config.jockey_pot:
            labels, balances = [*labels, "jockey pot"], [*balances, 0]
        seats = SeatStatus((None,) * n, (False,) * n, (0,) * n)
        start = BoardState(
            config,
            1,
            config.first_dealer,
            fresh_cards(n, deal.deck_for(config)),
            FRESH_RACE,
            seats,
            Ledger.open(labels, balances),
            rec.Finished(),
            TERMINAL,
        )
        tx = Tx(start)
        state, _ = tx.commit(flow.begin(tx))
        return state

    def actor(self, state: BoardState) -> Actor:
        return state.actor

    def legal_actions(self, state: BoardState, seat: int) -> Sequence[Action]:
        if state.actor != seat:
            return ()
        record = state.phase_record
        legal = _LEGAL.get(type(record))
        return () if legal is None else legal(state, record, seat)

    def chance_weights(self, state: BoardState) -> tuple[Sequence[Action], Sequence[int]]:
        record = state.phase_record
        if state.actor is not CHANCE:
            return (), ()
        if isinstance(record, rec.Dealing | rec.Drawing):
            deck = state.cards.deck
            ranks = [rank for rank in ALL_RANKS if deck[rank]]
            return [_DEALS[rank] for rank in ranks], [deck[rank] for rank in ranks]
        forced = self.forced_chance(state)
        if forced is not None:
            return (forced,), (1,)
        if _four_dice(state):
            return ALL_FOUR_DICE, _FOUR_WEIGHTS
        return ALL_ROLLS, _ROLL_WEIGHTS

    def chance_table(self, state: BoardState) -> Sequence[Action] | None:
        if state.actor is not CHANCE or not isinstance(state.phase_record, rec.Rolling):
            return None
        return _FOUR_TABLE if _four_dice(state) else _ROLL_TABLE

    def forced_chance(self, state: BoardState) -> Action | None:
        record = state.phase_record
        if isinstance(record, rec.Payout):
            return PAYOUT
        if isinstance(record, rec.NextRound):
            return NEXT_ROUND
        return None

    def parse_action(self, state: BoardState, text: str) -> Action:
        word = text.strip()
        actor = state.actor
        if actor is not CHANCE:
            return parse_seat_action(word, actor if isinstance(actor, int) else None)
        record = state.phase_record
        forced = self.forced_chance(state)
        if forced is not None:
            if word.lower() != forced.text:
                raise InvalidAction(f"{text!r}: the only thing that happens now is {forced.text}")
            return forced
        if isinstance(record, rec.Dealing | rec.Drawing):
            plain = deal.deck_for(state.config) == full_deck(state.config.decks)
            return Deal.parse(word, RANKS if plain else ALL_RANKS)
        if is_whole_number(word) and 2 <= int(word) <= 12:  # the sum alone ('7')
            if not self.reads_only_sum(state):
                raise InvalidAction(
                    f"{text!r} is a sum, but Robertson's race reads each of the four dice:"
                    " type all four, like '1+3+4+6'"
                )
            return DiceRoll.for_sum(int(word))
        if _four_dice(state):
            return FourDice.parse(word)
        return DiceRoll.parse(word)

    def hands_to_deal(self, state: BoardState) -> list[tuple[int | None, int]]:
        if state.actor is not CHANCE:
            return []
        owed = deal.still_to_deal(state).items()
        return [(hand if isinstance(hand, int) else None, cards) for hand, cards in owed]

    def reads_only_sum(self, state: BoardState) -> bool:
        """Two dice count by their sum (scratch and race rolls); Robertson's race rolls four,
        which the roller pairs."""
        record = rec.innermost(state.phase_record)
        return isinstance(record, rec.Rolling) and not (
            state.config.robertson and isinstance(record, rec.Racing)
        )

    def verify(self, state: BoardState, action: Action) -> None:
        actor = state.actor
        if actor is TERMINAL:
            raise IllegalAction("the game is over")
        if actor is CHANCE:
            self._verify_chance(state, action)
            return
        record = state.phase_record
        if isinstance(action, Roll) and isinstance(record, rec.Rolling):
            return
        if isinstance(action, Deal | DiceRoll | FourDice | Settle):
            raise IllegalAction(f"it is seat {actor + 1}'s move, not a chance outcome")
        if isinstance(action, Offer) and isinstance(record, rec.Trading):
            trade.check_offer(state, record, _spoken_by(action, actor))
            return
        legal = self.legal_actions(state, actor)
        if isinstance(action, Meet) and isinstance(record, rec.Betting):
            short = betting.short_of(state, record, actor)
            if short is not None:
                raise IllegalAction(short)
        if action not in legal:
            shown = [a.text for a in legal[:12]]
            more = f" and {len(legal) - 12} more" if len(legal) > 12 else ""
            raise IllegalAction(
                f"{action.text!r} is not allowed now ({situation(record, actor)});"
                f" seat {actor + 1} may: {', '.join(shown)}{more}"
            )

    def _verify_chance(self, state: BoardState, action: Action) -> None:
        record = state.phase_record
        if type(action) is DiceRoll and type(record) is rec.Scratching:
            return
        if type(action) is DiceRoll and type(record) is rec.Racing and not state.config.robertson:
            return
        forced = self.forced_chance(state)
        if forced is not None:
            if action != forced:
                raise IllegalAction("the round is being settled now")
            return
        if isinstance(action, Deal):
            if not isinstance(record, rec.Dealing | rec.Drawing):
                raise IllegalAction("no card is being dealt now; the dice are")
            if not 0 <= action.rank < len(NO_CARDS) or not state.cards.deck[action.rank]:
                raise IllegalAction(f"no {action.text[5:]} is left in the deck")
            return
        if isinstance(record, rec.Dealing | rec.Drawing):
            raise IllegalAction("cards are being dealt now, not dice rolled")
        if isinstance(action, FourDice if _four_dice(state) else DiceRoll):
            return
        if isinstance(action, SeatAction):
            raise IllegalAction("the dice (or the deal) come next, not a player's action")
        raise IllegalAction(f"{action.text!r} is not a roll this game uses now")

    def apply(self, state: BoardState, action: Action) -> tuple[BoardState, tuple[Event, ...]]:
        self.verify(state, action)
        if isinstance(action, Offer) and isinstance(state.actor, int):
            action = _spoken_by(action, state.actor)
        return flow.step(state, action)

    # --- what leaves the core -------------------------------------------------
    def view(self, state: BoardState, seat: int | None) -> BoardView:
        return build_view(state, seat)

    def standings(self, state: BoardState) -> Result:
        n = state.config.players
        return payout.rank_board(
            state.ledger.balances[:n], state.seats.out, unclaimed=state.pot + state.jockey
        )


def _four_dice(state: BoardState) -> bool:
    """Robertson's race: chance rolls four dice, not two."""
    return state.config.robertson and isinstance(rec.innermost(state.phase_record), rec.Racing)


def _spoken_by(offer: Offer, seat: int) -> Offer:
    """An offer is always the offer of the seat whose turn it is (its text names only the
    partner)."""
    return offer if offer.seat == seat else Offer(seat, offer.target, offer.give, offer.take)


# What a seat may do, by the kind of the phase's record (a seat has no move in the others)
_LEGAL: dict[type[rec.PhaseRecord], Callable[[BoardState, Any, int], Sequence[Action]]] = {
    rec.Rolling: lambda state, record, seat: (ROLL,),
    rec.Scratching: lambda state, record, seat: (ROLL,),
    rec.Racing: lambda state, record, seat: (ROLL,),
    rec.Responding: lambda state, record, seat: respond.legal(state, record),
    rec.JokerTurn: lambda state, record, seat: joker.legal(state, seat),
    rec.FaceCardTurn: lambda state, record, seat: face_cards.legal(state, seat),
    rec.MarketTurn: lambda state, record, seat: market.legal(state, seat),
    rec.Trading: trade.legal,
    rec.Pairing: lambda state, record, seat: race.pair_legal(record),
    rec.Drafting: lambda state, record, seat: draft.legal(state, seat),
    rec.Betting: betting.legal,
    rec.Drawing: lambda state, record, seat: draw.legal(state, seat),
}

# What may be done now, in a table's words, by the kind of the phase's record (the first match)
_SITUATIONS: tuple[tuple[type[rec.PhaseRecord], str], ...] = (
    (rec.Racing, "{who} rolls next in the race"),
    (rec.Rolling, "{who} rolls next in the scratch"),
    (rec.Responding, "{who} owes {r.pending[0].amount}: pay, or answer with an Ace or a King"),
    (rec.JokerTurn, "{who} may play a Joker after their roll, or pass"),
    (rec.FaceCardTurn, "{who} paid for a scratched horse and may play a J, Q or K, or pass"),
    (rec.MarketTurn, "{who} may buy one market card after their roll, or pass"),
    (rec.Pairing, "{who} pairs the four dice"),
    (rec.Drafting, "the draft: {who} keeps one card of their packet"),
    (rec.Betting, "betting round {r.round_no}: {who} checks, wagers, meets, raises or folds"),
    (rec.Drawing, "the draw: {who} discards up to two cards"),
)


def situation(record: rec.PhaseRecord, seat: int) -> str:
    """The rule that says what may be done now, in a table's words."""
    who = f"seat {seat + 1}"
    if isinstance(record, rec.Trading):
        if record.offer is not None:
            return f"{who} answers the offer made to them"
        return f"the trading window is open: {who} offers a trade or passes"
    found = (text for kind, text in _SITUATIONS if isinstance(record, kind))
    return next(found, "it is {who}'s turn").format(who=who, r=record)


__all__ = ["PASS", "BoardRules", "situation"]
