"""Whether the terminal's background is light: `--theme auto` asks the terminal itself (the
OSC 11 query that xterm, VTE terminals, Konsole, kitty, iTerm2, Alacritty, WezTerm, foot and
tmux answer), else reads COLORFGBG (rxvt, Konsole and others set it), else takes it for dark."""

from __future__ import annotations

import os
import re
import select
import sys
import time

# the background colour, then the device attributes: every terminal answers the second, so an
# answer to the first arrives before it or never
QUERY = b"\x1b]11;?\x1b\\\x1b[c"
BACKGROUND = re.compile(rb"\x1b\]11;rgba?:([0-9a-fA-F]{1,4})/([0-9a-fA-F]{1,4})/([0-9a-fA-F]{1,4})")
ATTRIBUTES = re.compile(rb"\x1b\[\?[0-9;]*c")
WAIT = 0.3  # seconds, for something that is no terminal at all and answers nothing
LIGHT_COLOURS = ("7", "15")  # COLORFGBG's background numbers that are light


def is_light(environ: dict[str, str] | None = None) -> bool:
    """The terminal's answer, else COLORFGBG ('fg;bg': 7 or 15 is light), else dark."""
    rgb = terminal_background()
    if rgb is not None:
        return luminance(rgb) > 0.5
    colours = (os.environ if environ is None else environ).get("COLORFGBG", "")
    return colours.split(";")[-1] in LIGHT_COLOURS


def luminance(rgb: tuple[float, float, float]) -> float:
    red, green, blue = rgb
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def background_of(answer: bytes) -> tuple[float, float, float] | None:
    """The colour in a terminal's answer ('ESC ] 11 ; rgb:RRRR/GGGG/BBBB'), channels 0..1."""
    found = BACKGROUND.search(answer)
    if found is None:
        return None
    red, green, blue = (int(digits, 16) / (16 ** len(digits) - 1) for digits in found.groups())
    return red, green, blue


def terminal_background() -> tuple[float, float, float] | None:
    """The background as the terminal on stdin and stdout says, None where it cannot say."""
    if os.name != "posix" or not (sys.stdin.isatty() and sys.stdout.isatty()):
        return None
    try:
        sys.stdout.flush()
        return ask(sys.stdin.fileno(), sys.stdout.fileno())
    except OSError:
        return None


def ask(read: int, write: int, wait: float = WAIT) -> tuple[float, float, float] | None:
    """Ask the terminal behind the file descriptors, its input taken out of line mode meanwhile
    (nothing echoed); whatever else it sent in the meantime is dropped with the answer."""
    import termios
    import tty

    try:
        saved = termios.tcgetattr(read)
    except termios.error:
        return None
    answer = b""
    try:
        tty.setcbreak(read, termios.TCSANOW)
        os.write(write, QUERY)
        until = time.monotonic() + wait
        while not ATTRIBUTES.search(answer):
            left = until - time.monotonic()
            if left <= 0 or not select.select([read], [], [], left)[0]:
                break
            chunk = os.read(read, 1024)
            if not chunk:
                break
            answer += chunk
    finally:
        termios.tcsetattr(read, termios.TCSAFLUSH, saved)
    return background_of(answer)
