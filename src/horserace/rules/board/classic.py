"""Classic Mode: deal, four scratch rolls, the race, payout, reset; no decisions but rolling."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from horserace.components.cards import (
    NO_CARDS,
    RANKS,
    RankCounts,
    add_counts,
    count_of,
    full_deck,
    total,
    with_count,
)
from horserace.components.dice import ALL_ROLLS, DiceRoll
from horserace.core.actions import Action
from horserace.core.errors import IllegalAction, InvalidAction
from horserace.core.events import Event
from horserace.core.ledger import Ledger
from horserace.core.rules import Result, Rules, rank_standings
from horserace.core.types import CHANCE, TERMINAL, Actor
from horserace.rules.board import events as ev
from horserace.rules.board.classic_model import (
    AT_GATE,
    EMPTY_LINES,
    ROLL,
    SCRATCH_LINES,
    ClassicConfig,
    ClassicState,
    ClassicView,
    Deal,
    Phase,
    Roll,
    classic_config,
    classic_config_dict,
)

_ROLL_WEIGHTS = tuple(2 if roll.low != roll.high else 1 for roll in ALL_ROLLS)


class ClassicRules(Rules[ClassicConfig, ClassicState]):
    family = "board"

    # --- configuration -------------------------------------------------
    def make_config(self, options: Mapping[str, Any]) -> ClassicConfig:
        return classic_config(options)

    def config_to_dict(self, config: ClassicConfig) -> dict[str, Any]:
        return classic_config_dict(config)

    def players(self, config: ClassicConfig) -> int:
        return config.players

    # --- the game tree ---------------------------------------------------
    def initial_state(self, config: ClassicConfig) -> ClassicState:
        n = config.players
        labels = [f"seat {seat + 1}" for seat in range(n)] + ["pot"]
        ledger = Ledger.open(labels, [config.starting_chips] * n + [0])
        deck = full_deck(config.decks)
        state = ClassicState(
            config=config,
            round=1,
            dealer=config.first_dealer,
            phase=Phase.DEAL,
            hands=(NO_CARDS,) * n,
            deck=deck,
            to_deal=total(deck) // n * n,
            deal_to=(config.first_dealer + 1) % n,
            discards=NO_CARDS,
            lines=EMPTY_LINES,
            scratch_discards=(NO_CARDS,) * n,
            scratch_rolls=0,
            positions=AT_GATE,
            roller=(config.first_dealer + 1) % n,
            rolling=False,
            ledger=ledger,
            race_rolls=0,
        )
        return state if state.to_deal else self._start_scratch(state)

    def actor(self, state: ClassicState) -> Actor:
        if state.phase is Phase.OVER:
            return TERMINAL
        if state.phase is Phase.DEAL or state.rolling:
            return CHANCE
        return state.roller

    def legal_actions(self, state: ClassicState, seat: int) -> Sequence[Action]:
        return (ROLL,) if self.actor(state) == seat else ()

    def chance_weights(self, state: ClassicState) -> tuple[Sequence[Action], Sequence[int]]:
        if self.actor(state) is not CHANCE:
            return (), ()
        if state.phase is Phase.DEAL:
            ranks = [rank for rank in RANKS if count_of(state.deck, rank)]
            return [Deal(rank) for rank in ranks], [count_of(state.deck, r) for r in ranks]
        return ALL_ROLLS, _ROLL_WEIGHTS

    def parse_action(self, state: ClassicState, text: str) -> Action:
        actor = self.actor(state)
        word = text.strip()
        if actor is CHANCE:
            return Deal.parse(word) if state.phase is Phase.DEAL else DiceRoll.parse(word)
        if word == ROLL.text:
            return ROLL
        raise InvalidAction(f"{text!r} is not an action here; the only one is 'roll'")

    def verify(self, state: ClassicState, action: Action) -> None:
        actor = self.actor(state)
        if actor is TERMINAL:
            raise IllegalAction("the game is over")
        if isinstance(action, Roll):
            if actor is CHANCE:
                raise IllegalAction("the dice (or the deal) come next, not a player's action")
            return
        if actor is not CHANCE:
            raise IllegalAction(f"it is seat {actor + 1}'s turn to roll, not a chance outcome")
        if isinstance(action, Deal):
            if state.phase is not Phase.DEAL:
                raise IllegalAction("no card is being dealt now; the dice are")
            if not count_of(state.deck, action.rank):
                raise IllegalAction(f"no {action.text[5:]} is left in the deck")
            return
        if isinstance(action, DiceRoll):
            if state.phase is Phase.DEAL:
                raise IllegalAction("cards are being dealt now, not dice rolled")
            return
        raise IllegalAction(f"{action.text!r} is not part of Classic Mode")

    def apply(self, state: ClassicState, action: Action) -> tuple[ClassicState, tuple[Event, ...]]:
        self.verify(state, action)
        if isinstance(action, Roll):
            return replace(state, rolling=True), ()
        if isinstance(action, Deal):
            return self._deal(state, action.rank)
        assert isinstance(action, DiceRoll)
        rolled = ev.DiceRolled(state.roller, (action.low, action.high), state.phase.value)
        if state.phase is Phase.SCRATCH:
            after, events = self._scratch(replace(state, rolling=False), action.total)
        else:
            after, events = self._race(replace(state, rolling=False), action.total)
        return after, (rolled, *events)

    # --- dealing ---------------------------------------------------------
    def _deal(self, state: ClassicState, rank: int) -> tuple[ClassicState, tuple[Event, ...]]:
        n = state.config.players
        seat = state.deal_to
        hands = list(state.hands)
        hands[seat] = with_count(hands[seat], rank, 1)
        dealt = ev.CardDealt(seat, rank, state.config.open_hands)
        after = replace(
            state,
            hands=tuple(hands),
            deck=with_count(state.deck, rank, -1),
            to_deal=state.to_deal - 1,
            deal_to=(seat + 1) % n,
        )
        if after.to_deal == 0:
            after = self._start_scratch(after)
        return after, (dealt,)

    def _start_scratch(self, state: ClassicState) -> ClassicState:
        roller = (state.dealer + 1) % state.config.players
        return replace(state, phase=Phase.SCRATCH, roller=roller, rolling=False)

    # --- scratching ------------------------------------------------------
    def _scratch(self, state: ClassicState, horse: int) -> tuple[ClassicState, tuple[Event, ...]]:
        line = state.scratch_rolls + 1
        earlier = state.line_of(horse)
        if earlier and state.config.repeat_scratch == "reroll":
            return state, (ev.RepeatRerolled(state.roller, horse),)
        if earlier:
            state, events = self._rescratch(state, horse, earlier, line)
        else:
            state, events = self._first_scratch(state, horse, line)
        n = state.config.players
        state = replace(state, scratch_rolls=line, roller=(state.roller + 1) % n)
        if line == SCRATCH_LINES:
            state = replace(state, phase=Phase.RACE)
        return state, tuple(events)

    def _first_scratch(
        self, state: ClassicState, horse: int, line: int
    ) -> tuple[ClassicState, list[Event]]:
        events: list[Event] = [ev.HorseScratched(horse, line, None)]
        lines = list(state.lines)
        lines[line - 1] = horse
        hands, given_up = list(state.hands), list(state.scratch_discards)
        discards, ledger = state.discards, state.ledger
        pot = state.config.players
        for seat in self._seats_from(state, state.roller):
            cards = count_of(hands[seat], horse)
            if not cards:
                continue
            hands[seat] = with_count(hands[seat], horse, -cards)
            given_up[seat] = with_count(given_up[seat], horse, cards)
            discards = with_count(discards, horse, cards)
            ledger, paid = ledger.pay_what_you_can(seat, pot, line * cards)
            reason = f"{cards} × {horse} at scratch line {line}"
            events += [
                ev.CardsDiscarded(seat, horse, cards),
                ev.ChipsPaid(seat, line * cards, paid, reason),
            ]
        after = replace(
            state,
            lines=tuple(lines),
            hands=tuple(hands),
            scratch_discards=tuple(given_up),
            discards=discards,
            ledger=ledger,
        )
        return after, events

    def _rescratch(
        self, state: ClassicState, horse: int, earlier: int, line: int
    ) -> tuple[ClassicState, list[Event]]:
        """The horse moves down to the new line and its former holders pay that line again."""
        events: list[Event] = [ev.HorseScratched(horse, line, earlier)]
        lines = list(state.lines)
        lines[earlier - 1], lines[line - 1] = 0, horse
        ledger = state.ledger
        for seat in self._seats_from(state, state.roller):
            cards = count_of(state.scratch_discards[seat], horse)
            if cards:
                ledger, paid = ledger.pay_what_you_can(seat, state.config.players, line * cards)
                reason = f"held {cards} × {horse}, now on scratch line {line}"
                events.append(ev.ChipsPaid(seat, line * cards, paid, reason))
        return replace(state, lines=tuple(lines), ledger=ledger), events

    # --- racing ------------------------------------------------------------
    def _race(self, state: ClassicState, horse: int) -> tuple[ClassicState, tuple[Event, ...]]:
        n = state.config.players
        roller = state.roller
        state = replace(state, race_rolls=state.race_rolls + 1, roller=(roller + 1) % n)
        line = state.line_of(horse)
        if line:
            ledger, paid = state.ledger.pay_what_you_can(roller, n, line)
            reason = f"rolled scratched horse {horse} on line {line}"
            return replace(state, ledger=ledger), (ev.ChipsPaid(roller, line, paid, reason),)
        position = state.position(horse) + 1
        finish = state.config.board.advances_to_finish(horse)
        positions = list(state.positions)
        positions[horse - 2] = position
        state = replace(state, positions=tuple(positions))
        advanced = ev.HorseAdvanced(horse, position, finish)
        if position < finish:
            return state, (advanced,)
        state, events = self._payout(state, horse)
        return state, (advanced, *events)

    def _payout(self, state: ClassicState, horse: int) -> tuple[ClassicState, list[Event]]:
        """One share per winning card, share = floor(pot / cards in the deck); the rest stays."""
        pot_account = state.config.players
        pot = state.pot
        share = pot // (4 * state.config.decks)
        events: list[Event] = [ev.RaceWon(horse, state.race_rolls, pot, share)]
        ledger = state.ledger
        for seat in self._seats_from(state, state.dealer + 1):
            cards = count_of(state.hands[seat], horse)
            if cards:
                ledger = ledger.transfer(pot_account, seat, cards * share)
                events.append(ev.PayoutMade(seat, cards, cards * share))
        events.append(ev.PotCarried(ledger.balances[pot_account]))
        state = replace(state, ledger=ledger)
        if state.round == state.config.rounds:
            result = self.result(replace(state, phase=Phase.OVER))
            events.append(ev.GameOver(result.winners, result.unclaimed))
            return replace(state, phase=Phase.OVER), events
        return self._next_round(state, events)

    def _next_round(
        self, state: ClassicState, events: list[Event]
    ) -> tuple[ClassicState, list[Event]]:
        """Hands pass left; discards and stub are re-dealt; the dealer moves left."""
        config = state.config
        n = config.players
        hands = tuple(state.hands[(seat - 1) % n] for seat in range(n))
        deck = add_counts(state.deck, state.discards)
        dealer = (state.dealer + 1) % n if config.rotate_dealer else state.dealer
        to_deal = total(deck) // n * n
        after = replace(
            state,
            round=state.round + 1,
            dealer=dealer,
            phase=Phase.DEAL,
            hands=hands,
            deck=deck,
            to_deal=to_deal,
            deal_to=(dealer + 1) % n,
            discards=NO_CARDS,
            lines=EMPTY_LINES,
            scratch_discards=(NO_CARDS,) * n,
            scratch_rolls=0,
            positions=AT_GATE,
            race_rolls=0,
        )
        events += [
            ev.HandsPassed(),
            ev.RoundStarted(after.round, dealer, to_deal, total(deck) - to_deal),
        ]
        return (after if to_deal else self._start_scratch(after)), events

    @staticmethod
    def _seats_from(state: ClassicState, first: int) -> list[int]:
        n = state.config.players
        return [(first + offset) % n for offset in range(n)]

    # --- what leaves the core -------------------------------------------------
    def view(self, state: ClassicState, seat: int | None) -> ClassicView:
        n = state.config.players
        hands: tuple[RankCounts | None, ...] = tuple(
            hand if state.config.open_hands or owner == seat else None
            for owner, hand in enumerate(state.hands)
        )
        return ClassicView(
            seat=seat,
            round=state.round,
            rounds=state.config.rounds,
            dealer=state.dealer,
            phase=state.phase,
            chips=state.ledger.balances[:n],
            pot=state.pot,
            hands=hands,
            hand_sizes=tuple(total(hand) for hand in state.hands),
            undealt=total(state.deck),
            discards=state.discards,
            lines=state.lines,
            positions=state.positions,
            board=state.config.board,
            roller=state.roller,
            race_rolls=state.race_rolls,
            decks=state.config.decks,
        )

    def ledger(self, state: ClassicState) -> Ledger:
        return state.ledger

    def result(self, state: ClassicState) -> Result:
        if state.phase is not Phase.OVER:
            raise IllegalAction("the game is not over yet")
        n = state.config.players
        return rank_standings(state.ledger.balances[:n], unclaimed=state.pot)
