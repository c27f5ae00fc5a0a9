"""George Husted's house rule for Classic: hidden hands with aces, kings and jokers in the deck,
two betting rounds around a draw, and face cards that fight back when you pay for a scratch.

Betting: from the dealer's left each player checks or wagers (1 to 2A); facing a wager, they
meet it, raise it (by 1 to 2A) or fold. A player's wagers over both rounds total at most 5A.
A round ends when everyone still in has answered the last wager. Folded players' cards
collect nothing this round. The draw: each player still in discards up to two cards face up
and draws as many from the stub.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import combinations_with_replacement

from horserace.components.cards import (
    ALL_RANKS,
    KING,
    count_of,
    parse_rank,
    rank_text,
    total,
    with_count,
)
from horserace.core.events import Event
from horserace.rules.board import events as ev
from horserace.rules.board.model import PASS, BoardState, Pass, Phase
from horserace.rules.board.penalties import pay_into
from horserace.rules.board.seats import next_seat, seats_from

JACK, QUEEN = 11, 12
MAX_WAGER, MAX_TOTAL, MAX_DISCARDS = 2, 5, 2  # in antes; cards


@dataclass(frozen=True)
class Check:
    @property
    def text(self) -> str:
        return "check"


@dataclass(frozen=True)
class Wager:
    """Open the betting (facing no wager) or raise (facing one) by `amount` chips."""

    amount: int
    raising: bool

    @property
    def text(self) -> str:
        return f"{'raise' if self.raising else 'wager'} {self.amount}"


@dataclass(frozen=True)
class Meet:
    @property
    def text(self) -> str:
        return "meet"


@dataclass(frozen=True)
class Fold:
    @property
    def text(self) -> str:
        return "fold"


@dataclass(frozen=True)
class Discard:
    """The draw: these cards (0 to 2) go face up to the discards and as many are drawn."""

    ranks: tuple[int, ...]

    @property
    def text(self) -> str:
        return "discard " + (" ".join(rank_text(r) for r in self.ranks) or "none")


@dataclass(frozen=True)
class Power:
    """After paying for a scratched horse: J moves `horse` back a slot, Q/K put 1/2 chips
    under it (each stops one roll of it; the chips go to the pot)."""

    card: int
    horse: int

    @property
    def text(self) -> str:
        name = {JACK: "jack", QUEEN: "queen", KING: "king"}[self.card]
        return f"{name} {self.horse}"


CHECK, MEET, FOLD = Check(), Meet(), Fold()
HustedAction = Check | Wager | Meet | Fold | Discard | Power


def parse(text: str) -> HustedAction | None:
    """Husted's text forms, or None when `text` is not one of them."""
    words = text.lower().split()
    simple: dict[str, Check | Meet | Fold] = {"check": CHECK, "meet": MEET, "fold": FOLD}
    if len(words) == 1 and words[0] in simple:
        return simple[words[0]]
    if len(words) == 2 and words[0] in ("wager", "raise") and words[1].isdigit():
        return Wager(int(words[1]), raising=words[0] == "raise")
    if words and words[0] == "discard":
        rest = [] if words[1:] == ["none"] else words[1:]
        return Discard(tuple(sorted(parse_rank(w, ALL_RANKS) for w in rest)))
    if len(words) == 2 and words[0] in ("jack", "queen", "king") and words[1].isdigit():
        card = {"jack": JACK, "queen": QUEEN, "king": KING}[words[0]]
        return Power(card, int(words[1]))
    return None


# --- betting ------------------------------------------------------------------------------


def in_hand(state: BoardState) -> list[int]:
    """Seats still in this round's betting, from the dealer's left."""
    return [s for s in seats_from(state, next_seat(state, state.dealer)) if not state.folded[s]]


def start_betting(state: BoardState, round_no: int) -> BoardState:
    players = in_hand(state)
    state = replace(
        state,
        phase=Phase.BETTING,
        bet_round=round_no,
        bet_level=0,
        round_bets=(0,) * state.config.players,
        to_act=tuple(players) if len(players) > 1 else (),
    )
    return _after_bet(state)  # with one player left in, there is nothing to bet


def betting_legal(state: BoardState, seat: int) -> tuple[HustedAction, ...]:
    ante = state.config.ante
    owe = state.bet_level - state.round_bets[seat]
    room = MAX_TOTAL * ante - state.wagered[seat] - owe  # what a new wager may still add
    chips = state.ledger.balances[seat]
    top = min(MAX_WAGER * ante, room, chips - owe)
    if owe == 0:
        return (CHECK, *(Wager(x, raising=False) for x in range(1, top + 1)))
    return (MEET, *(Wager(x, raising=True) for x in range(1, top + 1)), FOLD)


