"""The `play` command on a bare Typer app (plain output, keyboard seats, companion mode, records,
one-line errors) and the board renderer it draws with."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import horserace
from horserace.components.board import DEFAULT_BOARD, HORSES
from horserace.core.record import read_record
from horserace.core.rules import rank_standings
from horserace.drivers.cli.app import app
from horserace.engine import Step, replay
from horserace.families.board.odds.race import race_odds, scratch_phase_odds
from horserace.families.board.odds.view import scratch_rolls_done
from horserace.families.board.render import (
    BoardInfo,
    finish_view,
    lane_odds,
    plain_board,
    standings_table,
    step_news,
    to_plain,
)
from horserace.families.board.rules import events as ev
from horserace.families.board.rules.state import Phase
from horserace.families.board.rules.view import BoardView
from horserace.families.presets import get_preset
from tests.helpers import deal_script, fill_hands, random_game, rolls, scripted_game

runner = CliRunner()
SHORT_BOARD = Path(horserace.__file__).parent / "families" / "board" / "boards" / "short-board.toml"
STANDING = re.compile(r"^\s*(=?\d+)\s+(\S+)\s+(\d+)\s*$")
NO_COLOUR = {"FORCE_COLOR": None, "TTY_COMPATIBLE": None, "COLUMNS": None, "LINES": None}


def invoke(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, ["play", *args], input=stdin, env=NO_COLOUR)
    return result.exit_code, result.stdout, result.stderr


def standings(output: str) -> tuple[dict[str, int], int]:
    """Chips per name from the final table, and the chips left in the pot."""
    table = output[output.index("Final standings") :]
    chips: dict[str, int] = {}
    for line in table.splitlines():
        match = STANDING.match(line)
        if match:
            chips[match.group(2)] = int(match.group(3))
    pot = re.search(r"chips left in the pot: (\d+)", table)
    assert pot is not None, output
    return chips, int(pot.group(1))


# --- the command ---------------------------------------------------------------------------


def test_seeded_game_prints_plain_text_and_the_library_result() -> None:
    code, out, err = invoke("classic", "--seed", "11", "--rounds", "3")
    assert code == 0, out + err
    assert "\x1b" not in out
    assert "seed 11 (re-run with --seed 11)" in out
    assert out.count("Final standings") == 1
    assert len(re.findall(r"classic round \d/3 · race", out)) == 3  # one board per round
    chips, pot = standings(out)
    assert sum(chips.values()) + pot == 6 * 100
    expected = random_game({"players": 6, "rounds": 3}, 11)
    result = expected.rules.result(expected.state)
    assert chips == {f"P{s.seat + 1}": s.chips for s in result.standings}
    assert pot == result.unclaimed


def test_same_seed_same_output_and_another_seed_differs() -> None:
    first = invoke("classic", "--seed", "4", "--rounds", "2", "--players", "3")
    again = invoke("classic", "--seed", "4", "--rounds", "2", "--players", "3")
    other = invoke("classic", "--seed", "5", "--rounds", "2", "--players", "3")
    assert first == again
    assert first[1] != other[1]


def test_names_and_options_reach_the_table(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    code, out, _ = invoke(
        "classic",
        "--seed", "2", "--rounds", "1", "--players", "3", "--chips", "40",
        "--names", "Ann,Bob,Cy", "--fixed-dealer", "--hidden-hands",
        "--repeat-scratch", "reroll", "--board", str(SHORT_BOARD), "--record", str(path),
    )  # fmt: skip
    assert code == 0, out
    chips, pot = standings(out)
    assert set(chips) == {"Ann", "Bob", "Cy"}
    assert sum(chips.values()) + pot == 120
    assert "board short" in out
    assert "cards (hidden)" in out  # a spectator does not see hidden hands
    config = read_record(path).config
    assert config["repeat_scratch"] == "reroll"
    assert config["rotate_dealer"] is False and config["open_hands"] is False
    assert config["board"]["name"] == "short"


def test_record_replays(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    code, out, _ = invoke("classic", "--seed", "8", "--rounds", "2", "--record", str(path))
    assert code == 0, out
    assert f"written to {path}" in out
    report = replay(read_record(path), get_preset)
    assert report.ok, report.problems
    assert report.game is not None and report.game.over
    chips, _ = standings(out)
    final = report.game.rules.result(report.game.state)
    assert chips == {f"P{s.seat + 1}": s.chips for s in final.standings}


def test_a_seat_with_one_legal_move_is_not_asked_and_the_move_is_said(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    code, out, _ = invoke(
        "classic", "--seed", "3", "--rounds", "1", "--players", "3", "--human", "1",
        "--record", str(path), stdin="",
    )  # fmt: skip
    assert code == 0, out
    assert "P1 (you)" in out
    record = read_record(path)
    seat_rolls = sum(1 for step in record.steps if step.actor == "0")
    assert seat_rolls > 0
    assert out.count("P1: roll the dice (the only move)") == seat_rolls
    assert replay(record, get_preset).ok


def test_input_running_out_is_one_error_line_with_the_record_written(tmp_path: Path) -> None:
    path = tmp_path / "part.jsonl"
    code, out, _ = invoke(
        "advanced", "--seed", "3", "--players", "4", "--human", "2", "--record", str(path),
        stdin="nine\n",
    )  # fmt: skip
    assert code == 2
    assert "'nine' is not a choice here" in out
    assert out.count("P2, which card do you keep >") == 2  # asked again after the bad answer
    assert "error: the answers piped in ran out after" in out
    record = read_record(path)
    assert record.result is None
    report = replay(record, get_preset)
    assert report.ok and report.game is not None and not report.game.over


def test_companion_typing_a_recorded_game_reproduces_it(tmp_path: Path) -> None:
    seeded = tmp_path / "seeded.jsonl"
    options = ("--rounds", "1", "--players", "2", "--board", str(SHORT_BOARD))
    code, out, _ = invoke("classic", "--seed", "9", *options, "--record", str(seeded))
    assert code == 0, out
    typed_lines = [s.action for s in read_record(seeded).steps if s.actor == "chance"]
    typed = tmp_path / "typed.jsonl"
    stdin = "3+9\n" + "\n".join(typed_lines) + "\n"  # the first answer is refused
    code, again, _ = invoke(
        *("classic", *options), "--companion", "--record", str(typed), stdin=stdin
    )
    assert code == 0, again
    assert "not accepted" in again
    assert "P2's hand, 22 cards (card 1/44 next): type them in one line" in again
    assert "seed" not in again.splitlines()[1]
    assert standings(again) == standings(out)
    record = read_record(typed)
    assert record.chance == "typed"
    assert [s.action for s in record.steps] == [s.action for s in read_record(seeded).steps]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("classic", "--players", "13"), "players must be between 2 and 12"),
        (("classic", "--human", "9"), "--human 9: seats are numbered 1 to 6"),
        (("classic", "--board", "no-such-board.toml"), "cannot read board file"),
        (("classic", "--repeat-scratch", "twice"), "repeat_scratch must be one of"),
        (("classic", "--names", "Ann,Bob"), "--names needs 6"),
        (("classic", "--speed", "-1"), "--speed must be 0 or more"),
    ],
)
def test_bad_options_exit_2_with_one_line(args: tuple[str, ...], message: str) -> None:
    code, out, err = invoke(*args)
    assert code == 2
    assert out == ""
    assert err.startswith("error: ") and message in err
    assert len(err.strip().splitlines()) == 1


def test_unknown_preset_is_refused_with_usage_exit_code() -> None:
    code, out, err = invoke("no-such-game")
    assert code == 2 and out == ""
    assert err == "error: no such command 'no-such-game'; see: horserace play --help\n"


def test_bad_board_file_is_one_line(tmp_path: Path) -> None:
    board = tmp_path / "bad.toml"
    board.write_text('name = "bad"\n[lanes]\n2 = 0\n', encoding="utf-8")
    code, _, err = invoke("classic", "--board", str(board))
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and str(board) in err


# --- the board renderer ---------------------------------------------------------------------

LANE_ROW = re.compile(
    r"^(?P<scratch>.{8}) │ *(?P<lane>\d+) │(?P<gate>..) ┃(?P<track>.*?) ┃(?P<fin>..)"
)


def lane_rows(text: str) -> dict[int, dict[str, str]]:
    rows: dict[int, dict[str, str]] = {}
    for line in text.splitlines():
        match = LANE_ROW.match(line)
        if match:
            rows[int(match.group("lane"))] = match.groupdict()
    return rows


def cells(text: str) -> list[str]:
    return [text[i : i + 2].strip() for i in range(0, len(text), 2)]


def scripted_steps(options: dict[str, object], script: list[str]) -> list[Step]:
    steps: list[Step] = []
    scripted_game(options, script, steps=steps)
    return steps


def race_script() -> list[str]:
    """Two players: scratch 2, 3, 2 again (it moves to line 3), 5; then 7, 6, 7 advance."""
    hands = fill_hands(2, {0: [2, 2, 7], 1: [3, 5, 7]})
    return deal_script(hands, dealer=0) + rolls(2, 3, 2, 5) + rolls(7, 6, 7)


def test_plain_board_shows_scratch_lines_slots_and_tokens() -> None:
    steps = scripted_steps({"players": 2}, race_script())
    rules = get_preset("classic").rules
    view = rules.view(steps[-1].after, None)
    assert isinstance(view, BoardView)
    text = plain_board(view, BoardInfo(names=["Ann", "Bob"], odds=lane_odds(view)))
    rows = lane_rows(text)
    assert sorted(rows) == list(HORSES)
    on_line = {2: 3, 3: 2, 5: 4}
    at = {6: 1, 7: 2}
    for horse, row in rows.items():
        track = cells(row["track"])
        assert len(track) == DEFAULT_BOARD.slots_of(horse)
        scratch = cells(row["scratch"])
        assert len(scratch) == 4
        line = on_line.get(horse, 0)
        assert [i + 1 for i, c in enumerate(scratch) if c == "●"] == ([line] if line else [])
        slot = at.get(horse, 0)
        expected = [slot] if slot and not line else []
        assert [i + 1 for i, c in enumerate(track) if c == "●"] == expected
        assert (row["gate"].strip() == "●") == (not line and not slot)
    for horse, line in on_line.items():
        assert f"scratched (pays {line})" in text.splitlines()[_row_index(text, horse)]
    assert "\x1b" not in text
    assert "Ann" in text and "race, roll 3" in text and "pot" in text


def _row_index(text: str, horse: int) -> int:
    for index, line in enumerate(text.splitlines()):
        match = LANE_ROW.match(line)
        if match and int(match.group("lane")) == horse:
            return index
    raise AssertionError(f"no row for horse {horse}")


def test_lane_odds_follow_the_phase() -> None:
    steps = scripted_steps({"players": 2}, race_script())
    rules = get_preset("classic").rules
    views = [rules.view(step.after, None) for step in steps]
    dealing = next(v for v in views if v.phase is Phase.DEAL)
    assert lane_odds(dealing) is None
    first_scratch = next(v for v in views if v.phase is Phase.SCRATCH and any(v.lines))
    assert scratch_rolls_done(first_scratch) == 1
    full = {h: DEFAULT_BOARD.advances_to_finish(h) for h in HORSES}
    assert lane_odds(first_scratch) == pytest.approx(scratch_phase_odds(full, [2], 3))
    racing = views[-1]
    remaining = {h: full[h] - racing.positions[h - 2] for h in HORSES if h not in (2, 3, 5)}
    assert lane_odds(racing) == pytest.approx(race_odds(remaining).win)


def test_finish_view_puts_the_winner_in_its_finish_slot() -> None:
    hands = fill_hands(2, {0: [12, 12]})
    script = deal_script(hands, dealer=0) + rolls(2, 3, 4, 5) + rolls(12, 12, 12)
    steps = scripted_steps({"players": 2, "rounds": 2}, script)
    rules = get_preset("classic").rules
    last = next(s for s in steps if any(isinstance(e, ev.RaceWon) for e in s.events))
    view = finish_view(rules.view(last.before, None), rules.view(last.after, None), last.events)
    assert view.positions[12 - 2] == 3
    assert view.chips == rules.view(last.after, None).chips
    text = plain_board(view, BoardInfo(names=["Ann", "Bob"], odds=lane_odds(view)))
    row = lane_rows(text)[12]
    assert row["fin"].strip() == "●" and "●" not in row["track"]
    assert "WINNER" in text


def test_news_names_short_payments_and_payouts() -> None:
    hands = fill_hands(2, {0: [2, 2, 2, 12], 1: [12]})
    script = deal_script(hands, dealer=0) + rolls(2, 3, 4, 5) + rolls(12, 12, 12)
    steps = scripted_steps({"players": 2, "starting_chips": 1, "rounds": 2}, script)
    names = ["Ann", "Bob"]
    lines = [item for step in steps for item in step_news(step.events, names)]
    short = [item for item in lines if item.kind == "short"]
    assert short and f"Ann 1 of {hands[0].count(2)}" in short[0].text  # 1 chip, owes 1 a card
    payout = next(item for item in lines if item.kind == "payout")
    assert "Horse 12 wins" in payout.text and "Ann +" in payout.text and "Bob +" in payout.text
    assert any(item.kind == "round" and "Round 2" in item.text for item in lines)
    assert not any("dealt" in item.text for item in lines)


def test_standings_mark_shared_places() -> None:
    table = to_plain(standings_table(rank_standings([50, 80, 50, 20], 0), ["A", "B", "C", "D"]))
    rows = [STANDING.match(line) for line in table.splitlines()]
    found = [(m.group(1), m.group(2), int(m.group(3))) for m in rows if m]
    assert found == [("1", "B", 80), ("=2", "A", 50), ("=2", "C", 50), ("4", "D", 20)]
