"""Play a board game with decisions on the reference engine and read back what a kernel must
reproduce: the tape (dealt ranks, dice sums, and every seat's pick among several legal actions,
in the engine's order) and the game's figures."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from horserace.components.dice import DiceRoll
from horserace.core.actions import Action
from horserace.core.chance import SeededChance
from horserace.core.rng import BOT_STREAM, derive_seed
from horserace.engine import Agent, Step, play
from horserace.families import make_bot
from horserace.families.board.rules.actions import Deal
from horserace.families.board.rules.events import ChipsPaid, JokerPlayed, KingPlayed, RaceWon
from horserace.families.presets import get_preset
from horserace.kernels.advanced_numbers import choice_entry
from tests.helpers import new_game


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
    """The seeded chance, with each dealt rank and dice sum written to the tape."""

    def __init__(self, seed: int, tape: list[int]) -> None:
        super().__init__(seed)
        self._tape = tape

    def choose(self, rules: Any, state: Any) -> Action:
        action = super().choose(rules, state)
        if isinstance(action, Deal):
            self._tape.append(action.rank)
        elif isinstance(action, DiceRoll):
            self._tape.append(action.total)
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
        if kind in ("AcePlayed", "KingPlayed", "JokerPlayed"):
            found.append(kind)
    return found