def bet(state: BoardState, seat: int, action: HustedAction, events: list[Event]) -> BoardState:
    owe = state.bet_level - state.round_bets[seat]
    rest = state.to_act[1:]
    if isinstance(action, Fold):
        folded = list(state.folded)
        folded[seat] = True
        events.append(ev.Folded(seat))
        return _after_bet(replace(state, folded=tuple(folded), to_act=rest))
    if isinstance(action, Check):
        events.append(ev.Checked(seat))
        return _after_bet(replace(state, to_act=rest))
    added = owe + (action.amount if isinstance(action, Wager) else 0)
    before = state.ledger.balances[state.config.players]
    state = pay_into(state, seat, state.config.players, added, action.text, events)
    paid = state.ledger.balances[state.config.players] - before
    round_bets, wagered = list(state.round_bets), list(state.wagered)
    round_bets[seat] += added  # a short payment still meets: pay what you can
    wagered[seat] += paid
    state = replace(state, round_bets=tuple(round_bets), wagered=tuple(wagered))
    if isinstance(action, Wager):  # everyone else still in must answer the new level
        order = in_hand(state)
        start = order.index(seat)
        rest = tuple(order[start + 1 :] + order[:start])
        state = replace(state, bet_level=round_bets[seat])
    return _after_bet(replace(state, to_act=rest))


def _after_bet(state: BoardState) -> BoardState:
    if state.to_act and len(in_hand(state)) > 1:
        return state
    if state.bet_round == 1:
        drawers = tuple(in_hand(state))
        return replace(state, phase=Phase.DRAW, to_act=(), drawers=drawers)
    from horserace.rules.board.dealing import start_scratch

    state, _ = start_scratch(replace(state, to_act=()), [])
    return state


# --- the draw -----------------------------------------------------------------------------


def draw_legal(state: BoardState, seat: int) -> tuple[Discard, ...]:
    hand = state.hands[seat]
    most = min(MAX_DISCARDS, total(state.deck), total(hand))
    ranks = [r for r in ALL_RANKS if count_of(hand, r)]
    options = [Discard(())]
    for size in range(1, most + 1):
        for combo in combinations_with_replacement(ranks, size):
            if all(combo.count(r) <= count_of(hand, r) for r in combo):
                options.append(Discard(tuple(combo)))
    return tuple(options)


def discard(state: BoardState, seat: int, action: Discard, events: list[Event]) -> BoardState:
    hands, discards = list(state.hands), state.discards
    for rank in action.ranks:
        hands[seat] = with_count(hands[seat], rank, -1)
        discards = with_count(discards, rank, 1)
    events.append(ev.CardsDrawn(seat, action.ranks))
    state = replace(state, hands=tuple(hands), discards=discards)
    if action.ranks:
        return replace(state, draw_to=seat, draw_left=len(action.ranks))
    return next_drawer(state)


def draw_card(state: BoardState, rank: int, events: list[Event]) -> BoardState:
    seat = state.draw_to
    hands = list(state.hands)
    hands[seat] = with_count(hands[seat], rank, 1)
    events.append(ev.CardDealt(seat, rank, False))
    state = replace(
        state,
        hands=tuple(hands),
        deck=with_count(state.deck, rank, -1),
        draw_left=state.draw_left - 1,
    )
    return state if state.draw_left else next_drawer(replace(state, draw_to=-1))


def next_drawer(state: BoardState) -> BoardState:
    rest = state.drawers[1:]
    state = replace(state, drawers=rest)
    return state if rest else start_betting(state, 2)


# --- face cards in the race -----------------------------------------------------------------


def offer_power(state: BoardState, seat: int) -> BoardState:
    hand = state.hands[seat]
    if state.config.husted and any(count_of(hand, card) for card in (JACK, QUEEN, KING)):
        return replace(state, power_seat=seat)
    return state


def power_legal(state: BoardState, seat: int) -> tuple[Pass | Power, ...]:
    hand, chips = state.hands[seat], state.ledger.balances[seat]
    running = [h for h in range(2, 13) if not state.line_of(h)]
    moves: list[Pass | Power] = [PASS]
    for horse in running:
        if count_of(hand, JACK) and state.position(horse) > 0:
            moves.append(Power(JACK, horse))
        if count_of(hand, QUEEN) and chips >= 1:
            moves.append(Power(QUEEN, horse))
        if count_of(hand, KING) and chips >= 2:
            moves.append(Power(KING, horse))
    return tuple(moves)


def use_power(state: BoardState, action: Power, events: list[Event]) -> BoardState:
    seat = state.power_seat
    hands = list(state.hands)
    hands[seat] = with_count(hands[seat], action.card, -1)
    state = replace(
        state,
        hands=tuple(hands),
        discards=with_count(state.discards, action.card, 1),
        power_seat=-1,
    )
    events.append(ev.FaceCardPlayed(seat, action.card, action.horse))
    if action.card == JACK:
        positions = list(state.positions)
        positions[action.horse - 2] -= 1
        return replace(state, positions=tuple(positions))
    chips = 1 if action.card == QUEEN else 2
    state = pay_into(
        state, seat, state.config.players, chips, f"chips under horse {action.horse}", events
    )
    blocks = list(state.blocks)
    blocks[action.horse - 2] += chips
    return replace(state, blocks=tuple(blocks))
