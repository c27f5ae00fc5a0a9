"""The card race's commands through the real app: `odds cards` (JSON that matches the library,
exact fractions, one-line errors), and `play` / `simulate` / `rules` for its presets."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from horserace.components.french_deck import parse_cards
from horserace.core.events import redact
from horserace.drivers.cli.app import app
from horserace.families.cards.news import step_news
from horserace.families.cards.odds.race import card_odds, exact_card_odds, position_from_cards
from horserace.families.cards.render import BoardInfo, render_board, to_plain
from tests.unit.test_cards_support import new_table, run

runner = CliRunner()
COURSE = "2C 9H KD 5S 7H JC 3D"
NO_COLOUR = {"FORCE_COLOR": None, "TTY_COMPATIBLE": None, "COLUMNS": "120", "LINES": None}


def odds_json(*args: str) -> dict[str, Any]:
    result = runner.invoke(app, ["odds", "cards", "--json", *args], env=NO_COLOUR)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def test_json_win_maps_the_suit_letters_to_the_library_odds() -> None:
    data = odds_json("--course", COURSE, "--turned", "4H 2S")
    position = position_from_cards(parse_cards(COURSE), parse_cards("4H 2S"), need=8)
    expected = card_odds(position)
    assert data["win"] == {s: expected.win[i] for i, s in enumerate("CDHS")}
    assert sum(data["win"].values()) == pytest.approx(1.0, abs=1e-12)
    assert data["exacta"]["SH"] == expected.exacta[(3, 2)]
    assert data["book"]["horses"]["S"] == {
        "course_cards": 1,
        "price": "2-1",
        "edge": pytest.approx(1 - 3 * expected.win[3]),
    }
    assert data["average_edge"]["overall"] == pytest.approx(0.18608613, abs=1e-8)


def test_exact_json_gives_fractions_that_sum_to_one() -> None:
    data = odds_json("--course", COURSE, "--exact")
    win = {s: Fraction(v) for s, v in data["win"].items()}
    assert all("/" in v for v in data["win"].values())
    assert sum(win.values()) == 1
    exact = exact_card_odds(position_from_cards(parse_cards(COURSE), [], need=8))
    assert win == {s: exact.win[i] for i, s in enumerate("CDHS")}
    assert Fraction(data["book"]["horses"]["C"]["edge"]) == 1 - 4 * exact.win[0]


def test_need_course_length_and_options_follow_the_table() -> None:
    scarne = odds_json("--course", "2C 9H KD 5S 7H JC", "--need", "6")
    assert scarne["need"] == 6
    hidden = odds_json("--course-length", "3", "--faltering", "--need", "3", "--ranks", "3")
    assert hidden["course"] == [None, None, None] and "book" not in hidden
    assert sum(hidden["win"].values()) == pytest.approx(1.0)
    joker = odds_json("--course", COURSE, "--stumbling")
    assert "average_edge" not in joker  # the joker's average is asked for with --average
    assert joker["joker_discarded"] is False


def test_a_joker_in_the_course_is_the_one_discarded_while_dealing_it() -> None:
    """It holds no link and is out of the race's deck: the odds are those of the seven suit
    cards with no joker to come, not those of a joker still in the deck."""
    data = odds_json("--course", "2C 9H joker KD 5S 7H JC 3D", "--stumbling", "--turned", "4H")
    assert data["joker_discarded"] is True and data["course"] == COURSE.split()
    assert data["book"]["horses"]["S"]["course_cards"] == 1
    position = position_from_cards(parse_cards(COURSE), parse_cards("4H"), need=8)
    assert data["win"] == {s: card_odds(position).win[i] for i, s in enumerate("CDHS")}
    in_deck = odds_json("--course", COURSE, "--stumbling", "--turned", "4H")
    assert in_deck["win"] != data["win"]


def test_the_table_shows_prices_edges_and_the_average() -> None:
    result = runner.invoke(app, ["odds", "cards", "--course", COURSE], env=NO_COLOUR)
    assert result.exit_code == 0, result.output
    assert "house edge" in result.stdout and "2-1" in result.stdout
    assert "every legal course keeps 18.61%" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--course", "2C 9H XX"], "not a card"),
        (["--course", COURSE, "--turned", "2C"], "already seen"),
        (["--course", COURSE, "--course-length", "6"], "course has 7 cards"),
        (["--course-length", "7"], "face-up course needs its cards"),
        ([], "for a face-down one, --faltering --course-length N"),  # both are needed
        (["--course", "?? ?? ??", "--need", "4"], "only a faltering course"),
        (["--course-length", "7", "--faltering", "--max-states", "100"], "too young"),
        (["--course", f"joker {COURSE}"], "needs stumbling"),
        (["--course", f"joker {COURSE} joker", "--stumbling"], "names the joker twice"),
        (["--course", f"joker {COURSE}", "--stumbling", "--turned", "joker"], "already seen"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["odds", "cards", *args], env=NO_COLOUR)
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0]


def test_the_board_odds_still_run_without_a_subcommand() -> None:
    result = runner.invoke(app, ["odds", "--json"], env=NO_COLOUR)
    assert result.exit_code == 0
    assert set(json.loads(result.stdout)["win"]) == {str(h) for h in range(2, 13)}


# --- play, simulate, rules ----------------------------------------------------------------------


def play(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(app, ["play", *args], input=stdin, env=NO_COLOUR)
    return result.exit_code, result.stdout, result.stderr


def final_chips(output: str) -> dict[str, int]:
    table = output[output.index("Final standings") :]
    chips: dict[str, int] = {}
    for line in table.splitlines():
        words = line.split()
        if len(words) == 3 and words[2].isdigit():
            chips[words[1]] = int(words[2])
    return chips


@pytest.mark.parametrize(
    ("args", "total"),
    [
        (["basic", "--races", "2"], 400),
        (["scarne", "--players", "3", "--races", "1"], 300),
        (["basic", "--betting", "tote", "--races", "1", "--takeout", "10"], None),
        (["basic", "--faltering", "--stumbling", "--races", "1"], 400),
        (["basic", "--betting", "party", "--races", "1"], None),
        (["calcutta", "--players", "3", "--races", "1"], None),
    ],
)
def test_play_runs_a_whole_table_of_bots(args: list[str], total: int | None) -> None:
    code, out, err = play(*args, "--seed", "4", "--no-animation")
    assert code == 0, out + err
    assert "seed 4" in out and "Result after" in out
    chips = final_chips(out)
    if total is not None:  # the players' chips and the odd chips a tote leaves to the bank
        held = out.rsplit("chips not held by a player:", 1)
        unheld = int(held[1].split()[0]) if len(held) == 2 else 0
        assert sum(chips.values()) + unheld == total


def test_a_person_bets_at_the_keyboard() -> None:
    code, out, err = play(
        "basic", "--players", "3", "--races", "1", "--human", "2", "--seed", "8",
        "--no-animation", stdin="bet 3 lots\nbet 3 H\ndone\n",
    )  # fmt: skip
    assert code == 0, out + err
    assert "'lots' is not a suit (C, D, H or S)" in out
    assert "P2 bets 3 on Hearts (win)" in out
    assert "H: bet on Hearts (up to 10 chips)" in out


def test_a_person_bids_at_the_calcutta() -> None:
    answers = "bid lots\nbid 0\nbid 60\ny\n" + "p\n" * 300  # 60 of 150 chips: y, sure
    code, out, err = play(
        "calcutta", "--players", "3", "--races", "1", "--human", "1", "--seed", "3",
        "--no-animation", "--bots", "value", stdin=answers,
    )  # fmt: skip
    assert code == 0, out + err
    assert "'bid lots' is not a bid" in out and "0 is under the least bid allowed now (1)" in out
    assert "bid 60 stakes 60 of your 150 chips, over a quarter: sure?" in out
    assert "P1 bids 60" in out


def test_the_record_of_a_card_game_replays(tmp_path: Path) -> None:
    record = tmp_path / "race.jsonl"
    code, out, err = play(
        "basic", "--races", "1", "--seed", "2", "--no-animation", "--record", str(record)
    )
    assert code == 0, out + err
    result = runner.invoke(app, ["replay", str(record)], env=NO_COLOUR)
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["basic", "--players", "2"], "players must be between 3 and 12"),
        (["calcutta", "--betting", "tote"], "always auctions"),
        (["basic", "--faltering", "--betting", "book"], "faltering course hides"),
        (["basic", "--bots", "clever"], "unknown bot kind"),
        (["basic", "--human", "9"], "seats are numbered 1 to 4"),
    ],
)
def test_bad_play_options_are_one_line(args: list[str], message: str) -> None:
    code, _, err = play(*args, "--no-animation")
    assert code == 2
    assert err.startswith("error: ") and err.count("\n") == 1 and message in err


def test_simulate_reports_json_that_does_not_depend_on_workers() -> None:
    args = ["simulate", "basic", "--games", "10", "--seed", "5", "--json", "--bots", "value,random"]
    one = runner.invoke(app, args, env=NO_COLOUR)
    two = runner.invoke(app, [*args, "--workers", "2"], env=NO_COLOUR)
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    first, second = json.loads(one.stdout), json.loads(two.stdout)
    for data in (first, second):
        del data["elapsed_seconds"], data["workers"]
    assert first == second
    assert first["games"] == 10 and first["bots"] == ["value", "random", "value", "random"]
    counts = {row["count"]: row for row in first["win_by_course_count"]}
    assert counts[0]["exact"] == pytest.approx(0.5186649827777915)


def test_simulate_prints_tables() -> None:
    result = runner.invoke(
        app, ["simulate", "calcutta", "--games", "2", "--seed", "1"], env=NO_COLOUR
    )
    assert result.exit_code == 0, result.output
    assert "Winners by the horse's course cards" in result.stdout
    assert "pool per race" in result.stdout


@pytest.mark.parametrize("preset", ["basic", "scarne", "calcutta"])
def test_rules_are_shipped_for_every_card_preset(preset: str) -> None:
    result = runner.invoke(app, ["rules", preset, "--markdown"], env=NO_COLOUR)
    assert result.exit_code == 0
    assert result.stdout.startswith("# ") and f"`{preset}`" in result.stdout


def test_the_plain_board_hides_face_down_links_and_shows_the_lanes() -> None:
    game = new_table("basic", players=3, faltering=True, redeal=False, betting="tote")
    steps = run(game, ["5H", "9D", "7D", "KH", "QS", "JC", "10S", "done", "done", "done", "2H"])
    view = game.rules.view(game.state, None)
    info = BoardInfo(["P1", "P2", "P3"], "basic", {0: 0.25, 1: 0.25, 2: 0.25, 3: 0.25})
    text = to_plain(render_board(view, info), 100)
    course = next(line for line in text.splitlines() if line.startswith("course"))
    assert course.split()[1:] == ["5H", "??", "??", "??", "??", "??", "??"]
    hearts = next(line for line in text.splitlines() if "hearts" in line)
    assert hearts.split()[2:4] == ["●", "·"]  # fell back to the gate: link 1 was a heart
    assert "25.0%" in hearts
    names = ["P1", "P2", "P3"]
    news = [item.text for step in steps for item in step_news(redact(step.events, 0), names)]
    assert "Link 1 is dealt face down" in news and "Link 1: 5H" not in news
    assert "2H: Hearts to link 1" in news
    assert "2H: Link 1 is turned: 5H" in news and "2H: Hearts falters back to link 0" in news


def test_a_course_the_table_would_redeal_is_warned_of_not_priced() -> None:
    five_spades = "2S 9S KS 5S 7S JC 3D"
    result = runner.invoke(app, ["odds", "cards", "--course", five_spades], env=NO_COLOUR)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("warning: this course would be redealt at the table: 5 S")
    assert "house edge" not in result.stdout
    assert odds_json("--course", five_spades)["redealt"] is True
    priced = odds_json("--course", five_spades, "--no-redeal")  # asked for: priced anyway
    assert priced["win"]["S"] == 0 and "redealt" not in priced
    four = odds_json("--course", "2S 9S KS 5S 7H JC 3D")  # four of a suit may finish
    assert "redealt" not in four and four["win"]["S"] > 0


def test_fractional_book_odds_pay_whole_chips_rounded_down(tmp_path: Path) -> None:
    book = tmp_path / "book.toml"
    book.write_text('name = "halves"\n[odds]\n0 = "1-1"\n1 = "2-1"\n2 = "5-2"\n3 = "5-1"\n')
    args = ["odds", "cards", "--course", COURSE, "--book", str(book), "--no-average"]
    shown = runner.invoke(app, args, env=NO_COLOUR)
    assert "at 5-2 a 1-chip bet wins 2 and a 2-chip bet 5" in shown.stdout
    for stake, paid in ((1, 2), (2, 5), (3, 7)):
        data = odds_json("--course", COURSE, "--book", str(book), "--stake", str(stake))
        chance = data["win"]["C"]  # clubs: 2 cards on the course, priced 5-2
        assert data["book"]["horses"]["C"]["price"] == "5-2"
        assert data["book"]["horses"]["C"]["edge"] == pytest.approx(1 - chance * (1 + paid / stake))


def test_a_faltering_course_says_why_the_book_is_closed() -> None:
    hidden = ["--course-length", "3", "--faltering", "--need", "3", "--ranks", "3"]
    shown = runner.invoke(app, ["odds", "cards", *hidden], env=NO_COLOUR)
    assert "The dealer's book is closed: a faltering course lies face down" in shown.stdout
    assert "closed" in odds_json(*hidden)["book_closed"]
    code, out, _ = play("basic", "--faltering", "--races", "1", "--seed", "4", "--no-animation")
    assert code == 0 and "this table bets on the tote instead" in out.splitlines()[0]
    code, out, _ = play("basic", "--faltering", "--betting", "party", "--races", "1", "--seed", "4")
    assert code == 0 and "bets on the tote" not in out


def test_a_link_has_one_name_on_the_board_and_in_the_log() -> None:
    """Scarne's sixth link is the end: the header names it 6 as the log's 'Link 6: JC' does
    (it said 'fin' over it); basic's finish lies past its 7 links, 'fin' there, and the card
    that carries a horse home is told by its finish line alone (it said 'to link 8' first)."""
    names = ["P1", "P2", "P3"]
    hearts = ["8C", "10H", "JH", "QH", "KH", "2H", "3H", "4H", "5H"]
    for preset, links, finish, home in (("scarne", 6, [], "3H"), ("basic", 7, ["fin"], "5H")):
        game = new_table(preset, players=3, races=1)
        race = hearts[: hearts.index(home) + 1]
        steps = run(game, [*COURSE.split()[:links], "bet 4 H", "done", "done", *race])
        info = BoardInfo(names, preset, None)
        text = to_plain(render_board(game.rules.view(game.state, None), info), 100)
        header = next(line for line in text.splitlines() if line.split()[:1] == ["gate"])
        labels = [str(link) for link in range(1, links + 1)] + finish
        assert header.split()[1 : len(labels) + 1] == labels, header
        news = [item.text for step in steps for item in step_news(step.events, names)]
        assert [line for line in news if line.startswith(home)] == [
            f"{home}: Hearts crosses the line, place 1"
        ], news
        assert not [line for line in news if f"link {links + 1}" in line]
        if preset == "scarne":
            assert "Link 6: JC" in news and "2H: Hearts to link 5" in news
