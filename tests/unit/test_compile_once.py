"""The suite's workers compile a kernel once between them (tests/compile_once.py): a process
that reaches a function another is compiling waits for it, then loads its result from numba's
cache instead of compiling it again."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.compile_once import _file_lock, _lock_path, compile_once

ROOT = Path(__file__).resolve().parents[2]
KERNEL = """
from numba import njit


@njit(cache=True)
def add_one(x):
    return x + 1
"""
SECOND = """
import sys

sys.path[:0] = [sys.argv[1], sys.argv[2]]
from tests.compile_once import compile_once

compile_once()
import once_kernel

assert once_kernel.add_one(41) == 42
stats = once_kernel.add_one.stats
print(sum(stats.cache_misses.values()), sum(stats.cache_hits.values()))
"""


def waiting_on(path: str) -> bool:
    """Whether a process waits for the lock on `path` (/proc/locks lists blocked requests)."""
    inode = f":{os.stat(path).st_ino} "
    return any("->" in line and inode in line for line in Path("/proc/locks").open())


@pytest.mark.skipif(not Path("/proc/locks").exists(), reason="reads Linux's /proc/locks")
def test_a_second_process_waits_for_the_compile_and_loads_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "once_kernel.py").write_text(KERNEL)
    monkeypatch.syspath_prepend(str(tmp_path))
    compile_once()
    kernel = importlib.import_module("once_kernel")
    path = _lock_path(kernel.add_one)
    assert path is not None
    with _file_lock(path):  # this process compiles; the second must wait for it
        second = subprocess.Popen(
            [sys.executable, "-c", SECOND, str(tmp_path), str(ROOT)],
            stdout=subprocess.PIPE,
            text=True,
        )
        deadline = time.monotonic() + 120
        while not waiting_on(path):
            assert second.poll() is None, "the second process compiled without waiting"
            assert time.monotonic() < deadline, "the second process never asked for the lock"
            time.sleep(0.05)  # a poll's interval: /proc/locks gives no event
        assert kernel.add_one(1) == 2
    out, _ = second.communicate(timeout=120)
    assert second.returncode == 0
    assert out.split() == ["0", "1"]  # no compile of its own: one load from the cache
    assert sum(kernel.add_one.stats.cache_misses.values()) == 1
