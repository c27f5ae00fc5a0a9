"""Two people at one keyboard at a table of hidden hands (`play advanced --human 1 --human 2`),
run in a pty and read off the terminal's screen as the people read it, on the full screen and
in `--plain` lines: the keyboard is passed behind a screen that shows no hand, each person is
asked only after it was passed to them, no screen ever shows another person's hand, and the
log tells people's draft picks as it tells the bots' ("Bob keeps a card")."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from tests.terminal.pty import Terminal

TABLE = ["advanced", "--players", "4", "--rounds", "1", "--seed", "5", "--speed", "0"]
TABLE += ["--human", "1", "--human", "2", "--names", "Ann,Bob,Cy,Di"]

PASS = re.compile(r"pass to (\w+): press Enter when only \1 is looking")
ASKED = re.compile(r"(Ann|Bob), (which card do you keep|you owe a penalty|play your joker\?)")
# a person's row of the full board (the compact board's seats show how many cards, never which)
ROW = re.compile(r"^\s*D?\s*(\w+) \(you\)\s+\d+\s+(?!·)(\S.*)$", re.M)
HIDDEN = re.compile(r"\d+ cards? \(hidden\)")
OWN_HAND = re.compile(r"your hand \((\w+)\)")
PICK = re.compile(r"\b(?:Ann|Bob) keeps (?!a card)\S+")
KEEP_KEY = re.compile(r"^\s*([^\s:]+):? +keep ", re.M)  # an option of the draft ('  A: keep A')
LIMIT = 60  # seconds for the whole game
PICKS = 6  # three draft picks each, each behind a pass screen


def hands_shown(screen: str) -> set[str]:
    """The people whose cards the screen shows."""
    shown = {name for name, cards in ROW.findall(screen) if not HIDDEN.match(cards)}
    return shown | set(OWN_HAND.findall(screen))


def answer(screen: str, question: str, plain: bool) -> str:
    """What the person types: the first card offered to keep (listed above a printed prompt,
    below the full screen's question), else p (pay the penalty, pass on the joker)."""
    if question != "which card do you keep":
        return "p"
    lines = screen.splitlines()
    at = max(index for index, line in enumerate(lines) if question in line)
    offered = lines[:at][::-1] if plain else lines[at + 1 :]
    keys = [found.group(1) for line in offered if (found := KEEP_KEY.match(line))]
    assert keys, f"no card to keep on the screen:\n{screen}"
    return str(keys[0])


def draft_at_one_keyboard(terminal: Terminal, plain: bool, picks: int) -> None:
    """Make the draft's first `picks` picks as the two people would: wait for the screen that
    passes the keyboard, press Enter, wait for the question to the person it went to, answer
    it, and so on; every screen on the way is checked. In the draft somebody else always picks
    between two picks of one person, so each question must come after a pass screen."""
    holder: str | None = None  # whom the keyboard was passed to, while nobody answered since
    answered: str | None = None  # who answered last (their question may stay a moment)
    deadline = time.monotonic() + LIMIT
    while picks:
        assert time.monotonic() < deadline, f"too slow:\n{terminal.text}"
        screen = next(terminal.frames())
        assert not terminal.ended, terminal.written[-3000:]
        assert not PICK.search(screen), f"a person's pick is shown:\n{screen}"
        asking = (screen.rstrip().splitlines() or [""])[-1] if plain else screen  # the prompt
        passing = PASS.search(asking)
        question = ASKED.search(asking) if passing is None else None
        stale = question is not None and question.group(1) == answered  # standing a moment more
        shown = hands_shown(screen)
        if passing is not None and holder is None:
            assert not shown, f"a hand shows on the screen that passes the keyboard:\n{screen}"
        allowed = {holder, answered if stale else None}
        assert shown <= allowed, f"{shown} shown, {holder} at the keyboard:\n{screen}"
        if passing is not None and holder is None:
            holder, answered = passing.group(1), None
            terminal.send("\r")
            continue
        if question is None or stale:
            continue
        assert question.group(1) == holder, f"{question.group(1)} asked, {holder} at the keyboard"
        terminal.send(answer(screen, question.group(2), plain) + "\r")
        holder, answered, picks = None, question.group(1), picks - 1


@pytest.mark.parametrize("mode", ["full screen", "plain"])
def test_people_at_one_keyboard_never_see_each_others_hands(tmp_path: Path, mode: str) -> None:
    """The draft (five picks each, each behind a pass screen) and the first questions of the
    scratch and the race: a penalty and the joker are asked whatever the person holds."""
    plain = mode == "plain"
    args = ["play", *TABLE, *(["--plain"] if plain else ["--theme", "dark"])]
    terminal = Terminal(args, tmp_path, rows=30, columns=80)
    try:
        draft_at_one_keyboard(terminal, plain, PICKS)
    finally:
        terminal.close()
