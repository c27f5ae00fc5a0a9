"""`play derby`, `simulate derby` and `rules derby` through the real app: plain output, keyboard
seats, companion mode (typed dice give the engine's result), records that replay, one-line
errors, the JSON report; and the pieces of the Derby screen."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from horserace.core.actions import Action
from horserace.core.record import read_record
from horserace.core.rng import BOT_STREAM, derive_seed
from horserace.drivers.cli.app import app
from horserace.engine import Game, play, replay
from horserace.families.derby.bots import make_derby_bot
from horserace.families.derby.choices import number_ranges
from horserace.families.derby.render import Announcer, DerbyInfo, render_table, to_plain
from horserace.families.derby.rules import events as ev
from horserace.families.derby.rules.model import DerbyPhase, DerbyState
from horserace.families.derby.rules.rules import DerbyRules
from horserace.families.derby.rules.transcript import place_horses, play_texts, setup_texts
from horserace.families.derby.sampled_odds import table_odds
from horserace.families.presets import get_preset

runner = CliRunner()
NO_COLOUR = {"FORCE_COLOR": None, "TTY_COMPATIBLE": None, "COLUMNS": None, "LINES": None}
MONEY_ROW = re.compile(r"^\s*(=?\d+)\s+(\S+)\s+\$(\d+)\s*$")
RULES = DerbyRules()


def invoke(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args), input=stdin, env=NO_COLOUR)
    return result.exit_code, result.stdout, result.stderr


def standings(output: str) -> dict[str, int]:
    table = output[output.index("Final standings") :]
    found = {}
    for line in table.splitlines():
        match = MONEY_ROW.match(line)
        if match:
            found[match.group(2)] = int(match.group(3))
    return found


def test_play_derby_plain_runs_to_the_end_and_writes_a_record(tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    args = ["play", "derby", "--players", "5", "--races", "2", "--seed", "7", "--scratches", "1"]
    code, out, err = invoke(*args, "--record", str(record))
    assert code == 0, err
    assert "Race 1 is off!" in out and "Race 2 of 2" in out and "turn 1: singles" in out
    assert "≈" in out and "»" in out and "┃" in out  # mud, accelerators, finish drawn
    money = standings(out)
    assert sorted(money) == ["P1", "P2", "P3", "P4", "P5"]
    bank = int(re.search(r"left in the pot \(the bank.s\): \$(\d+)", out).group(1))  # type: ignore[union-attr]
    assert sum(money.values()) + bank == 5 * 8 + 2 * 36 * 3
    report = replay(read_record(record), get_preset)
    assert report.ok, report.problems
    assert standings(invoke(*args)[1]) == money  # the same seed without a record


def test_same_seed_same_screen() -> None:
    args = ("play", "derby", "--players", "3", "--races", "1", "--seed", "4", "--track", "sprint")
    assert invoke(*args)[1] == invoke(*args)[1]


def test_bad_options_are_one_line_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\nfinish = 5\nzones = []\n', encoding="utf-8")
    for args, message in (
        (["--players", "1"], "players must be between 2 and 20"),
        (["--players", "2", "--scratches", "1"], "fewer than 2 of 2 horses"),
        (["--track", "nowhere"], "no packaged track 'nowhere'"),
        (["--track", str(bad)], f"{bad}: zones: a track needs at least one zone"),
        (["--bots", "genius"], "unknown bot kind 'genius'"),
        (["--human", "9", "--players", "3"], "--human 9: seats are numbered 1 to 3"),
    ):
        code, out, err = invoke("play", "derby", *args)
        assert code == 2, (args, out)
        assert err.startswith("error: ") and message in err, err
        assert "Traceback" not in err


def test_a_keyboard_seat_picks_and_wagers(tmp_path: Path) -> None:
    record = tmp_path / "human.jsonl"
    stdin = "silk 5\n7\n$2\n"
    code, out, err = invoke(
        "play", "derby", "--players", "3", "--races", "1", "--seed", "2", "--human", "1",
        "--track", "sprint", "--record", str(record), stdin=stdin,
    )  # fmt: skip
    assert code == 0, err
    assert "P1, your silk" in out and "Midnight" in out
    assert "each $1 is worth +2.00 on average" in out  # three horses: all of them are paid
    mine = [s.action for s in read_record(record).steps if s.actor == "0"]
    assert mine == ["silk 5", "horse 7", "wager 2"]


def test_a_keyboard_seat_is_asked_again_after_a_bad_answer() -> None:
    code, out, _ = invoke(
        "play", "derby", "--players", "2", "--races", "1", "--seed", "1", "--human", "2",
        "--track", "sprint", stdin="99\n3\n\n1\n0\n",
    )  # fmt: skip
    assert code == 0
    assert "not a choice here" in out
    assert "Enter alone chooses nothing here" in out  # no horse is taken for Enter


class TypingPolicy:
    """A person at a real table: odds 4, d20s naming runners (or not), shoes, +1s."""

    def __init__(self) -> None:
        self.typed: list[str] = []
        self.rng = random.Random(1)

    def choose(self, rules: Any, state: Any) -> Action:
        assert isinstance(state, DerbyState)
        if state.phase is DerbyPhase.ODDS:
            text = "4"
        elif state.race is None or state.phase is not DerbyPhase.RACE:
            text = "3"
        elif state.race.waiting_for == "mud":
            text = "shoe"
        elif state.race.waiting_for == "accel":
            text = "accel 1"
        else:
            filler = next(h for h in range(1, 21) if h not in state.race.runners)
            text = str(self.rng.choice([*state.race.runners, filler]))
        self.typed.append(text)
        action: Action = rules.parse_action(state, text)
        return action


@pytest.mark.usefixtures("quick_derby_odds")  # the odds are not what it checks
def test_companion_mode_books_the_typed_dice_like_the_engine() -> None:
    seed, players = 5, 3
    preset = get_preset("derby")
    config = preset.config({"players": players, "races": 1, "track": "sprint"})
    game = Game("derby", preset.rules, config, seed=seed, chance_mode="typed")
    bots = {s: make_derby_bot("ev", derive_seed(seed, BOT_STREAM, s)) for s in range(players)}
    policy = TypingPolicy()
    play(game, bots, policy, max_steps=5000)
    expected = dict(zip(["P1", "P2", "P3"], game.state.ledger.balances[:players], strict=True))
    code, out, err = invoke(
        "play", "derby", "--players", "3", "--races", "1", "--seed", str(seed), "--track",
        "sprint", "--companion", stdin="\n".join(policy.typed) + "\n",
    )  # fmt: skip
    assert code == 0, err
    assert "odds die of P1 (horse" in out and "turn 1, single die 1 (d20)" in out
    assert standings(out) == expected


def test_number_ranges() -> None:
    assert number_ranges([8, 1, 2, 3, 5, 7]) == "1-3, 5, 7-8"
    assert number_ranges([4]) == "4"


def test_simulate_derby_json_report() -> None:
    code, out, err = invoke(
        "simulate", "derby", "--games", "6", "--players", "4", "--races", "2", "--seed", "3",
        "--paired", "400", "--json",
    )  # fmt: skip
    assert code == 0, err
    data = json.loads(out)
    assert data["games"] == 6 and data["races"] == 12 and data["bots"] == ["ev", "random"]
    wins = sum(h["win"]["successes"] for h in data["horses"])
    assert wins == 12 and sum(h["runs"] for h in data["horses"]) == 12 * 4
    assert data["turns_per_race"]["count"] == 12
    paired = data["paired"]
    assert paired["races"] == 400 and paired["field"] == 4
    assert set(paired["winner_changed"]) == {"no mud", "no accelerators", "neither"}
    for name, changed in paired["winner_changed"].items():
        assert changed["successes"] <= paired["podium_changed"][name]["successes"]


def test_simulate_derby_tables_and_errors() -> None:
    code, out, err = invoke(
        "simulate", "derby", "--games", "2", "--players", "3", "--seed", "1", "--paired", "300"
    )
    assert code == 0, err
    for title in ("Win / Place / Show by horse", "turns per race", "winner changes", "neither"):
        assert title in out
    code, _, err = invoke("simulate", "derby", "--games", "0")
    assert code == 2 and "games must be at least 1" in err


def test_simulate_derby_takes_the_engine_option_every_family_takes() -> None:
    """The games have decisions: auto and reference play them on the rules engine (the same
    figures), kernel is one line saying why and what to use; --help says so."""
    run = ("simulate", "derby", "--games", "3", "--players", "3", "--seed", "2", "--paired", "50")
    figures = []
    for engine in ("auto", "reference"):
        code, out, err = invoke(*run, "--json", "--engine", engine)
        assert code == 0, err
        data = json.loads(out)
        assert data.pop("engine") == "reference" and data["paired"]["engine"] == "kernel"
        data.pop("elapsed_seconds")
        figures.append(data)
    assert figures[0] == figures[1]
    code, out, err = invoke(*run, "--engine", "kernel")
    assert code == 2 and out == ""
    assert (
        err.startswith("error: no compiled kernel plays Derby games") and len(err.splitlines()) == 1
    )
    assert "--engine auto or reference" in err
    code, _, err = invoke(*run, "--engine", "warp")
    assert code == 2 and "engine must be one of auto, kernel, reference, not 'warp'" in err
    code, out, _ = invoke("simulate", "derby", "--help")
    assert code == 0 and "--engine" in out and "refused" in out


def test_rules_derby_prints_the_document() -> None:
    code, out, _ = invoke("rules", "derby")
    assert code == 0
    assert "Derby Challenge" in out and "How often mud and accelerators change the winner" in out


def test_the_board_shows_lanes_dice_odds_and_places() -> None:
    config = RULES.make_config({"players": 2, "races": 1})
    state, _ = play_texts(RULES, RULES.initial_state(config), setup_texts((4, 12), (3, 5), (2, 1)))
    state = place_horses(state, {4: 4, 12: 27}, stuck=[])
    announce = Announcer(["Ann", "Bob"])
    state, events = play_texts(RULES, state, [f"d20 {v}" for v in (4, 12, 12, 9, 1, 20)])
    news = announce(events)
    assert news[0].text == "turn 1: singles 4 12 | zones 12 9 1 20"
    assert news[1].text == "moves: 4 4→5, 12 27→28, 12 28→29 zone"
    assert "Horse 4 is stuck in the mud at space 5" in [n.text for n in news]
    view = RULES.view(state, None)
    board = to_plain(render_table(view, DerbyInfo(["Ann", "Bob"], table_odds(state, samples=500))))
    lines = board.splitlines()
    assert "turn 1  singles [ 4][12] zones [12][ 9][ 1][20]" in board
    ann = next(line for line in lines if line.strip().startswith("4  Ann"))
    assert "mud" in ann and ann.count("●") == 1
    bob = next(line for line in lines if line.strip().startswith("12  Bob"))
    assert "1st" in bob and " 100.0" in bob  # the odds to a tenth of a point
    assert any(isinstance(e, ev.HorsePlaced) for e in events)
