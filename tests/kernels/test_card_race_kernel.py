"""The card-race kernel: the rules' game card for card and chip for chip on the same chance tape
(dealt cards and the blind bettors' horses), over a thousand random tables; and the
figures theory predicts (winners by course count against the exact odds)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from horserace.components.french_deck import is_joker
from horserace.core.actions import Action
from horserace.core.chance import SeededChance
from horserace.core.errors import ConfigError
from horserace.core.rules import Rules
from horserace.engine import Agent, Step, play
from horserace.families.cards.bots import BlindBettor
from horserace.families.cards.odds.book import win_by_count
from horserace.families.cards.rules import events as ev
from horserace.families.cards.rules.actions import DealCard
from horserace.families.cards.rules.config import CardsConfig
from horserace.families.presets import get_preset
from horserace.kernels.card_race import card_spec, replay_tape, run_games
from tests.helpers import new_game

BATCHES, GAMES_PER_BATCH = 5, 200  # 1,000 games against the engine


class _Taped(random.Random):
    """A generator that writes every horse it draws onto the shared tape."""

    def __init__(self, seed: int, tape: list[int]) -> None:
        super().__init__(seed)
        self.tape = tape

    def randrange(self, *args: Any, **kwargs: Any) -> int:
        value = super().randrange(*args, **kwargs)
        self.tape.append(value)
        return value


class _TapedChance(SeededChance):
    def __init__(self, seed: int, tape: list[int]) -> None:
        super().__init__(seed)
        self.tape = tape

    def choose(self, rules: Rules[Any, Any], state: Any) -> Action:
        action = super().choose(rules, state)
        assert isinstance(action, DealCard)
        self.tape.append(action.card)
        return action


def random_options(seed: int) -> tuple[str, dict[str, Any]]:
    """Any table the kernel plays: book, tote or party; faltering and stumbling courses; short
    purses and limits (so the dealer's cover and the bettors' chips run short)."""
    pick = random.Random(seed)
    while True:
        preset = pick.choice(["basic", "scarne"])
        betting = pick.choice(["book", "tote", "party"])
        options: dict[str, Any] = {
            "players": pick.randint(3, 12),
            "races": pick.randint(1, 4),
            "starting_chips": pick.choice([0, 2, 5, 10, 30, 100]),
            "betting": betting,
            "bet_limit": pick.randint(1, 25),
            "stumbling": pick.random() < 0.4,
        }
        if options["stumbling"] and pick.random() < 0.5:  # the earlier reading of old records
            options["course_joker"] = "stays"
        if betting != "book" and pick.random() < 0.4:
            options["faltering"], options["redeal"] = True, False
        if betting == "tote":
            options["takeout"] = pick.choice([0, 5, 17, 50])
        if betting == "party":
            options["prizes"] = [pick.randint(0, 30) for _ in range(pick.randint(1, 4))]
        if pick.random() < 0.3:
            options["ranks"] = pick.randint(5, 12)
            options["course_length"] = pick.randint(2, 8)
            options["need"] = pick.randint(2, options["course_length"] + 1)
        options["first_dealer"] = pick.randrange(options["players"])
        try:
            get_preset(preset).config(options)
        except ConfigError:
            continue
        return preset, options


def engine_game(preset: str, options: dict[str, Any], seed: int) -> tuple[Any, list[int], Any]:
    """The rules' game with blind bettors: (final state, tape, what the events said)."""
    game = new_game(options, preset=preset, seed=seed)
    tape: list[int] = []
    agents: dict[int, Agent] = {
        seat: BlindBettor(_Taped(seed * 100 + seat, tape)) for seat in range(options["players"])
    }
    seen: dict[str, list[Any]] = {
        "order": [], "cards": [], "redeals": [], "steps": [0], "discarded": [], "dealing": [0],
        "odd chips": [0], "minus pool": [0], "to the gate": [0],
    }  # fmt: skip

    def observe(step: Step) -> None:
        seen["steps"][0] += 1
        for event in step.events:
            if isinstance(event, ev.RaceOver):
                seen["order"].append(list(event.order))
                seen["cards"].append(event.cards)
                seen["discarded"].append(seen["dealing"][0])
                seen["dealing"][0] = 0
            elif isinstance(event, ev.CourseRedealt):
                seen["redeals"].append(len(seen["order"]))
                seen["dealing"][0] = 0  # the joker is back in the reshuffled deck
            elif isinstance(event, ev.Payment) and event.reason.startswith("win "):
                for case in ("odd chips", "minus pool"):
                    seen[case][0] += event.reason.endswith(case)
            elif isinstance(event, ev.HorseFellBack) and event.position == 0:
                seen["to the gate"][0] += 1
            elif isinstance(event, ev.CourseJokerDiscarded):
                seen["dealing"][0] += 1
            elif isinstance(event, ev.CourseCardDealt) and is_joker(event.card):
                seen["dealing"][0] += 1  # course_joker = "stays": it lies on its link

    play(game, agents, _TapedChance(seed, tape), observe=observe)
    return game, tape, seen


