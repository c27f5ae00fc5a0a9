"""The log leaves nothing out: in seeded games of every preset (and each house rule), every
event that moves money, cards or a horse is told by a line of its family's news, in the order
it happened, for a spectator and for a seat; the money the lines tell of is every chip that
moved. The same lines are what the terminal prints and the web table is sent."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from horserace.core.chance import SeededChance
from horserace.core.events import Event, redact
from horserace.core.rng import BOT_STREAM, derive_seed
from horserace.drivers.bots import make_bot
from horserace.engine import Game, Step, play
from horserace.families import family
from horserace.families.board import news as board_news
from horserace.families.board.rules import events as bev
from horserace.families.board.rules import house_events as hev
from horserace.families.board.rules.house import house_options, with_house_rules
from horserace.families.board.rules.state import Phase
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
# told once for many events: a deal by its one line (who gets how many), a die with the turn's sixth
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


def played(
    preset_name: str, options: dict[str, Any], seed: int = 7, kind: str | None = None
) -> tuple[Game, list[Step]]:
    preset = get_preset(preset_name)
    fam = family(preset.rules.family)
    wanted = dict(options)
    if "house" in wanted:
        wanted = with_house_rules(preset.defaults, {**house_options(wanted.pop("house")), **wanted})
    game = Game(preset_name, preset.rules, preset.config(wanted), seed=seed, chance_mode="seeded")
    seats = preset.rules.players(game.config)
    if kind is None:
        kind = fam.bot_kinds[0] if fam.name != "board" else "random"
    bots = {s: make_bot(kind, derive_seed(seed, BOT_STREAM, s), fam.name) for s in range(seats)}
    steps: list[Step] = []
    play(game, bots, SeededChance(seed), observe=steps.append, max_steps=200_000)
    return game, steps


def balances(state: Any) -> Sequence[int]:
    ledger = state.ledger
    return tuple(ledger.balances)


def seat_money(event: Event, players: int) -> list[tuple[int, int]]:
    """(seat, chips) that a money event moves to (+) or from (-) a seat, in each family."""
    if isinstance(event, bev.MoneyEvent):
        return [(a, v) for a, v in event.money_moves(players) if 0 <= a < players]
    if isinstance(event, cev.Payment):
        moves = [(event.source, -event.amount), (event.target, event.amount)]
        return [(seat, v) for seat, v in moves if 0 <= seat < players]
    if isinstance(event, dev.WagerPlaced):
        return [(event.seat, -event.amount)]
    if isinstance(event, dev.PayoutMade):
        return [(event.seat, event.wager + event.winnings)]
    return []


def money_told(lines: Sequence[News], players: int) -> dict[int, int]:
    """What the lines' money events move, by seat."""
    moved: dict[int, int] = {}
    for line in lines:
        for event in line.covers:
            for seat, amount in seat_money(event, players):
                moved[seat] = moved.get(seat, 0) + amount
    return moved


@pytest.mark.parametrize(("preset", "options"), TABLES, ids=lambda v: str(v))
def test_every_event_that_matters_has_a_line_in_order(preset: str, options: dict[str, Any]) -> None:
    game, steps = played(preset, options)
    news = NEWS[game.rules.family]
    players = game.rules.players(game.config)
    names = [f"P{seat + 1}" for seat in range(players)]
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
    assert game.over


@pytest.mark.parametrize(("preset", "options"), TABLES, ids=lambda v: str(v))
def test_the_money_in_the_lines_is_every_seats_money_change(
    preset: str, options: dict[str, Any]
) -> None:
    """Step by step and over the whole game, the payments the lines tell of add up to each
    seat's change of money: no chip moves untold, none is told twice. Random bots: they bet."""
    game, steps = played(preset, options, kind="random")
    news = NEWS[game.rules.family]
    players = game.rules.players(game.config)
    names = [f"P{seat + 1}" for seat in range(players)]
    told, moves = [0] * players, 0
    for step in steps:
        moved = money_told(news(step, names, None), players)
        before, after = balances(step.before), balances(step.after)
        for seat in range(players):
            assert after[seat] - before[seat] == moved.get(seat, 0), (step.index, seat)
            told[seat] += moved.get(seat, 0)
        moves += any(moved.values())
    start, end = balances(steps[0].before), balances(game.state)
    assert told == [end[seat] - start[seat] for seat in range(players)]
    assert moves > 2, "the game moved no money: the check would prove nothing"


