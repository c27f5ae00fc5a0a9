"""Ctrl-C during a simulation's chunk reaches the main thread at once, even when the chunk's
code swallows it (as a compiled kernel's first compile does): the chunk runs on a helper
thread, and the run ends with the chunks finished before it."""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator

import pytest

from horserace.core.chunks import Plan, Span
from horserace.simulate.runner import aside, partial_on_interrupt, run


@pytest.fixture
def ctrl_c_raises() -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals are handled by the main thread only")
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@pytest.mark.usefixtures("ctrl_c_raises")
def test_ctrl_c_in_a_chunk_that_swallows_it_ends_the_run_with_the_chunks_before() -> None:
    started, release = threading.Event(), threading.Event()
    swallowed: list[Span] = []

    def play(span: Span) -> list[int]:
        if span.start == 10:  # the second chunk: Ctrl-C comes while it runs
            started.set()
            try:
                release.wait(60)  # never forever: a missed interrupt fails the test instead
            except KeyboardInterrupt:  # what a first compile does with it
                swallowed.append(span)
        return list(range(span.start, span.stop))

    def press_ctrl_c() -> None:
        started.wait()
        os.kill(os.getpid(), signal.SIGINT)

    presser = threading.Thread(target=press_ctrl_c)
    presser.start()
    try:
        with partial_on_interrupt():
            result = run(Plan(play, lambda a, b: a + b), 30, 10)
    finally:
        release.set()
        presser.join()
    assert result == list(range(10)) and not swallowed


def test_a_chunk_on_its_helper_thread_gives_its_result_and_its_error() -> None:
    assert aside(lambda span: span.stop - span.start, Span(3, 10)) == 7

    def failing(span: Span) -> int:
        raise ValueError(f"bad span {span.start}")

    with pytest.raises(ValueError, match="bad span 3"):
        aside(failing, Span(3, 10))