@pytest.mark.parametrize("batch", range(BATCHES))
def test_kernel_plays_the_rules_game_chip_for_chip(batch: int) -> None:
    """Each batch deals the joker to some courses, discarded (another card dealt) on some
    tables and left on its link on others (`course_joker = "stays"`): counted, and the kernel
    must say which races' courses got it, as the rules' events do. Win pools leaving odd chips
    or short of their winning stakes, and horses thrown back to the gate, are counted too."""
    dealt = {False: 0, True: 0}  # by whether the joker stays
    cases = {"odd chips": 0, "minus pool": 0, "to the gate": 0}  # the tote's and the gate's
    for seed in range(batch * GAMES_PER_BATCH, (batch + 1) * GAMES_PER_BATCH):
        preset, options = random_options(seed)
        game, tape, seen = engine_game(preset, options, seed)
        config = game.config
        spec = card_spec(config)
        assert spec is not None
        out, used = replay_tape(spec, tape)
        assert used == len(tape), (seed, options)
        balances = game.rules.ledger(game.state).balances
        n = config.players
        assert out.chips[0].tolist() == list(balances[:n]), (seed, options)
        assert [int(out.table[0]), int(out.bank[0])] == list(balances[n:]), (seed, options)
        assert out.order[0].tolist() == seen["order"], (seed, options)
        assert out.cards[0].tolist() == seen["cards"], (seed, options)
        redeals = [seen["redeals"].count(race) for race in range(config.races)]
        assert out.redeals[0].tolist() == redeals, (seed, options)
        assert int(out.steps[0]) == seen["steps"][0], (seed, options)
        assert out.course[0][:, 4].tolist() == seen["discarded"], (seed, options)
        dealt[config.joker_stays] += sum(seen["discarded"])
        for case in cases:
            cases[case] += seen[case][0]
    assert min(dealt.values()) >= 4, dealt
    # each batch pays win pools with odd chips (30-57 of them) and minus pools (3-18), and
    # throws horses back to the gate (105-187 times): the kernel follows all three
    assert cases["odd chips"] >= 20 and cases["minus pool"] >= 3 and cases["to the gate"] >= 50, (
        cases
    )


def test_games_are_reproducible_and_split_by_game_index() -> None:
    config = get_preset("basic").config({"players": 5})
    spec = card_spec(config)
    assert spec is not None
    whole = run_games(spec, 7, 0, 500)
    first, second = run_games(spec, 7, 0, 200), run_games(spec, 7, 200, 300)
    assert np.array_equal(whole.chips, np.concatenate([first.chips, second.chips]))
    assert np.array_equal(whole.order, np.concatenate([first.order, second.order]))
    assert not np.array_equal(whole.order, run_games(spec, 8, 0, 500).order)


def test_the_kernel_plays_no_calcutta_and_no_cut_for_the_deal() -> None:
    assert card_spec(get_preset("calcutta").config({})) is None
    assert card_spec(get_preset("basic").config({"cut_for_deal": True})) is None


