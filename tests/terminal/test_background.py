"""`--theme auto`: the terminal's own answer about its background, else COLORFGBG, else dark."""

from __future__ import annotations

import os
import select

import pytest

from horserace.terminal.tui import background
from horserace.terminal.tui.background import ask, background_of, is_light

ATTRIBUTES = b"\x1b[?62;22c"  # the device attributes every terminal sends back
PATIENCE = 30.0  # seconds: a pty passes bytes on in the kernel's own time on a busy machine


def sent(main: int) -> bytes:
    """Everything the program wrote to the terminal, once the query has come through."""
    data = b""
    while not data.endswith(background.QUERY) and select.select([main], [], [], PATIENCE)[0]:
        data += os.read(main, 1024)
    return data


def test_the_colour_is_read_from_the_terminals_answer() -> None:
    assert background_of(b"\x1b]11;rgb:ffff/ffff/ffff\x1b\\") == (1.0, 1.0, 1.0)
    assert background_of(b"\x1b]11;rgb:00/80/ff\x07") == (0.0, 128 / 255, 1.0)
    assert background_of(b"\x1b]11;rgba:1c1c/1c1c/1c1c/ffff\x07") == pytest.approx(
        (0.11,) * 3, 0.01
    )
    assert background_of(ATTRIBUTES) is None


@pytest.mark.parametrize(
    ("answer", "light"),
    [
        (b"\x1b]11;rgb:fdfd/f6f6/e3e3\x1b\\" + ATTRIBUTES, True),  # a cream background
        (b"\x1b]11;rgb:2828/2c2c/3434\x07" + ATTRIBUTES, False),  # a dark grey one
    ],
)
def test_a_terminal_on_a_pty_is_asked_and_its_answer_read(answer: bytes, light: bool) -> None:
    main, side = os.openpty()
    try:
        os.write(main, answer)  # the terminal's answer, waiting to be read
        rgb = ask(side, side, wait=PATIENCE)  # it returns as soon as the attributes are read
        assert rgb is not None and (background.luminance(rgb) > 0.5) is light
        assert sent(main).endswith(background.QUERY)  # what the terminal was asked
    finally:
        os.close(main)
        os.close(side)


def test_a_terminal_that_only_answers_the_attributes_says_nothing() -> None:
    main, side = os.openpty()
    try:
        os.write(main, ATTRIBUTES)
        assert ask(side, side, wait=PATIENCE) is None
    finally:
        os.close(main)
        os.close(side)


def test_without_an_answer_colorfgbg_decides_else_dark(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(background, "terminal_background", lambda: None)
    assert is_light({"COLORFGBG": "0;15"}) and is_light({"COLORFGBG": "0;default;7"})
    assert not is_light({"COLORFGBG": "15;0"}) and not is_light({})
    monkeypatch.setattr(background, "terminal_background", lambda: (1.0, 1.0, 0.9))
    assert is_light({"COLORFGBG": "15;0"})  # the terminal's own answer comes first
