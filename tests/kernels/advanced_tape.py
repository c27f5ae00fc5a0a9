"""Play a board game with decisions on the reference engine and read back what a kernel must
reproduce: the tape (dealt ranks, dice sums or Robertson's four dice, and every seat's pick among
several legal actions, in the engine's order) and the game's figures."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import pytest

from horserace.components.dice import DiceRoll, FourDice
from horserace.core.actions import Action
from horserace.core.chance import SeededChance
from horserace.core.chunks import Span
from horserace.core.rng import BOT_STREAM, derive_seed
from horserace.engine import Agent, Step, play
from horserace.families import make_bot
from horserace.families.board.rules.actions import Deal
from horserace.families.board.rules.events import (
    ChipsPaid,
    JokerPlayed,
    KingPlayed,
    PairChosen,
    RaceWon,
)
from horserace.families.board.tally import _kernel_span
from horserace.families.presets import get_preset
from horserace.kernels.advanced_numbers import CHOICE, SPAN, bot_kinds, choice_entry
from horserace.kernels.board_numbers import GameOutcomes
from horserace.kernels.robertson import four_dice_entry
from tests.helpers import new_game
from tests.kernels.test_board_game_equality import table_places


@dataclass(frozen=True)
class DecidedGame:
    config: dict[str, Any]
    tape: list[int]
    chips: list[int]  # final chips per seat
    pots: list[int]  # left in the Main Pot and the Jockey Pot
    winners: list[int]  # per race
    rolls: list[int]  # race rolls per race
    paid: list[int]  # chips paid into the pots between one race won and the next
    places: list[int]  # per seat: its place in the engine's result
    choices: int  # seats' picks among several legal actions
    seen: Counter[str]  # how often the game did what a test wants covered (see `_seen`)


class _Recorded:
    """A seat's bot, with its picks among several legal actions written to the tape."""

    def __init__(self, bot: Agent, tape: list[int]) -> None:
        self._bot, self._tape = bot, tape
        self.reads_view = getattr(bot, "reads_view", True)
        self.wants_view = getattr(bot, "wants_view", None)

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        action = self._bot.choose(view, legal)
        if len(legal) > 1:
            self._tape.append(choice_entry(len(legal), list(legal).index(action)))
        return action


class _RecordedChance(SeededChance):
    """The seeded chance, with each dealt rank, dice sum and four dice written to the tape."""

    def __init__(self, seed: int, tape: list[int]) -> None:
        super().__init__(seed)
        self._tape = tape

    def choose(self, rules: Any, state: Any) -> Action:
        action = super().choose(rules, state)
        if isinstance(action, Deal):
            self._tape.append(action.rank)
        elif isinstance(action, DiceRoll):
            self._tape.append(action.total)
        elif isinstance(action, FourDice):
            self._tape.append(four_dice_entry(action.dice))
        return action


def decided_game(
    preset: str, options: Mapping[str, Any], seed: int, kinds: Sequence[str]
) -> DecidedGame:
    """The engine's game seeded `seed` with the bots `kinds` (one a seat)."""
    game = new_game(options, preset=preset, seed=seed)
    players = game.rules.players(game.config)
    tape: list[int] = []
    bots = {
        seat: _Recorded(make_bot(kinds[seat], derive_seed(seed, BOT_STREAM, seat), "board"), tape)
        for seat in range(players)
    }
    winners: list[int] = []
    rolls: list[int] = []
    paid: list[int] = []
    paid_now = 0
    seen: Counter[str] = Counter()

    def observe(step: Step) -> None:
        nonlocal paid_now
        seen.update(_seen(step.events))
        for event in step.events:
            if isinstance(event, ChipsPaid):
                paid_now += event.paid
            elif isinstance(event, RaceWon):
                winners.append(event.horse)
                rolls.append(event.rolls)
                paid.append(paid_now)
                paid_now = 0

    play(game, bots, _RecordedChance(seed, tape), observe=observe)
    balances = game.rules.ledger(game.state).balances
    places = [0] * players
    for standing in game.rules.result(game.state).standings:
        places[standing.seat] = standing.place
    return DecidedGame(
        config=get_preset(preset).rules.config_to_dict(game.config),
        tape=tape,
        chips=list(balances[:players]),
        pots=list(balances[players:]),
        winners=winners,
        rolls=rolls,
        paid=paid,
        places=places,
        choices=sum(1 for entry in tape if entry >= choice_entry(0, 0)),
        seen=seen,
    )


