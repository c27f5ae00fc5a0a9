"""Pari-mutuel pools in whole chips: every chip of a pool less the takeout goes back to a ticket.

A pool settles as a racetrack tote does. The takeout (a whole percent, rounded down) goes to
the house. When several selections win (place: the first two; show: the first three), the
winning tickets first get their stakes back and the profit (net pool less winning stakes) is
split equally between the winning selections that hold tickets, then by stake within each.
With one winning selection that is simply "net pool by stake". If nobody holds a winning
ticket, the net pool is refunded by stake; if the takeout leaves less than the winning stakes,
the winners share the net pool by stake. Rounding uses the largest remainder, earlier tickets
first on a tie, so the payouts always add up to the net pool exactly.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from horserace.core.errors import ConfigError

__all__ = ["PoolResult", "Ticket", "settle_pool", "split_by_weight"]


@dataclass(frozen=True)
class Ticket:
    holder: int
    selection: Hashable
    stake: int


@dataclass(frozen=True)
class PoolResult:
    total: int
    takeout: int
    payouts: tuple[int, ...]  # per ticket, in the order given
    refunded: bool  # nobody held a winning ticket

    @property
    def net(self) -> int:
        return self.total - self.takeout


def split_by_weight(amount: int, weights: Sequence[int]) -> list[int]:
    """`amount` in whole chips, proportional to `weights` (largest remainder, earlier first)."""
    if amount < 0 or any(w < 0 for w in weights):
        raise ConfigError(f"amounts and weights are whole numbers >= 0, not {amount} by {weights}")
    whole = sum(weights)
    if whole == 0:
        if amount:
            raise ConfigError(f"{amount} cannot be shared by weights that are all 0")
        return [0] * len(weights)
    shares = [amount * w // whole for w in weights]
    remainders = [amount * w % whole for w in weights]
    left = amount - sum(shares)
    for index in sorted(range(len(weights)), key=lambda i: (-remainders[i], i))[:left]:
        shares[index] += 1
    return shares


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
    if not groups:
        return PoolResult(total, takeout, tuple(split_by_weight(net, stakes)), refunded=True)
    payouts = [0] * len(tickets)
    winners = [i for group in groups for i in group]
    winning_stakes = sum(stakes[i] for i in winners)
    profit = net - winning_stakes
    if profit < 0:
        for i, share in zip(
            winners, split_by_weight(net, [stakes[i] for i in winners]), strict=True
        ):
            payouts[i] = share
        return PoolResult(total, takeout, tuple(payouts), refunded=False)
    for group, group_profit in zip(groups, split_by_weight(profit, [1] * len(groups)), strict=True):
        shares = split_by_weight(group_profit, [stakes[i] for i in group])
        for i, share in zip(group, shares, strict=True):
            payouts[i] = stakes[i] + share
    return PoolResult(total, takeout, tuple(payouts), refunded=False)
