"""The board bots: they only ever choose legal actions, they make the obvious right choice in
hand-built spots, and over many games they beat random play by a margin beyond chance."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from horserace.components.cards import ACE, JOKER, KING
from horserace.core.actions import Action
from horserace.core.chance import SeededChance
from horserace.core.errors import ConfigError
from horserace.core.rng import BOT_STREAM, derive_seed
from horserace.drivers.bots import make_bot, parse_bots
from horserace.drivers.simulate.runner import simulate_games
from horserace.engine import Agent, Game, play
from horserace.families import family
from horserace.families.board.rules.actions import PlayJoker
from tests.helpers import dice_for, new_game
from tests.scenarios.test_advanced_scenarios import act, race_state


class LegalOnly:
    """Wraps a bot and fails the test the moment it picks an action not on offer."""

    def __init__(self, bot: Agent) -> None:
        self.bot = bot
        self.choices = 0

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        action = self.bot.choose(view, legal)
        assert action in legal, f"{action.text!r} is not among {[a.text for a in legal]}"
        self.choices += 1
        return action


@pytest.mark.parametrize(
    ("preset", "options"),
    [
        ("advanced", {"players": 5, "rounds": 2}),
        ("advanced", {"players": 8, "rounds": 1, "repeat_scratch": "move", "ante": 2}),
        ("classic", {"players": 3, "rounds": 2, "robertson": True}),
        ("advanced", {"players": 4, "rounds": 1, "robertson": True}),
        ("northwoods", {"players": 3, "rounds": 3}),
    ],
)
@pytest.mark.parametrize("kind", ["heuristic", "ev"])
def test_bots_choose_only_legal_actions(preset: str, options: dict[str, Any], kind: str) -> None:
    for seed in range(2):
        game = new_game(options, preset=preset, seed=seed)
        players = game.rules.players(game.config)
        bots = {
            s: LegalOnly(make_bot(kind, derive_seed(seed, BOT_STREAM, s), "board"))
            for s in range(players)
        }
        play(game, dict(bots), SeededChance(seed))
        assert game.over
        total = sum(game.rules.ledger(game.state).balances)
        assert total == players * game.config.starting_chips


def choice(game: Game, seat: int, kind: str = "ev") -> str:
    bot = make_bot(kind, 1, "board")
    legal = game.rules.legal_actions(game.state, seat)
    return bot.choose(game.rules.view(game.state, seat), legal).text


@pytest.mark.parametrize("kind", ["ev", "heuristic"])
def test_an_ace_cancels_a_big_penalty(kind: str) -> None:
    game = new_game({"players": 4}, preset="advanced")
    race_state(game, {0: {ACE: 1, 7: 1}})
    act(game, "roll", dice_for(11))  # horse 11 on line 4: owes 4
    assert choice(game, 0, kind) == "ace"


def test_ev_bot_passes_a_penalty_to_the_neighbour_with_fewer_cards() -> None:
    game = new_game({"players": 4}, preset="advanced")
    race_state(game, {0: {KING: 1}, 1: {2: 3, 3: 3}, 3: {4: 1}})
    act(game, "roll", dice_for(9))  # horse 9 on line 3
    assert choice(game, 0) == "king right"  # seat 3 holds one card, seat 1 six


def test_ev_bot_plays_its_joker_to_finish_the_horse_it_holds() -> None:
    game = new_game({"players": 4}, preset="advanced")
    race_state(game, {0: {JOKER: 1, 12: 2}}, positions={12: 2, 2: 2})
    act(game, "roll", dice_for(7))
    assert choice(game, 0) == "joker 12 forward"
    assert choice(game, 0, "heuristic") == "joker 12 forward"


def test_ev_bot_holds_back_a_rival_horse_about_to_win() -> None:
    game = new_game({"players": 4}, preset="advanced")
    race_state(game, {0: {JOKER: 1, 7: 2}, 1: {2: 2}}, positions={2: 2, 7: 13})
    act(game, "roll", dice_for(6))
    chosen = game.rules.parse_action(game.state, choice(game, 0))
    assert chosen in (PlayJoker(7, True), PlayJoker(2, False))


def test_ev_bot_pairs_the_dice_away_from_scratched_horses() -> None:
    game = new_game({"players": 3, "robertson": True}, preset="classic")
    race_state(game, {0: {6: 2, 8: 2}}, lines=(5, 9, 0, 0))
    act(game, "roll", "1+4+4+5")  # pairings: 5+9 (both scratched), 8+6, ...
    assert choice(game, 0) in ("pair 6 8", "pair 8 6")


def test_parse_bots_repeats_a_short_mix_and_rejects_unknown_kinds() -> None:
    assert parse_bots("ev,random", 5, "board") == ["ev", "random", "ev", "random", "ev"]
    assert set(family("board").bot_kinds) == {"random", "heuristic", "ev"}
    with pytest.raises(ConfigError, match="unknown bot kind"):
        parse_bots("ev,genius", 4, "board")
    with pytest.raises(ConfigError, match="3 bots for 2 seats"):
        parse_bots("ev,ev,ev", 2, "board")


def test_ev_bot_beats_random_play_in_advanced_mode() -> None:
    """Seats rotate each game, so the gap is the bot's skill, not its seat."""
    report = simulate_games(
        "advanced", {"players": 4, "rounds": 3}, 48, seed=2026, bots=("ev", "random")
    )
    ev, rand = report.bot_results["ev"], report.bot_results["random"]
    assert ev.count == rand.count == 96
    assert ev.mean + rand.mean == pytest.approx(0, abs=1e-9)  # chips only change hands
    low, _ = ev.ci95() or (0.0, 0.0)
    assert low > 0  # the EV bot's mean gain is above zero beyond its 95% interval


def test_rotation_gives_every_kind_every_seat() -> None:
    report = simulate_games(
        "advanced", {"players": 4, "rounds": 1}, 4, seed=1, bots=("ev",) + ("random",) * 3
    )
    assert report.bots == ("ev", "random", "random", "random")
    assert report.bot_results["ev"].count == 4 and report.bot_results["random"].count == 12


def test_ev_bot_keeps_its_ace_for_later_on_a_small_early_penalty() -> None:
    """From a hidden-hands view: 1 chip owed with the whole race ahead is paid, the Ace kept;
    the same penalty when the race is all but over is cancelled."""
    game = new_game({"players": 4, "open_hands": False}, preset="advanced")
    race_state(game, {0: {ACE: 1}, 1: {7: 3}})
    act(game, "roll", dice_for(3))  # horse 3 on line 1: owes 1
    assert choice(game, 0) == "pay"
    late = new_game({"players": 4, "open_hands": False}, preset="advanced")
    race_state(late, {0: {ACE: 1}}, positions={2: 2, 12: 2, 7: 14, 6: 13, 8: 13})
    act(late, "roll", dice_for(3))
    assert choice(late, 0) == "ace"
