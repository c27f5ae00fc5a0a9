"""The card race: deal the course, bet (book, tote, party or Calcutta), turn cards until the
places the bets need are settled, pay out, pass the deal left; for the agreed number of races.

Every card comes off the deck as its own chance step (each remaining card equally likely), so
a scripted game names its cards and the odds can enumerate them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from horserace.components.french_deck import SUIT_LETTERS, Card, is_joker, pack, suit_of
from horserace.core.actions import Action
from horserace.core.errors import IllegalAction
from horserace.core.events import Event
from horserace.core.ledger import Ledger
from horserace.core.rules import Result, Rules, rank_standings
from horserace.core.types import CHANCE, TERMINAL, Actor
from horserace.families.cards.rules import events as ev
from horserace.families.cards.rules.actions import DealCard, parse_card_action
from horserace.families.cards.rules.book import BookStyle
from horserace.families.cards.rules.calcutta import CalcuttaStyle
from horserace.families.cards.rules.config import CardsConfig, cards_config
from horserace.families.cards.rules.party import PartyStyle
from horserace.families.cards.rules.state import Auction, Betting, CardsPhase, CardsState, CardsView
from horserace.families.cards.rules.styles import Style
from horserace.families.cards.rules.tote_bets import ToteStyle
from horserace.families.cards.rules.track import (
    RACING_SUITS,
    CardTrack,
    fall_back,
    move_up,
    race_settled,
    stumble,
)

STYLES: Mapping[str, Style] = {
    style.name: style for style in (BookStyle(), ToteStyle(), PartyStyle(), CalcuttaStyle())
}


def full_deck(config: CardsConfig) -> tuple[Card, ...]:
    """The pack without the aces (they are the horses); ranks 2.. in each suit, and the joker
    when horses may stumble."""
    return pack(range(2, config.ranks + 2), jokers=1 if config.stumbling else 0)


def cut_rank(card: Card | None) -> int:
    """How high a cut card is: king 13 down to 2 (the aces are the horses); a joker lowest."""
    if card is None or is_joker(card):
        return 0
    return card % 13 + 1


def _card(card: Card | None) -> Card:
    assert card is not None
    return card


def _without(deck: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    index = deck.index(card)
    return deck[:index] + deck[index + 1 :]


class CardsRules(Rules[CardsConfig, CardsState]):
    family = "cards"
    # Calcutta records written before a pass left the bidding let a seat bid again after a bid;
    # stumbling records written before a joker dealt to the course was discarded left it there
    options_added_later: Mapping[str, Any] = {"pass_leaves": False, "course_joker": "stays"}

    # --- configuration -------------------------------------------------
    def make_config(self, options: Mapping[str, Any]) -> CardsConfig:
        return cards_config(options)

    def style(self, config: CardsConfig) -> Style:
        return STYLES[config.betting]

    # --- the game tree ---------------------------------------------------
    def initial_state(self, config: CardsConfig) -> CardsState:
        n = config.players
        labels = [f"seat {seat + 1}" for seat in range(n)] + ["table", "bank"]
        ledger = Ledger.open(labels, [config.starting_chips] * n + [0, config.bank_funds])
        cutting = config.cut_for_deal
        return CardsState(
            config=config,
            race=1,
            dealer=config.first_dealer,
            phase=CardsPhase.CUT if cutting else CardsPhase.COURSE,
            cut=(None,) * n if cutting else (),
            cutters=tuple(range(n)) if cutting else (),
            ledger=ledger,
            **_new_race(config),
        )

    def actor(self, state: CardsState) -> Actor:
        if state.phase is CardsPhase.OVER:
            return TERMINAL
        if state.phase is CardsPhase.BETTING:
            seat = self.style(state.config).actor(state)
            assert seat is not None, "the betting ends as soon as nobody is left to act"
            return seat
        return CHANCE

    def legal_actions(self, state: CardsState, seat: int) -> Sequence[Action]:
        if state.phase is not CardsPhase.BETTING or self.actor(state) != seat:
            return ()
        return self.style(state.config).legal(state, seat)

    def chance_weights(self, state: CardsState) -> tuple[Sequence[Action], Sequence[int]]:
        if state.phase not in (CardsPhase.CUT, CardsPhase.COURSE, CardsPhase.RACE):
            return (), ()
        return [DealCard(card) for card in state.deck], [1] * len(state.deck)

    def parse_action(self, state: CardsState, text: str) -> Action:
        if state.phase in (CardsPhase.CUT, CardsPhase.COURSE, CardsPhase.RACE):
            return parse_card_action(text)
        return self.style(state.config).parse(text)

    def refuse_out_of_turn(self, state: CardsState, seat: int) -> None:
        if state.phase is CardsPhase.BETTING:
            self.style(state.config).refuse_out_of_turn(state, seat)

    def verify(self, state: CardsState, action: Action) -> None:
        if state.phase is CardsPhase.OVER:
            raise IllegalAction("the game is over")
        if state.phase is CardsPhase.BETTING:
            if isinstance(action, DealCard):
                raise IllegalAction("the bets come first; no card is dealt now")
            self.style(state.config).verify(state, action)
            return
        if not isinstance(action, DealCard):
            raise IllegalAction(f"a card is dealt now, not {action.text!r}")
        if action.card not in state.deck:
            raise IllegalAction(f"{action.text} is not in the deck")

    def apply(self, state: CardsState, action: Action) -> tuple[CardsState, tuple[Event, ...]]:
        self.verify(state, action)
        if state.phase is CardsPhase.BETTING:
            style = self.style(state.config)
            after, events = style.act(state, action)
            if style.actor(after) is None:
                after, more = self._start_race(after)
                events += more
            return after, tuple(events)
        assert isinstance(action, DealCard)
        if state.phase is CardsPhase.CUT:
            cut_after, cut_events = self._cut_card(state, action.card)
            return cut_after, tuple(cut_events)
        if state.phase is CardsPhase.COURSE:
            course_after, course_events = self._course_card(state, action.card)
            return course_after, tuple(course_events)
        race_after, race_events = self._race_card(state, action.card)
        return race_after, tuple(race_events)

    # --- the cut for the first deal ----------------------------------------
    def _cut_card(self, state: CardsState, card: Card) -> tuple[CardsState, list[Event]]:
        """Each cutter in seat order cuts one card; the highest deals first, and players tied
        for the highest cut again (from what is left of the pack, a fresh one if it runs out)."""
        seat = next(s for s in state.cutters if state.cut[s] is None)
        cut = tuple(card if s == seat else c for s, c in enumerate(state.cut))
        state = replace(state, deck=_without(state.deck, card), cut=cut)
        events: list[Event] = [ev.CardCut(seat, card)]
        if any(cut[s] is None for s in state.cutters):
            return state, events
        best = max(cut_rank(cut[s]) for s in state.cutters)
        top = tuple(s for s in state.cutters if cut_rank(cut[s]) == best)
        if len(top) > 1:
            deck = state.deck if len(state.deck) >= len(top) else full_deck(state.config)
            again = tuple(None if s in top else c for s, c in enumerate(cut))
            events.append(ev.CutTied(top))
            return replace(state, cut=again, cutters=top, deck=deck), events
        dealer = top[0]
        events.append(ev.DealerCut(dealer, card=_card(cut[dealer])))
        state = replace(
            state, dealer=dealer, phase=CardsPhase.COURSE, deck=full_deck(state.config), cutters=()
        )
        return state, events

    # --- the course --------------------------------------------------------
    def _course_card(self, state: CardsState, card: Card) -> tuple[CardsState, list[Event]]:
        config = state.config
        if is_joker(card) and not config.joker_stays:  # discarded; the link gets the next card
            state = replace(state, deck=_without(state.deck, card), discarded=(card,))
            return state, [ev.CourseJokerDiscarded(len(state.course) + 1)]
        course = (*state.course, card)
        dealt = ev.CourseCardDealt(len(course), card, not config.faltering)
        state = replace(state, deck=_without(state.deck, card), course=course)
        if len(course) < config.course_length:
            return state, [dealt]
        counts = Counter(suit_of(c) for c in course if not is_joker(c))
        if config.redeal and counts:
            suit, count = min(counts.items(), key=lambda item: (-item[1], item[0]))
            if count >= config.redeal_at:
                again = replace(
                    state,
                    deck=full_deck(config),
                    course=(),
                    discarded=(),
                    redeals=state.redeals + 1,
                )
                return again, [dealt, ev.CourseRedealt(suit, count)]
        state = replace(state, phase=CardsPhase.BETTING)
        style = self.style(config)
        state, events = style.open(state)
        if style.actor(state) is None:
            state, more = self._start_race(state)
            events += more
        return state, [dealt, *events]

    # --- the race -------------------------------------------------------------
    def _settled(self, state: CardsState) -> bool:
        unseen = state.unseen_by_suit()
        return race_settled(
            state.track,
            state.places,
            unseen,
            state.joker_unseen(),
            state.config.need,
            len(state.deck),
        )

    def _start_race(self, state: CardsState) -> tuple[CardsState, list[Event]]:
        places = self.style(state.config).places(state)
        state = replace(state, phase=CardsPhase.RACE, places=places)
        events: list[Event] = [ev.BetsClosed(places)]
        if self._settled(state):
            state, more = self._finish_race(state)
            events += more
        return state, events

    def _race_card(self, state: CardsState, card: Card) -> tuple[CardsState, list[Event]]:
        config = state.config
        track = state.track
        events: list[Event] = [ev.CardTurned(card)]
        if is_joker(card):
            track, moved = stumble(track)
            events.append(ev.JokerTurned(moved))
        elif track.running(suit_of(card)):
            suit = suit_of(card)
            track = move_up(track, suit, config.need)
            position = track.positions[suit]
            events.append(ev.HorseMoved(suit, position))
            if not track.running(suit):
                events.append(ev.HorseFinished(suit, len(track.finished)))
            elif config.faltering and track.frontier < position <= config.course_length:
                link_card = state.course[position - 1]
                track = replace(track, frontier=position)
                events.append(ev.LinkTurned(position, link_card))
                if not is_joker(link_card):  # a joker left on its link moves nobody
                    fallen = fall_back(track, suit_of(link_card))
                    if fallen != track:
                        back = suit_of(link_card)
                        events.append(ev.HorseFellBack(back, fallen.positions[back]))
                    track = fallen
        state = replace(
            state, deck=_without(state.deck, card), track=track, turned=(*state.turned, card)
        )
        if self._settled(state):
            state, more = self._finish_race(state)
            events += more
        return state, events

    def _finish_race(self, state: CardsState) -> tuple[CardsState, list[Event]]:
        track = state.track
        short = len(track.finished) < min(state.places, len(RACING_SUITS) - 1)
        by_position = track.standing if short else ()  # places the bets needed, not crossed
        events: list[Event] = [ev.RaceOver(track.order, by_position, len(state.turned))]
        state, paid = self.style(state.config).settle(state, track.order)
        events += paid
        if state.race >= state.config.races:
            over = replace(state, phase=CardsPhase.OVER)
            result = self.result(over)
            return over, [*events, ev.GameOver(result.winners, result.unclaimed)]
        dealer = (state.dealer + 1) % state.config.players
        state = replace(
            state,
            race=state.race + 1,
            dealer=dealer,
            phase=CardsPhase.COURSE,
            **_new_race(state.config),
        )
        return state, [*events, ev.RaceStarted(state.race, dealer)]

    # --- what leaves the core -------------------------------------------------
    def view(self, state: CardsState, seat: int | None) -> CardsView:
        n = state.config.players
        course = tuple(
            value if state.face_up(link) else None for link, value in enumerate(state.course, 1)
        )
        actor = self.actor(state)
        return CardsView(
            seat=seat,
            config=state.config,
            race=state.race,
            dealer=state.dealer,
            phase=state.phase,
            chips=state.ledger.balances[:n],
            table=state.ledger.balance(state.table_account),
            bank=state.ledger.balance(state.bank_account),
            course=course,
            course_dealt=len(state.course),
            track=state.track,
            turned=state.turned,
            deck_left=len(state.deck),
            places=state.places,
            betting=state.betting,
            auction=state.auction,
            unseen=state.unseen_by_suit(),
            joker_unseen=state.joker_unseen(),
            actor=actor if isinstance(actor, int) else None,
            cut=state.cut,
        )

    def standings(self, state: CardsState) -> Result:
        n = state.config.players
        return rank_standings(state.ledger.balances[:n], unclaimed=sum(state.ledger.balances[n:]))


__all__ = ["STYLES", "SUIT_LETTERS", "CardsRules", "full_deck"]


def _new_race(config: CardsConfig) -> dict[str, Any]:
    """The parts of the state every race starts with: a full deck, no course, nobody moved,
    no bets."""
    return {
        "deck": full_deck(config),
        "course": (),
        "track": CardTrack(),
        "turned": (),
        "places": 1,
        "betting": Betting(),
        "auction": Auction(),
        "redeals": 0,
        "discarded": (),
    }
