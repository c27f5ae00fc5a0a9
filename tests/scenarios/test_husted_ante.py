"""Husted's ante: paid by every player each round before the first betting round, as events
in the record, so a seat's money is always its start plus its money events."""

from __future__ import annotations

from horserace.core.chance import SeededChance
from horserace.core.types import CHANCE, TERMINAL
from horserace.engine import Step
from horserace.families.board.rules import events as ev
from horserace.families.board.rules.records import Betting
from tests.helpers import new_game

HUSTED = {"players": 4, "rounds": 2, "husted": True, "ante": 2, "open_hands": False}


def test_every_player_antes_each_round_before_the_betting_with_its_events() -> None:
    game = new_game(HUSTED, seed=51)
    chance = SeededChance(51)
    steps: list[Step] = []
    at_betting: dict[int, tuple[int, ...]] = {}  # round -> money when its betting begins
    while game.actor is not TERMINAL:
        state = game.state
        if isinstance(state.phase_record, Betting) and state.phase_record.round_no == 1:
            at_betting.setdefault(state.round, state.ledger.balances)
        actor = game.actor
        if actor is CHANCE:
            steps.append(game.apply(chance.choose(game.rules, state)))
            continue
        assert isinstance(actor, int)
        legal = [a.text for a in game.rules.legal_actions(state, actor)]
        word = next(w for w in ("check", "meet", "discard none", "pass", "roll") if w in legal)
        steps.append(game.act(actor, game.rules.parse_action(state, word)))
    antes = [
        (e.seat, e.owed, e.paid)
        for s in steps
        for e in s.events
        if isinstance(e, ev.ChipsPaid) and e.reason == "ante"
    ]
    # round 1, dealer 0: seats 1, 2, 3, 0 pay 2 each; round 2, dealer 1: seats 2, 3, 0, 1
    assert antes[:4] == [(1, 2, 2), (2, 2, 2), (3, 2, 2), (0, 2, 2)]
    assert [seat for seat, _, _ in antes[4:]] == [2, 3, 0, 1]
    assert at_betting[1] == (98, 98, 98, 98, 8)  # the first betting round follows the antes
    money = [100] * 4
    for step in steps:
        for event in step.events:
            if isinstance(event, ev.MoneyEvent):
                for account, delta in event.money_moves(4):
                    if account < 4:
                        money[account] += delta
    assert tuple(money) == game.state.ledger.balances[:4]
    result = game.rules.result(game.state)
    assert sorted(s.chips for s in result.standings) == sorted(money)
