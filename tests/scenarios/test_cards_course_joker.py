"""The table option `course_joker`: a joker turned while dealing the course is discarded and
another card dealt (the ruling, new tables), or it stays on its link (the earlier reading, which
records written before the option keep: `options_added_later`)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from horserace.components.french_deck import JOKER, parse_card
from horserace.core.errors import ConfigError
from horserace.core.record import read_record
from horserace.drivers.cli.app import app
from horserace.engine import replay
from horserace.families.cards.rules import events as ev
from horserace.families.cards.rules.state import CardsPhase
from horserace.families.presets import get_preset
from tests.unit.test_cards_support import chips, events, run, scripted

C, D, H, S = range(4)
STAYS = {"players": 3, "races": 1, "stumbling": True, "course_joker": "stays"}
# link 3 gets the joker: clubs 2, diamonds 1, hearts 2, spades 1 on the course
COURSE = ["2C", "9H", "joker", "KD", "5S", "7H", "JC"]
BETS = ["bet 5 S", "done", "bet 10 D"]
RACE = ["4H", "2S", "3S", "6H", "4S", "6S", "7S", "8S", "9S", "10S"]  # spades: 8 cards


def test_a_joker_that_stays_lies_on_its_link_and_the_prices_count_suit_cards() -> None:
    game, steps = scripted("basic", STAYS, COURSE)
    assert not events(steps, ev.CourseJokerDiscarded)
    assert events(steps, ev.CourseCardDealt)[2] == ev.CourseCardDealt(3, JOKER, True)
    assert game.state.course == tuple(parse_card(c) for c in COURSE)
    assert len(game.state.deck) == 49 - 7 and not game.state.joker_unseen()
    # six suit cards: clubs 2 and hearts 2 (3-1), diamonds 1 and spades 1 (2-1)
    assert events(steps, ev.BookOpened) == [ev.BookOpened(0, ("3-1", "2-1", "3-1", "2-1"))]
    run(game, [*BETS, *RACE], steps)
    assert events(steps, ev.RaceOver)[0].order[0] == S
    # P2: 5 at 2-1 on spades -> +10 from the dealer; P3: 10 on diamonds -> to the dealer (P1).
    assert chips(game) == (100 - 10 + 10, 100 + 10, 100 - 10)


def test_a_faltering_horse_turning_the_joker_on_its_link_moves_nobody_back() -> None:
    course = ["5C", "joker", "9D", "7D", "KH", "QS", "JC"]
    options = {**STAYS, "faltering": True, "redeal": False, "betting": "tote"}
    game, steps = scripted("basic", options, course)
    assert game.state.phase is CardsPhase.BETTING and game.state.joker_unseen()
    run(game, ["done", "done", "done", "2C", "2H", "3H"], steps)
    assert events(steps, ev.LinkTurned) == [
        ev.LinkTurned(1, parse_card("5C")),
        ev.LinkTurned(2, JOKER),
    ]
    assert events(steps, ev.HorseFellBack) == [ev.HorseFellBack(C, 0)]
    assert game.state.track.positions == (0, 0, 2, 0) and not game.state.joker_unseen()


def test_an_old_record_replays_with_the_joker_on_its_link(tmp_path: Path) -> None:
    """A record written before the option (none in its header) was played with the joker
    lying on the course: it replays so, to the same chips; read under the ruling, the same
    cards discard the joker, and the record no longer replays."""
    game, _ = scripted("basic", STAYS, [*COURSE, *BETS, *RACE])
    record = game.record()
    older = replace(record, config={k: v for k, v in record.config.items() if k != "course_joker"})
    path = tmp_path / "old.jsonl"
    older.write(path)
    report = replay(read_record(path), get_preset)
    assert report.ok and report.game is not None
    assert chips(report.game) == chips(game) == (100, 110, 90)
    result = CliRunner().invoke(app, ["replay", str(path)])
    assert result.exit_code == 0, result.output
    ruling = replay(replace(older, config={**older.config, "course_joker": "discard"}), get_preset)
    assert not ruling.ok and ruling.steps_checked == 2  # the joker's deal, link 3
    assert ruling.game is not None
    discarded = {"type": "course-joker-discarded", "link": 3}
    assert [dict(e) for e in ruling.game.steps[-1].events] == [discarded]
    assert get_preset("basic").rules.make_config({}).course_joker == "discard"  # new tables


def test_the_course_joker_option_is_checked() -> None:
    with pytest.raises(ConfigError, match="course_joker must be one of discard, stays"):
        get_preset("basic").config({"course_joker": "keep"})
    # a stumbling course may be one card longer when the joker can lie on it
    get_preset("basic").config({**STAYS, "course_length": 48, "need": 1, "redeal": False})
    with pytest.raises(ConfigError, match="course_length"):
        get_preset("basic").config({"stumbling": True, "course_length": 48, "redeal": False})


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--course-joker", "stays"], "--course-joker needs --stumbling"),
        (["--stumbling", "--course-joker", "keep"], "course_joker must be one of discard, stays"),
    ],
)
def test_bad_course_joker_flags_are_one_line(args: list[str], message: str) -> None:
    result = CliRunner().invoke(app, ["play", "basic", *args, "--no-animation"])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert result.stderr.startswith("error: ") and message in result.stderr


def test_the_flag_sets_the_option_and_the_rules_say_so(tmp_path: Path) -> None:
    path = tmp_path / "race.jsonl"
    args = ["play", "basic", "--stumbling", "--course-joker", "stays", "--races", "1"]
    result = CliRunner().invoke(
        app, [*args, "--seed", "3", "--no-animation", "--record", str(path)]
    )
    assert result.exit_code == 0, result.output
    assert read_record(path).config["course_joker"] == "stays"
    text = CliRunner().invoke(app, ["rules", "basic", "--markdown"]).stdout
    assert "| `--course-joker` | discard |" in text