CHI2_P001 = {1: 10.828, 2: 13.816, 3: 16.266, 4: 18.467, 5: 20.515, 6: 22.458}


# A stumbling table's exact odds cost seconds of CPU on the Basic pack (12 cards a suit, 7 links:
# 7 s), half a second on a short one (8 cards a suit, 5 links, a horse home past the last):
# the joker is dealt, discarded or turned in the race alike, and redeals (3 of a suit) are
# frequent. The odds module keeps them for the process; the tests that read them run on one
# worker of `pytest -n 2`, which works them out once (the table that leaves a joker on its link
# asks for the same courses with the joker in the deck, and its others are quick).
STUMBLING_PACK: dict[str, Any] = {"ranks": 8, "course_length": 5, "need": 6, "stumbling": True}
STUMBLING_ODDS = pytest.mark.xdist_group("the exact odds of a stumbling short pack")


@pytest.mark.parametrize(
    "options",
    [
        {},
        pytest.param(STUMBLING_PACK, marks=STUMBLING_ODDS),
        pytest.param({**STUMBLING_PACK, "course_joker": "stays"}, marks=STUMBLING_ODDS),
        {"course_length": 6, "need": 6, "redeal": False},
    ],
)
def test_winners_by_course_count_follow_the_exact_odds(options: dict[str, Any]) -> None:
    """A horse showing c course cards wins with the exact chance of families/cards/odds/book.py:
    chi-square over the course counts at p = 0.001, on 100,000 races."""
    config: CardsConfig = get_preset("basic").config({"races": 10, "players": 4, **options})
    spec = card_spec(config)
    assert spec is not None
    out = run_games(spec, 11, 0, 10_000)
    counts = out.course[:, :, :4].reshape(-1, 4)
    winner = out.order[:, :, 0].reshape(-1)
    won = counts[np.arange(winner.size), winner]
    exact = {c: float(p) for c, p in win_by_count(config).items()}
    chi2, cells = 0.0, 0
    for count, chance in exact.items():
        starts = int((counts == count).sum())
        if starts * chance < 20 or starts * (1 - chance) < 20:
            continue
        wins = int((won == count).sum())
        expected = starts * chance
        chi2 += (wins - expected) ** 2 / (expected * (1 - chance))
        cells += 1
    assert cells >= 3
    assert chi2 < CHI2_P001[cells], (chi2, cells)


def test_simulate_cards_runs_blind_bettors_on_the_kernel_whatever_the_workers() -> None:
    from horserace.drivers.simulate.runner import simulate_games as simulate_cards

    one = simulate_cards("basic", {"betting": "tote"}, 12_000, 4, bots=("blind",))
    two = simulate_cards("basic", {"betting": "tote"}, 12_000, 4, bots=("blind",), workers=2)
    assert one == two and one.engine == "kernel" and one.to_json()["engine"] == "kernel"
    slow = simulate_cards("basic", {"betting": "tote"}, 40, 4, bots=("blind",), engine="reference")
    assert slow.engine == "reference"
    assert abs(one.race_cards.mean - slow.race_cards.mean) < 5 * slow.race_cards.standard_error
    with pytest.raises(ConfigError, match="--engine reference"):
        simulate_cards("basic", {}, 10, 4, bots=("value",), engine="kernel")


def test_simulate_command_names_the_engine_and_refuses_a_kernel_it_cannot_use() -> None:
    import json

    from typer.testing import CliRunner

    from horserace.drivers.cli.app import app

    runner = CliRunner()
    result = runner.invoke(app, ["simulate", "scarne", "-n", "300", "--seed", "2", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["engine"] == "kernel"
    bad = runner.invoke(app, ["simulate", "basic", "-n", "3", "--engine", "kernel", "--bots",
                              "value"])  # fmt: skip
    assert bad.exit_code == 2 and "error:" in bad.output and "Traceback" not in bad.output
