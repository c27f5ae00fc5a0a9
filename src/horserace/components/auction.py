"""An English auction of one lot, taken in turns: whole chips, each bid higher than the last.

The bidders are asked in a fixed rotation. A bidder may bid when they can pay more than the
best bid and have not passed since it (with `pass_leaves`, have not passed on this lot at all:
a pass leaves its bidding); the window closes when nobody else may bid (every other bidder
has passed, or cannot pay more). A lot nobody bid on is unsold.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from horserace.core.errors import ConfigError, IllegalAction


@dataclass(frozen=True)
class EnglishAuction:
    """The state of one lot; `turn` is the bidder asked now (None once the window closed) and
    `leader` the best bid's bidder (None before the first bid)."""

    rotation: tuple[int, ...]  # the bidders, in the order they are asked
    purses: tuple[int, ...]  # what each seat can pay, indexed by seat
    minimum: int = 1
    high: int = 0
    leader: int | None = None
    passed: frozenset[int] = field(default_factory=frozenset)
    turn: int | None = None
    pass_leaves: bool = False  # a pass leaves the bidding on the lot (not only until a new bid)

    @property
    def closed(self) -> bool:
        return self.turn is None

    @property
    def sold(self) -> bool:
        return self.closed and self.leader is not None

    @property
    def lowest_bid(self) -> int:
        return max(self.minimum, self.high + 1)

    def may_bid(self, seat: int) -> bool:
        return (
            seat in self.rotation
            and seat != self.leader
            and seat not in self.passed
            and self.purses[seat] >= self.lowest_bid
        )

    def bids_open_to(self, seat: int) -> range:
        """The amounts `seat` may bid now (empty when it may not bid)."""
        if not self.may_bid(seat):
            return range(0)
        return range(self.lowest_bid, self.purses[seat] + 1)


def _next_turn(auction: EnglishAuction, after: int | None) -> EnglishAuction:
    """Ask the next bidder in rotation after `after` (from the start when None) who may bid."""
    rotation = auction.rotation
    start = 0 if after is None else rotation.index(after) + 1
    for offset in range(len(rotation)):
        seat = rotation[(start + offset) % len(rotation)]
        if auction.may_bid(seat):
            return replace(auction, turn=seat)
    return replace(auction, turn=None)


def open_lot(
    rotation: Sequence[int], purses: Sequence[int], minimum: int = 1, pass_leaves: bool = False
) -> EnglishAuction:
    """A new lot; it is closed (unsold) at once when nobody can pay the minimum."""
    if minimum < 1:
        raise ConfigError(f"the minimum bid must be at least 1, not {minimum}")
    auction = EnglishAuction(tuple(rotation), tuple(purses), minimum, pass_leaves=pass_leaves)
    return _next_turn(auction, None)


def bid(auction: EnglishAuction, seat: int, amount: int) -> EnglishAuction:
    if auction.turn != seat:
        raise IllegalAction(f"it is not seat {seat + 1}'s turn to bid")
    if amount not in auction.bids_open_to(seat):
        if amount < auction.lowest_bid:
            raise IllegalAction(f"a bid must be at least {auction.lowest_bid}")
        raise IllegalAction(f"seat {seat + 1} holds only {auction.purses[seat]} chips")
    passed = auction.passed if auction.pass_leaves else frozenset()
    raised = replace(auction, high=amount, leader=seat, passed=passed)
    return _next_turn(raised, seat)


def pass_turn(auction: EnglishAuction, seat: int) -> EnglishAuction:
    if auction.turn != seat:
        raise IllegalAction(f"it is not seat {seat + 1}'s turn to bid")
    passed = replace(auction, passed=auction.passed | {seat})
    return _next_turn(passed, seat)
