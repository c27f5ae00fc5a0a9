"""Work that the main thread waits for on a thread of its own, so that Ctrl-C still reaches it.

A kernel's first compile, run on the main thread, swallows Ctrl-C (numba's compiler turns it into
a broken compile, or the run goes on), and a plain join can wait forever when the signal lands
on another thread. Waiting in short timed joins instead wakes the main thread at once."""

from __future__ import annotations

import contextvars
import threading
from collections.abc import Callable
from typing import TypeVar

A = TypeVar("A")
T = TypeVar("T")

WAKE_SECONDS = 0.1  # how often a waiting main thread looks for a Ctrl-C

__all__ = ["WAKE_SECONDS", "aside"]


def aside(work: Callable[[A], T], argument: A) -> T:
    """`work(argument)` on a helper thread while the main thread waits for it in timed joins;
    its result or its error comes back here. On Ctrl-C the work is left unfinished (its daemon
    thread ends with the process). Off the main thread it simply runs."""
    if threading.current_thread() is not threading.main_thread():
        return work(argument)
    done: list[T] = []
    failed: list[BaseException] = []
    context = contextvars.copy_context()  # the work sees what the caller set (ContextVars)

    def run() -> None:
        try:
            done.append(context.run(work, argument))
        except BaseException as error:  # handed to the main thread, raised there
            failed.append(error)

    helper = threading.Thread(target=run, name="horserace-aside", daemon=True)
    helper.start()
    while helper.is_alive():  # Ctrl-C raises KeyboardInterrupt here, in the main thread
        helper.join(WAKE_SECONDS)
    if failed:
        raise failed[0]
    return done[0]
