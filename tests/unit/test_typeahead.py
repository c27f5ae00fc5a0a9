"""Keys typed while the bots moved answer nothing: the plain presenter throws away what waits in
a terminal's input before it shows a prompt (and leaves a pipe alone)."""

from __future__ import annotations

import io
import os
import pty
import select
import sys

import pytest

from horserace.terminal.plain import discard_typeahead


def test_typed_ahead_keys_are_thrown_away_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    parent, child = pty.openpty()
    try:
        os.write(parent, b"y\n")  # a stray answer, typed before any question
        terminal = os.fdopen(child, "r", closefd=False)
        assert select.select([child], [], [], 2)[0]  # it waits to be read
        monkeypatch.setattr(sys, "stdin", terminal)
        discard_typeahead()
        assert not select.select([child], [], [], 0.2)[0]  # and now it is gone
        os.write(parent, b"n\n")
        assert select.select([child], [], [], 2)[0]
        assert os.read(child, 10) == b"n\n"  # what is typed after the prompt is read
    finally:
        os.close(parent)
        os.close(child)


def test_a_pipe_is_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    piped = io.StringIO("y\n")
    monkeypatch.setattr(sys, "stdin", piped)
    discard_typeahead()
    assert piped.read() == "y\n"