@pytest.mark.parametrize(
    ("preset", "options"), [t for t in TABLES if get_preset(t[0]).rules.family == "board"]
)
def test_each_deal_has_one_line_saying_who_gets_how_many(
    preset: str, options: dict[str, Any]
) -> None:
    """The line counts the cards the deal's events give each seat (and the market); every
    viewer reads the same line, which names no card."""
    game, steps = played(preset, options)
    players = game.rules.players(game.config)
    names = [f"P{seat + 1}" for seat in range(players)]
    deals: list[tuple[str, Counter[str]]] = []  # (the deal's line, cards given by its events)
    for step in steps:
        said = [line.text for line in board_news.table_news(step, names, None)]
        rounds = [text for text in said if text.startswith("Round ")]
        for viewer in range(players):  # a seat reads the same deal line as a spectator
            theirs = [line.text for line in board_news.table_news(step, names, viewer)]
            assert [text for text in theirs if text.startswith("Round ")] == rounds
        deals += [(text, Counter()) for text in rounds]
        if step.before.phase is not Phase.DEAL:
            continue  # Husted's draw deals too: its line says how many each seat draws
        for event in redact(step.events, None):
            if isinstance(event, bev.CardDealtFaceDown | bev.CardDealt):
                deals[-1][1][names[event.seat]] += 1
            elif isinstance(event, hev.MarketDealt | hev.MarketDealtFaceDown):
                deals[-1][1]["the market"] += 1
    started = sum(1 for step in steps for e in step.events if isinstance(e, bev.RoundStarted))
    assert len(deals) == started + 1  # the first deal's line comes with the game's first card
    for text, given in deals:
        found = DEAL_LINE.match(text)
        assert found, text
        total, each, takers = int(found["total"]), int(found["each"]), found["takers"]
        named = re.split(r", | and ", takers)
        assert given == Counter({name: each for name in named}), text
        assert sum(given.values()) == total
        assert not re.search(r"\b(ace|king|queen|jack|joker)\b", text, re.IGNORECASE)


DEAL_LINE = re.compile(
    r"^Round \d+: P\d+ deals (?P<total>\d+) cards?, (?P<each>\d+) each to (?P<takers>.+?)"
    r" \(\d+ left in the stub\)$"
)


def test_board_lines_say_husted_bets_and_each_seats_move() -> None:
    _, steps = played("classic", {"players": 4, "rounds": 1, "house": "husted"})
    names = ["P1", "P2", "P3", "P4"]
    texts = [line.text for step in steps for line in board_news.table_news(step, names, None)]
    assert any(" checks" in text for text in texts) or any("(wager" in text for text in texts)
    assert any("(wager " in text or "(raise " in text or "(meet" in text for text in texts)
    _, steps = played("advanced", {"players": 4, "rounds": 1})
    texts = [line.text for step in steps for line in board_news.table_news(step, names, None)]
    assert sum(text.endswith("keeps a card") for text in texts) > 0


@pytest.mark.parametrize(
    ("preset", "options"), [t for t in TABLES if get_preset(t[0]).rules.family == "cards"]
)
def test_each_deal_of_the_course_has_one_line_saying_how_many_cards(
    preset: str, options: dict[str, Any]
) -> None:
    game, steps = played(preset, options)
    names = [f"P{seat + 1}" for seat in range(game.rules.players(game.config))]
    deals: list[tuple[str, int]] = []  # (the deal's line, course cards its events deal)
    for step in steps:
        lines = [line.text for line in cards_news.table_news(step, names, None)]
        deals += [(text, 0) for text in lines if " deals the course, " in text]
        for event in redact(step.events, None):
            if isinstance(event, cev.CourseCardDealt | cev.CourseCardFaceDown):
                deals[-1] = (deals[-1][0], deals[-1][1] + 1)
    assert len(deals) >= game.config.races
    for text, dealt in deals:
        assert text.endswith(f"deals the course, {dealt} cards face up"), text
