"""Ctrl-C during a simulation's chunk reaches the main thread at once, even when the chunk's
code swallows it (as a compiled kernel's first compile does): the chunk runs on a helper
thread, and the run ends with the chunks finished before it. With workers, the run ends without
waiting for the chunks under way in them; so does `simulate --workers 2` stopped while the
workers compile the kernels."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path

import pytest

from horserace.core.chunks import Plan, Span
from horserace.drivers.simulate.runner import aside, ctrl_c_held, partial_on_interrupt, run

HORSERACE = Path(sys.executable).parent / "horserace"
HELD = 30  # seconds a held chunk keeps its worker (far longer than the test takes)


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


@pytest.mark.usefixtures("ctrl_c_raises")
def test_ctrl_c_while_the_workers_start_takes_effect_once_they_have() -> None:
    """Held, not lost: a press while the pool forks its workers ends the run right after."""
    went_on = []
    with pytest.raises(KeyboardInterrupt), ctrl_c_held():
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)  # the handler has run by now: the press is held
        went_on.append(True)
    assert went_on == [True]
    with ctrl_c_held():  # no press, nothing raised
        pass


def test_a_chunk_on_its_helper_thread_gives_its_result_and_its_error() -> None:
    assert aside(lambda span: span.stop - span.start, Span(3, 10)) == 7

    def failing(span: Span) -> int:
        raise ValueError(f"bad span {span.start}")

    with pytest.raises(ValueError, match="bad span 3"):
        aside(failing, Span(3, 10))


def held_from_10(marker: Path, span: Span) -> list[int]:
    """Chunks from index 10 on hold their worker a long while (as a first compile does), then
    leave a mark: a run that waits for its workers' chunks finds it."""
    if span.start >= 10:
        time.sleep(HELD)
        marker.touch()
    return list(range(span.start, span.stop))


@pytest.mark.usefixtures("ctrl_c_raises")
def test_ctrl_c_with_workers_ends_the_run_without_waiting_for_their_chunks(
    tmp_path: Path,
) -> None:
    marker = tmp_path / "a held chunk finished"
    ten_done = threading.Event()

    def press_ctrl_c() -> None:
        ten_done.wait(60)
        os.kill(os.getpid(), signal.SIGINT)

    def progress(done: int) -> None:
        if done >= 10:
            ten_done.set()

    presser = threading.Thread(target=press_ctrl_c)
    presser.start()
    try:
        with partial_on_interrupt():
            plan = Plan(partial(held_from_10, marker), lambda a, b: a + b)
            done = run(plan, 40, 5, workers=2, progress=progress)
    finally:
        ten_done.set()
        presser.join()
    assert done == list(range(10))  # the two chunks before Ctrl-C
    assert not marker.exists()  # the held chunks were stopped, not waited for


def test_simulate_with_workers_stopped_while_they_compile_the_kernels(tmp_path: Path) -> None:
    """A fresh kernel cache: the workers compile the kernels when Ctrl-C comes. The command
    ends with the one line and exit code 130, without waiting for them."""
    cache = tmp_path / "numba"
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    command: list[str | Path] = [
        HORSERACE,
        "simulate",
        "classic",
        "--workers",
        "2",
        "-n",
        "100000",
        "--seed",
        "1",
    ]
    simulation = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    for _ in range(600):  # the workers start compiling (their cache folder appears)
        if cache.exists() or simulation.poll() is not None:
            break
        time.sleep(0.1)
    simulation.send_signal(signal.SIGINT)
    out, err = simulation.communicate(timeout=120)
    assert simulation.returncode == 130, err
    assert b"Traceback" not in err
    assert err.decode().strip().splitlines()[-1] == "interrupted before any figures were in"
    assert out == b""
