"""One compile of each kernel for the whole suite, however many workers run it.

numba compiles a kernel on its first call and writes it to its cache; on a clean clone both
workers of `pytest -n 2` reach the same kernels at about the same time and each compiles them
(tens of seconds of CPU a kernel family). Here a worker compiles a function only under a file
lock kept beside that function's cache: a worker that wants a function another is compiling
waits, then numba finds the other's result in the cache and loads it.

The lock is taken inside numba's own (per process) compiler lock, so threads of one process
cannot hold the file lock while waiting for numba's; and a kernel's callees are compiled inside
its compile, taking their locks after its own, in the order of the call graph, so two workers
never wait for each other.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

_held: set[str] = set()  # the lock files this process holds (a compile inside a compile)


@contextmanager
def _file_lock(path: str) -> Iterator[None]:
    import fcntl

    if path in _held:
        yield
        return
    with open(path, "a+b") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        _held.add(path)
        try:
            yield
        finally:
            _held.discard(path)
            fcntl.flock(handle, fcntl.LOCK_UN)


def _lock_path(dispatcher: Any) -> str | None:
    """The lock file beside the dispatcher's cache, or None when it keeps no cache."""
    cache = getattr(dispatcher, "_cache", None)
    path = getattr(cache, "cache_path", None)
    impl = getattr(cache, "_impl", None)
    if path is None or impl is None:
        return None
    os.makedirs(path, exist_ok=True)
    return os.path.join(path, f"{impl.filename_base}.lock")


def compile_once() -> None:
    """Make every numba dispatcher of this process compile under its cache's file lock."""
    try:
        import fcntl  # noqa: F401 - the locks need it (POSIX)

        from numba.core import sigutils
        from numba.core.compiler_lock import global_compiler_lock
        from numba.core.dispatcher import Dispatcher
    except ImportError:
        return
    if getattr(Dispatcher.compile, "compiles_once", False):
        return
    compile_alone: Callable[[Any, Any], Any] = Dispatcher.compile
    normalize: Callable[[Any], tuple[Any, Any]] = sigutils.normalize_signature

    def compile(self: Any, sig: Any) -> Any:
        with global_compiler_lock:
            args, _ = normalize(sig)
            path = None if tuple(args) in self.overloads else _lock_path(self)
            if path is None:
                return compile_alone(self, sig)
            with _file_lock(path):
                return compile_alone(self, sig)

    compile.compiles_once = True  # type: ignore[attr-defined]
    Dispatcher.compile = compile  # type: ignore[method-assign]