HUSTED_SEEN = ("Folded", "CardsDrawn", "FaceCardPlayed", "HorseBlocked", "NoDraw")


def _seen(events: Sequence[Any]) -> list[str]:
    """What a step shows the game did, by the names the tests count."""
    found = []
    for event in events:
        kind = type(event).__name__
        if isinstance(event, KingPlayed) and event.doubled:
            found.append("KingDoubled")
        if isinstance(event, JokerPlayed) and not event.forward:
            found.append("JokerBack")
        if isinstance(event, RaceWon) and any(isinstance(e, JokerPlayed) for e in events):
            found.append("JokerWon")
        if kind in HUSTED_SEEN and (kind != "CardsDrawn" or event.discarded):
            found.append(kind)
        if kind in ("AcePlayed", "KingPlayed", "JokerPlayed", "PairChosen", "CardBought"):
            found.append(kind)
        if kind == "TradeOffered":
            found.append(kind)
        if kind == "TradeAnswered" and event.accepted:
            found.append("TradeAccepted")
        if isinstance(event, RaceWon):  # Robertson: the race ends on a pairing's first sum
            pair = next((e for e in events if isinstance(e, PairChosen)), None)
            if pair is not None and event.horse == pair.first != pair.second:
                found.append("FirstSumWon")
    return found


Table = Callable[..., tuple[dict[str, Any], list[str]]]


@dataclass(frozen=True)
class KernelGames:
    """A kernel with decisions as its equality tests drive it: its module (`run_games`,
    `replay_tape`), its spec's class, the preset its tables play on, and `table(seed, bots)`
    drawing a random table and its bots."""

    kernel: ModuleType
    spec: Any
    preset: str
    table: Table

    def matches(self, played: DecidedGame, kinds: list[str], monkeypatch: Any) -> GameOutcomes:
        """The kernel's game on the engine's tape is the engine's game."""
        spec = self.spec.from_config(played.config)
        assert spec is not None
        mix = bot_kinds(kinds)
        assert mix is not None
        outcomes, used = self.kernel.replay_tape(spec, mix, played.tape)
        assert used == len(played.tape)
        assert outcomes.chips[0].tolist() == played.chips
        assert int(outcomes.pot_left[0]) == sum(played.pots)
        assert outcomes.winner[0].tolist() == played.winners
        assert outcomes.rolls[0].tolist() == played.rolls
        assert outcomes.paid[0].tolist() == played.paid
        assert table_places(played.chips, [0] * spec.players) == played.places
        # the simulation's report reads the winners off the kernel's rows as the engine ranks
        monkeypatch.setattr(self.kernel, "run_games", lambda *args, **kwargs: outcomes)
        tally = _kernel_span(spec, 0, tuple(kinds), Span(0, 1))
        assert list(tally.seat_wins) == [int(place == 1) for place in played.places]
        return outcomes  # type: ignore[no-any-return]

    def batch(self, seeds: range, bots: tuple[str, ...], monkeypatch: Any) -> Counter[str]:
        """Every table of the batch played alike by the engine and the kernel; what they did."""
        seen: Counter[str] = Counter()
        for seed in seeds:
            options, kinds = self.table(seed, bots)
            played = decided_game(self.preset, options, seed, kinds)
            self.matches(played, kinds, monkeypatch)
            seen += played.seen
            seen["choices"] += played.choices
        return seen

    def other_pick_is_caught(self) -> None:
        """The tape holds the engine's heuristic picks: a kernel bot deciding otherwise is an
        error, not a game that happens to end alike (here the engine's first pick is moved on)."""
        for seed in range(50):
            table, _ = self.table(seed, ("heuristic",))
            kinds = ["heuristic"] * table["players"]
            played = decided_game(self.preset, table, seed, kinds)
            if played.choices:
                break
        spec = self.spec.from_config(played.config)
        assert spec is not None
        mix = bot_kinds(kinds)
        assert mix is not None
        self.kernel.replay_tape(spec, mix, played.tape)  # as played: equal
        tape = list(played.tape)
        first = next(at for at, entry in enumerate(tape) if entry >= CHOICE)
        options, index = divmod(tape[first] - CHOICE, SPAN)
        tape[first] = choice_entry(options, (index + 1) % options)
        with pytest.raises(ValueError, match="another action"):
            self.kernel.replay_tape(spec, mix, tape)
