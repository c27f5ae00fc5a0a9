"""What a card-race simulation counts, game by game; chunks merge in index order, whichever
engine played them (the reference engine's observer here or the compiled kernel's arrays)."""

from __future__ import annotations

from dataclasses import dataclass, field

from horserace.components.french_deck import is_joker, suit_of
from horserace.core.chance import SeededChance
from horserace.core.chunks import GameTally, Span
from horserace.core.rng import BOT_STREAM, GAME_STREAM, derive_seed
from horserace.core.stats import RunningStats
from horserace.engine import Game, Step, play
from horserace.families.cards.bots import make_cards_bot, view_odds
from horserace.families.cards.rules import events as ev
from horserace.families.cards.rules.config import CardsConfig
from horserace.families.cards.rules.rules import CardsRules
from horserace.families.cards.rules.state import CardsState
from horserace.families.presets import get_preset


@dataclass
class CardsTally(GameTally):
    race_cards: RunningStats = field(default_factory=RunningStats)
    card_counts: dict[int, int] = field(default_factory=dict)  # races by their course cards
    starts: dict[int, int] = field(default_factory=dict)  # by course count
    wins: dict[int, int] = field(default_factory=dict)
    bet_return: RunningStats = field(default_factory=RunningStats)  # book: per chip, per bet
    bet_edge: RunningStats = field(default_factory=RunningStats)  # book: exact edge, per bet
    takeout: int = 0
    pool: RunningStats = field(default_factory=RunningStats)  # tote and Calcutta, per race
    seat_chips: list[RunningStats] = field(default_factory=list)
    unclaimed: RunningStats = field(default_factory=RunningStats)

    def __post_init__(self) -> None:
        if not self.seat_chips:
            self.seat_chips = [RunningStats() for _ in range(self.players)]


def _counts(state: CardsState) -> list[int]:
    return [
        sum(1 for c in state.course if not is_joker(c) and suit_of(c) == suit) for suit in range(4)
    ]


class _Observer:
    """Reads each step's events into the tally."""

    def __init__(self, tally: CardsTally, rules: CardsRules) -> None:
        self.tally = tally
        self.rules = rules
        self.pending: list[tuple[int, int, int, int, float]] = []  # suit, stake, win, per, edge

    def __call__(self, step: Step) -> None:
        tally = self.tally
        tally.steps += 1
        before: CardsState = step.before
        for event in step.events:
            if isinstance(event, ev.BetPlaced) and before.config.betting == "book":
                self._book_bet(before, event)
            elif isinstance(event, ev.RaceOver):
                tally.races += 1
                tally.race_cards.add(event.cards)
                tally.card_counts[event.cards] = tally.card_counts.get(event.cards, 0) + 1
                counts = _counts(before)
                for count in counts:
                    tally.starts[count] = tally.starts.get(count, 0) + 1
                winner = event.order[0]
                tally.wins[counts[winner]] = tally.wins.get(counts[winner], 0) + 1
                for suit, stake, win, per, _ in self.pending:
                    back = stake + stake * win // per if suit == winner else 0
                    tally.bet_return.add((back - stake) / stake)
                self.pending = []
            elif isinstance(event, ev.PoolSettled):
                tally.takeout += event.kept
                if event.pool != "the book":
                    tally.pool.add(event.total)

    def _book_bet(self, state: CardsState, event: ev.BetPlaced) -> None:
        suit = event.horses[0]
        price = state.config.book_odds.price(state.course_count(suit))
        assert price is not None
        chance = view_odds(self.rules.view(state, None), 1).win[suit]
        edge = 1 - chance * (1 + price[0] / price[1])
        self.pending.append((suit, event.stake, price[0], price[1], edge))
        self.tally.bet_edge.add(edge)


def engine_span(
    preset_name: str, config: CardsConfig, bots: tuple[str, ...], seed: int, span: Span
) -> CardsTally:
    """The span's games through the reference play loop, tallied in index order."""
    rules = get_preset(preset_name).rules
    assert isinstance(rules, CardsRules)
    tally = CardsTally(config.players)
    for index in range(span.start, span.stop):
        game_seed = derive_seed(seed, GAME_STREAM, index)
        game = Game(preset_name, rules, config, seed=game_seed, chance_mode="seeded")
        agents = {
            seat: make_cards_bot(kind, derive_seed(game_seed, BOT_STREAM, seat))
            for seat, kind in enumerate(bots)
        }
        play(game, agents, SeededChance(game_seed), observe=_Observer(tally, rules))
        result = rules.result(game.state)
        for standing in result.standings:
            tally.seat_chips[standing.seat].add(standing.chips)
        tally.unclaimed.add(result.unclaimed)
        tally.games += 1
    return tally
