"""`horserace` in a pty, read as a person reads it: a terminal emulator (pyte) keeps the screen
the program draws, one whole frame at a time. The emulator says it supports synchronized output,
so the full-screen table wraps each frame in begin/end marks and no half-drawn frame is read;
the colours are left out (the emulator is slow, and the tests read words)."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pexpect  # type: ignore[import-untyped]
import pyte

HORSERACE = str(Path(sys.executable).with_name("horserace"))
SYNC_QUERY = "\x1b[?2026$p"
SYNC_REPLY = "\x1b[?2026;2$y"  # the mode is known and reset: frames come wrapped in marks
FRAME_BEGIN, FRAME_END = "\x1b[?2026h", "\x1b[?2026l"
MARK = FRAME_BEGIN[:-1]  # what both marks begin with
STYLE = re.compile(r"\x1b\[[0-9;:]*m")  # colours: most of what is written, and no words


def whole_frames(text: str) -> tuple[str, str]:
    """`text` cut where its whole frames end: what may be drawn, and what waits for the next
    read (a frame begun and not ended, or a mark a read cut in two: the beginning of a frame
    cut after `\\x1b[?20` is no mark, and the frame's first half would pass for a whole one)."""
    begin, end = text.rfind(FRAME_BEGIN), text.rfind(FRAME_END)
    if begin > end:  # the last frame is still being drawn
        return text[:begin], text[begin:]
    cut = next(
        (size for size in range(len(FRAME_BEGIN) - 1, 0, -1) if text.endswith(MARK[:size])),
        0,
    )
    return text[: len(text) - cut], text[len(text) - cut :]


class Terminal:
    """One run of `horserace ARGS` on a `rows` x `columns` terminal."""

    def __init__(
        self, args: list[str], state: Path, rows: int = 40, columns: int = 100, timeout: float = 15
    ) -> None:
        env = {**os.environ, "TERM": "xterm-256color", "XDG_STATE_HOME": str(state)}
        env.pop("NO_COLOR", None)
        self.child = pexpect.spawn(
            HORSERACE,
            args,
            env=env,
            encoding="utf-8",
            timeout=timeout,
            dimensions=(rows, columns),
        )
        self.timeout = timeout
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.Stream(self.screen)
        self.output: list[str] = []  # everything the program wrote
        self._pending = ""  # a frame begun and not yet ended
        self.ended = False

    def frames(self, patience: float | None = None) -> Iterator[str]:
        """Each screen as it stands after a whole frame (or a chunk of printed lines), until the
        program ends; waits up to `patience` seconds (the timeout) for each."""
        while not self.ended:
            try:
                chunk = self.child.read_nonblocking(1 << 16, timeout=patience or self.timeout)
            except pexpect.EOF:
                self.ended = True
                chunk = ""
            except pexpect.TIMEOUT:
                raise AssertionError(f"nothing new on the screen:\n{self.text}") from None
            self.output.append(chunk)
            if SYNC_QUERY in chunk:
                self.child.send(SYNC_REPLY)
            done, self._pending = whole_frames(self._pending + chunk)
            if done or self.ended:
                self.stream.feed(STYLE.sub("", done + (self._pending if self.ended else "")))
                yield self.text

    @property
    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    @property
    def written(self) -> str:
        return "".join(self.output)

    def send(self, keys: str) -> None:
        self.child.send(keys)

    def close(self) -> int | None:
        """End the program if it still runs; its exit status."""
        self.child.close(force=True)
        return self.child.exitstatus  # type: ignore[no-any-return]
