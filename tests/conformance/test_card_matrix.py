"""Every row of the card-race matrix, seeded games with a mix of bots: every chip moves with a
payment event, the record replays, the golden record plays exactly as written, the tote pays
whole chips rounded down with the odd chips to the bank and makes up minus pools (no winning
ticket returns less than its stake), and horses level at the gate finish in suit order."""

from __future__ import annotations

from collections import defaultdict

import pytest

from horserace.core.record import parse_record
from horserace.engine import Step, replay
from horserace.families.cards.rules import events as ev
from horserace.families.cards.rules.state import CardsState
from horserace.families.cards.rules.styles import account
from horserace.families.presets import get_preset
from tests.conformance.board_matrix import assert_plays_as_recorded
from tests.conformance.card_matrix import (
    CARD_ROWS,
    CardRow,
    card_golden_lines,
    card_golden_path,
    play_card_row,
)

# blind bettors hold win tickets only: the race stops at its first finisher, often with horses
# still level at the gate
MIXES = (("random",), ("blind",), ("value", "favourite", "random", "blind"))
SEEDS = (11, 12, 13, 14)


class Checker:
    """Follows one game's events: money by payments, the tote's pools, the gate's order."""

    def __init__(self) -> None:
        self.accounts: list[int] = []
        self.tickets: dict[str, list[ev.BetPlaced]] = defaultdict(list)
        self.positions = [0, 0, 0, 0]
        self.finished: list[int] = []
        self.fell_to_gate: set[int] = set()
        self.odd_pools = self.minus_pools = self.gate_ties = 0
        self.order: tuple[int, ...] = ()

    def __call__(self, step: Step) -> None:
        before: CardsState = step.before
        after: CardsState = step.after
        if not self.accounts:
            self.accounts.extend(before.ledger.balances)
        paid: dict[tuple[int, str], int] = defaultdict(int)
        for event in step.events:
            if isinstance(event, ev.Payment):
                self.accounts[account(after, event.source)] -= event.amount
                self.accounts[account(after, event.target)] += event.amount
                paid[(event.target, event.reason)] += event.amount
            elif isinstance(event, ev.BetPlaced) and after.config.betting == "tote":
                self.tickets[event.bet].append(event)
            elif isinstance(event, ev.HorseMoved):
                self.positions[event.suit] = event.position
            elif isinstance(event, ev.HorseFinished):
                self.finished.append(event.suit)
            elif isinstance(event, ev.HorseFellBack):
                self.positions[event.suit] = event.position
                if event.position == 0:
                    self.fell_to_gate.add(event.suit)
            elif isinstance(event, ev.JokerTurned):
                for suit in event.moved:
                    self.positions[suit] += 1
                    self.fell_to_gate.discard(suit)
            elif isinstance(event, ev.RaceOver):
                self.order = event.order
                self._gate(event.order)
            elif isinstance(event, ev.PoolSettled) and event.pool in self.tickets:
                self._pool(event, paid, self.tickets.pop(event.pool), before)
        assert tuple(self.accounts) == after.ledger.balances, f"step {step.index}"

    def _gate(self, order: tuple[int, ...]) -> None:
        at_gate = [s for s in order if s not in self.finished and self.positions[s] == 0]
        assert at_gate == sorted(at_gate), f"level at the gate, not in suit order: {order}"
        if len(at_gate) > 1 and self.fell_to_gate & set(at_gate):
            self.gate_ties += 1
        self.positions, self.finished, self.fell_to_gate = [0, 0, 0, 0], [], set()

    def _pool(
        self,
        settled: ev.PoolSettled,
        paid: dict[tuple[int, str], int],
        tickets: list[ev.BetPlaced],
        before: CardsState,
    ) -> None:
        kind, total = settled.pool, settled.total
        assert total == sum(t.stake for t in tickets)
        takeout = total * before.config.takeout // 100
        assert paid[(ev.BANK, f"{kind} takeout")] == takeout
        odd = paid[(ev.BANK, f"{kind} odd chips")]
        reasons = (f"{kind} ticket", f"{kind} refund")
        from_pool = sum(v for (_, why), v in paid.items() if why in reasons)
        assert from_pool + odd == total - takeout
        made_up = sum(v for (_, why), v in paid.items() if why == f"{kind} minus pool")
        assert settled.kept == takeout + odd - made_up >= 0
        winning = [t for t in tickets if _wins(t, self.order)]
        for seat in {t.seat for t in winning}:
            stakes = sum(t.stake for t in winning if t.seat == seat)
            back = paid[(seat, f"{kind} ticket")] + paid[(seat, f"{kind} minus pool")]
            assert back >= stakes, f"{kind}: seat {seat} staked {stakes}, got {back}"
        assert odd < max(1, len(tickets)), f"{kind}: {odd} odd chips from {len(tickets)} tickets"
        self.odd_pools += odd > 0
        self.minus_pools += made_up > 0


PLACES = {"win": 1, "place": 2, "show": 3}


def _wins(ticket: ev.BetPlaced, order: tuple[int, ...]) -> bool:
    """Win, place, show: the horse among the first 1, 2, 3; the others: the exact order."""
    if ticket.bet in PLACES:
        return ticket.horses[0] in order[: PLACES[ticket.bet]]
    return ticket.horses == order[: len(ticket.horses)]


@pytest.mark.parametrize("row", CARD_ROWS, ids=repr)
def test_money_pools_and_the_gate_hold_and_the_record_replays(row: CardRow) -> None:
    seen: dict[str, int] = defaultdict(int)
    for mix in MIXES:
        for seed in SEEDS:
            checker = Checker()
            game = play_card_row(row, seed, mix, observe=checker)
            assert game.over
            report = replay(game.record(), get_preset)
            assert report.ok, report.problems
            seen["odd"] += checker.odd_pools
            seen["minus"] += checker.minus_pools
            seen["gate"] += checker.gate_ties
    if row.options.get("betting") == "tote":
        assert seen["odd"], f"{row}: no pool left odd chips"
    if row.options.get("takeout", 0) >= 50:
        assert seen["minus"], f"{row}: no minus pool"
    if "faltering-gate" in row.name:
        assert seen["gate"], f"{row}: no race ended with a fallen-back horse level at the gate"


@pytest.mark.parametrize("row", CARD_ROWS, ids=repr)
def test_the_card_game_plays_exactly_as_recorded_and_replays(row: CardRow) -> None:
    path = card_golden_path(row)
    assert_plays_as_recorded(path, card_golden_lines(row), "tests.conformance.card_matrix")
    expected = path.read_text(encoding="utf-8").splitlines()
    record = parse_record("\n".join(expected), source=row.name)
    report = replay(record, get_preset)
    assert report.ok, report.problems
