"""The one place chips move: transfers between named accounts that conserve the total."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from horserace.core.errors import HorseraceError


class LedgerError(HorseraceError):
    """A transfer that would create or destroy chips, or overdraw an account."""


@dataclass(frozen=True)
class Ledger:
    """Balances by account index; the family decides which index is which (seats first)."""

    labels: tuple[str, ...]
    balances: tuple[int, ...]

    def __post_init__(self) -> None:
        if len(self.labels) != len(self.balances):
            raise LedgerError("every account needs exactly one balance")
        for label, balance in zip(self.labels, self.balances, strict=True):
            if type(balance) is not int or balance < 0:
                raise LedgerError(f"{label}: a balance is a whole number >= 0, not {balance!r}")

    @classmethod
    def open(cls, labels: Sequence[str], balances: Sequence[int]) -> Ledger:
        return cls(tuple(labels), tuple(balances))

    @property
    def total(self) -> int:
        return sum(self.balances)

    def balance(self, account: int) -> int:
        return self.balances[account]

    def transfer(self, source: int, target: int, amount: int) -> Ledger:
        """Move exactly `amount` chips; refuse anything that is not a whole, covered amount."""
        if type(amount) is not int or amount < 0:
            raise LedgerError(f"a transfer is a whole number of chips >= 0, not {amount!r}")
        if amount > self.balances[source]:
            raise LedgerError(
                f"{self.labels[source]} holds {self.balances[source]}, cannot pay {amount}"
            )
        if amount == 0 or source == target:
            return self
        balances = list(self.balances)
        balances[source] -= amount
        balances[target] += amount
        return Ledger(self.labels, tuple(balances))

    def pay_what_you_can(self, source: int, target: int, owed: int) -> tuple[Ledger, int]:
        """Pay `owed` or, short of it, everything the source holds; returns (ledger, paid)."""
        paid = min(owed, self.balances[source])
        return self.transfer(source, target, paid), paid
