"""Pari-mutuel pools in whole chips, settled as a racetrack tote does.

The takeout (a whole percent of the pool, rounded down) goes to the house. When several
selections win (place: the first two; show: the first three), the winning tickets first get
their stakes back and the profit (net pool less winning stakes) is split equally between the
winning selections that hold tickets (a placed horse nobody backed leaves its part to the
others), then by stake within each. With one winning selection that is simply "net pool by
stake". If nobody holds a winning ticket, the net pool is refunded by stake. Every payout is
whole chips rounded down; the odd chips left over stay with the house. A winning ticket never
returns less than its stake: where the net pool cannot cover the winning stakes (a minus pool)
each winning ticket gets its share of the net pool and the house makes up the rest.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from horserace.core.errors import ConfigError

__all__ = ["PoolResult", "Ticket", "settle_pool", "shares_by_weight"]


@dataclass(frozen=True)
class Ticket:
    holder: int
    selection: Hashable
    stake: int


@dataclass(frozen=True)
class PoolResult:
    """A settled pool: per ticket (in the order given) what the pool pays it and what the
    house adds (a minus pool); the odd chips the rounding leaves go to the house."""

    total: int
    takeout: int
    from_pool: tuple[int, ...]
    from_house: tuple[int, ...]
    refunded: bool  # nobody held a winning ticket

    @property
    def net(self) -> int:
        return self.total - self.takeout

    @property
    def payouts(self) -> tuple[int, ...]:
        """What each ticket collects in all."""
        return tuple(a + b for a, b in zip(self.from_pool, self.from_house, strict=True))

    @property
    def odd_chips(self) -> int:
        """What the rounding down leaves of the net pool: the house keeps it."""
        return self.net - sum(self.from_pool)

    @property
    def house_keeps(self) -> int:
        """The house's take from the pool: takeout and odd chips, less what it made up."""
        return self.takeout + self.odd_chips - sum(self.from_house)


def shares_by_weight(amount: int, weights: Sequence[int]) -> list[int]:
    """`amount` shared in proportion to `weights`, each share rounded down to whole chips."""
    if amount < 0 or any(w < 0 for w in weights):
        raise ConfigError(f"amounts and weights are whole numbers >= 0, not {amount} by {weights}")
    whole = sum(weights)
    if whole == 0:
        if amount:
            raise ConfigError(f"{amount} cannot be shared by weights that are all 0")
        return [0] * len(weights)
    return [amount * w // whole for w in weights]


def settle_pool(
    tickets: Sequence[Ticket], winning: Sequence[Hashable], takeout_percent: int
) -> PoolResult:
    """Pay out one pool; `winning` lists the winning selections, best placed first."""
    total = sum(t.stake for t in tickets)
    takeout = total * takeout_percent // 100
    net = total - takeout
    stakes = [t.stake for t in tickets]
    groups = [[i for i, t in enumerate(tickets) if t.selection == sel] for sel in winning]
    groups = [group for group in groups if group]
    nothing = (0,) * len(tickets)
    if not groups:
        refunds = tuple(shares_by_weight(net, stakes))
        return PoolResult(total, takeout, refunds, nothing, refunded=True)
    from_pool, from_house = [0] * len(tickets), [0] * len(tickets)
    winners = [i for group in groups for i in group]
    winning_stakes = sum(stakes[i] for i in winners)
    profit = net - winning_stakes
    if profit < 0:  # a minus pool: the net pool by stake, the house makes up each stake
        shares = shares_by_weight(net, [stakes[i] for i in winners])
        for i, share in zip(winners, shares, strict=True):
            from_pool[i], from_house[i] = share, stakes[i] - share
        return PoolResult(total, takeout, tuple(from_pool), tuple(from_house), refunded=False)
    each = profit // len(groups)
    for group in groups:
        shares = shares_by_weight(each, [stakes[i] for i in group])
        for i, share in zip(group, shares, strict=True):
            from_pool[i] = stakes[i] + share
    return PoolResult(total, takeout, tuple(from_pool), nothing, refunded=False)
