"""What a card-race simulation counts, game by game; chunks merge in index order, whichever
engine played them (the reference engine's observer or the compiled kernel's arrays)."""

from __future__ import annotations

from dataclasses import dataclass, field

from horserace.simulate.stats import RunningStats


@dataclass
class CardsTally:
    players: int
    games: int = 0
    races: int = 0
    steps: int = 0
    race_cards: RunningStats = field(default_factory=RunningStats)
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

    def merge(self, other: CardsTally) -> None:
        self.games += other.games
        self.races += other.races
        self.steps += other.steps
        for mine, theirs in (
            (self.race_cards, other.race_cards),
            (self.bet_return, other.bet_return),
            (self.bet_edge, other.bet_edge),
            (self.pool, other.pool),
            (self.unclaimed, other.unclaimed),
        ):
            mine.merge(theirs)
        for table, more in ((self.starts, other.starts), (self.wins, other.wins)):
            for count, value in more.items():
                table[count] = table.get(count, 0) + value
        self.takeout += other.takeout
        for seat, theirs in zip(self.seat_chips, other.seat_chips, strict=True):
            seat.merge(theirs)
