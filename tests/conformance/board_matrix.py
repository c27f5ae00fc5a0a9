"""The conformance matrix of the dice board game: every preset with every house rule and every
combination the rules allow, and how one row's game is played (seeded, with a bot mix).

Run as a script to rewrite the golden records
(`python -m tests.conformance.board_matrix --write`): one record per row in tests/golden/,
which tests/conformance/test_golden.py replays event by event, so any change in the rules'
behaviour shows up as a diff that a reviewer must accept.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from itertools import combinations
from pathlib import Path
from typing import Any

from horserace.core.chance import SeededChance
from horserace.core.rng import BOT_STREAM, derive_seed
from horserace.drivers.bots import make_bot
from horserace.engine import Game, play
from horserace.families.presets import get_preset

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
GOLDEN_SEED = 2026
GOLDEN_BOTS = ("ev", "random", "heuristic", "random")

_CLASSIC_RULES: dict[str, dict[str, Any]] = {
    "robertson": {"robertson": True},
    "perry": {"trade_window": "after-each-scratch"},
    "schellenberg": {"market": True},
    # 8 chips a seat: within two rounds seats run short of a wager (only the fold is theirs)
    "husted": {"husted": True, "ante": 1, "open_hands": False, "starting_chips": 8},
}
_ADVANCED_RULES: dict[str, dict[str, Any]] = {
    "robertson": {"robertson": True},
    "perry": {"trade_window": "before-scratch"},
    "classic-scratch": {"repeat_scratch": "move"},
}


def _subsets(rules: dict[str, dict[str, Any]]) -> list[tuple[str, ...]]:
    names = sorted(rules)
    return [combo for size in range(len(names) + 1) for combo in combinations(names, size)]


def _row(preset: str, names: tuple[str, ...], rules: dict[str, dict[str, Any]]) -> Row:
    options: dict[str, Any] = {"players": 4, "rounds": 2}
    for name in names:
        options.update(rules[name])
    return Row("+".join((preset, *names)), preset, options)


class Row:
    """One line of the matrix: a preset and the options of its house rules."""

    def __init__(self, name: str, preset: str, options: dict[str, Any]) -> None:
        self.name, self.preset, self.options = name, preset, options

    def __repr__(self) -> str:
        return self.name

    @property
    def golden_rounds(self) -> int:
        """Rounds in the golden record: Husted's two, so its short stacks show; else one."""
        return 2 if self.options.get("husted") else 1

    @property
    def hidden_hands(self) -> bool:
        return self.preset == "advanced" or bool(self.options.get("husted"))


ROWS: tuple[Row, ...] = (
    *(_row("classic", names, _CLASSIC_RULES) for names in _subsets(_CLASSIC_RULES)),
    Row("classic+perry-before", "classic", {"players": 4, "trade_window": "before-scratch"}),
    Row("classic+perry-after", "classic", {"players": 4, "trade_window": "after-scratch"}),
    *(  # Husted at every table size: the deal leaves no stub at some, a stub at others
        Row(
            f"classic+husted-{n}p",
            "classic",
            {"players": n, "rounds": 2, **_CLASSIC_RULES["husted"]},
        )
        for n in range(2, 13)
        if n != 4
    ),
    *(_row("advanced", names, _ADVANCED_RULES) for names in _subsets(_ADVANCED_RULES)),
    Row("northwoods", "northwoods", {"players": 4, "rounds": 6}),
)


def play_row(
    row: Row,
    seed: int,
    bots: tuple[str, ...],
    observe: Any = None,
    rounds: int | None = None,
) -> Game:
    """One seeded game of the row, the bot kinds round the table in order."""
    options = dict(row.options) if rounds is None else {**row.options, "rounds": rounds}
    return play_seeded(row.preset, options, seed, bots, observe)


def play_seeded(
    name: str, options: dict[str, Any], seed: int, bots: tuple[str, ...], observe: Any = None
) -> Game:
    """One seeded game of a preset, the bot kinds (of the preset's family) round the table."""
    preset = get_preset(name)
    config = preset.config(options)
    game = Game(name, preset.rules, config, seed=seed, chance_mode="seeded")
    players = preset.rules.players(config)
    family = preset.rules.family
    agents = {
        seat: make_bot(bots[seat % len(bots)], derive_seed(seed, BOT_STREAM, seat), family)
        for seat in range(players)
    }
    play(game, agents, SeededChance(seed), observe=observe)
    return game


def golden_lines(row: Row) -> list[str]:
    game = play_row(row, GOLDEN_SEED, GOLDEN_BOTS, rounds=row.golden_rounds)
    return list(game.record().lines())


def golden_path(row: Row) -> Path:
    return GOLDEN / f"{row.name}.jsonl"


def write_records(records: Iterable[tuple[Path, list[str]]]) -> None:
    """Write each golden record, saying which ones changed."""
    GOLDEN.mkdir(exist_ok=True)
    for path, lines in records:
        text = "".join(line + "\n" for line in lines)
        changed = not path.exists() or path.read_text(encoding="utf-8") != text
        path.write_text(text, encoding="utf-8")
        print(f"{'rewrote' if changed else 'same   '} {path.name}")


def assert_plays_as_recorded(path: Path, actual: list[str], write: str) -> None:
    """The game played again gives the golden record line for line (`write`: the command
    that writes the records, for a missing one)."""
    assert path.exists(), f"no golden record {path.name}: run python -m {write} --write"
    expected = path.read_text(encoding="utf-8").splitlines()
    for number, (want, got) in enumerate(zip(expected, actual, strict=False), start=1):
        assert got == want, f"{path.name} line {number} differs:\n want {want}\n got  {got}"
    assert len(actual) == len(expected), f"{path.name}: {len(actual)} lines, not {len(expected)}"


def write_golden() -> None:
    write_records((golden_path(row), golden_lines(row)) for row in ROWS)


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python -m tests.conformance.board_matrix --write")
    write_golden()
