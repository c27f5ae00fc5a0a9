"""The log leaves nothing out: in seeded games of every preset (and each house rule), every
event that moves money, cards or a horse is told by a line of its family's news, in the order
it happened, for a spectator and for a seat; the money the lines tell of is every chip that
moved. The same lines are what the terminal prints and the web table is sent."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from horserace.bots import make_bot
from horserace.core.chance import SeededChance
from horserace.core.events import Event, redact
from horserace.core.rng import BOT_STREAM, derive_seed
from horserace.engine import Game, Step, play
from horserace.families import family
from horserace.families.board import news as board_news
from horserace.families.board.rules import events as bev
from horserace.families.board.rules import house_events as hev
from horserace.families.board.rules.house import house_options, with_house_rules
from horserace.families.cards import news as cards_news
from horserace.families.cards.rules import events as cev
from horserace.families.derby import news as derby_news
from horserace.families.derby.rules import events as dev
from horserace.families.presets import get_preset
from horserace.terminal.screen import News

NEWS: dict[str, Callable[[Step, Sequence[str], int | None], Sequence[News]]] = {
    "board": board_news.table_news,
    "cards": cards_news.table_news,
    "derby": derby_news.table_news,
}
# told once for many events: a deal by the round's line, a die with the turn's sixth
UNTOLD: tuple[type[Event], ...] = (
    bev.CardDealt,
    bev.CardDealtFaceDown,
    hev.MarketDealt,
    hev.MarketDealtFaceDown,
    dev.DieRolled,
)
TABLES = [
    ("classic", {"players": 4, "rounds": 2}),
    ("advanced", {"players": 5, "rounds": 2}),
    ("northwoods", {"players": 4}),
    ("classic", {"players": 4, "rounds": 2, "house": "husted"}),
    ("classic", {"players": 4, "rounds": 2, "house": "perry"}),
    ("advanced", {"players": 4, "rounds": 2, "house": "perry,robertson"}),
    ("classic", {"players": 4, "rounds": 2, "house": "schellenberg"}),
    ("basic", {"players": 4, "races": 2}),
    ("scarne", {"players": 4, "races": 2}),
    ("calcutta", {"players": 4, "races": 2}),
    ("basic", {"players": 4, "races": 2, "betting": "tote"}),
    ("derby", {"players": 4, "races": 2}),
]


def played(preset_name: str, options: dict[str, Any], seed: int = 7) -> tuple[Game, list[Step]]:
    preset = get_preset(preset_name)
    fam = family(preset.rules.family)
    wanted = dict(options)
    if "house" in wanted:
        wanted = with_house_rules(preset.defaults, {**house_options(wanted.pop("house")), **wanted})
    game = Game(preset_name, preset.rules, preset.config(wanted), seed=seed, chance_mode="seeded")
    seats = preset.rules.players(game.config)
    kind = fam.bot_kinds[0] if fam.name != "board" else "random"
    bots = {s: make_bot(kind, derive_seed(seed, BOT_STREAM, s), fam.name) for s in range(seats)}
    steps: list[Step] = []
    play(game, bots, SeededChance(seed), observe=steps.append, max_steps=200_000)
    return game, steps


def balances(state: Any) -> Sequence[int]:
    ledger = state.ledger
    return tuple(ledger.balances)


def money_told(lines: Sequence[News], players: int) -> dict[int, int]:
    """What the lines' money events move, by ledger account."""
    moved: dict[int, int] = {}
    for line in lines:
        for event in line.covers:
            if isinstance(event, bev.MoneyEvent):
                for account, amount in event.money_moves(players):
                    moved[account] = moved.get(account, 0) + amount
    return moved


@pytest.mark.parametrize(("preset", "options"), TABLES, ids=lambda v: str(v))
def test_every_event_that_matters_has_a_line_in_order(preset: str, options: dict[str, Any]) -> None:
    game, steps = played(preset, options)
    news = NEWS[game.rules.family]
    names = [f"P{seat + 1}" for seat in range(len(balances(game.state)))]
    told_money = 0
    for step in steps:
        for viewer in (None, 0):
            events = redact(step.events, viewer)
            lines = news(step, names, viewer)
            assert all(line.text.strip() for line in lines)
            for event in events:
                if isinstance(event, UNTOLD):
                    continue
                assert any(event in line.covers for line in lines), (
                    f"step {step.index} ({step.action.text}): no line tells {event!r}:"
                    f" {[line.text for line in lines]}"
                )
            firsts = [min(events.index(e) for e in line.covers) for line in lines if line.covers]
            assert firsts == sorted(firsts), [line.text for line in lines]
        if game.rules.family == "board":
            lines = news(step, names, None)
            players = game.config.players
            moved = money_told(lines, players)
            before, after = balances(step.before), balances(step.after)
            for account in range(len(after)):
                assert after[account] - before[account] == moved.get(account, 0), step.index
            told_money += sum(abs(v) for v in moved.values())
        if game.rules.family == "cards":
            before, after = balances(step.before), balances(step.after)
            paid = [e for e in step.events if isinstance(e, cev.Payment)]
            assert (before != after) <= bool(paid)
    assert game.over


def test_board_lines_say_husted_bets_and_each_seats_move() -> None:
    _, steps = played("classic", {"players": 4, "rounds": 1, "house": "husted"})
    names = ["P1", "P2", "P3", "P4"]
    texts = [line.text for step in steps for line in board_news.table_news(step, names, None)]
    assert any(" checks" in text for text in texts) or any("(wager" in text for text in texts)
    assert any("(wager " in text or "(raise " in text or "(meet" in text for text in texts)
    _, steps = played("advanced", {"players": 4, "rounds": 1})
    texts = [line.text for step in steps for line in board_news.table_news(step, names, None)]
    assert sum(text.endswith("keeps a card") for text in texts) > 0
