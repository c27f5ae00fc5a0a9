"""Present so pytest puts the project root on sys.path: test files import `tests.helpers`.

A shell that starts a job in the background (`cmd &`) starts it with Ctrl-C ignored, and a
child inherits that: Python then never raises KeyboardInterrupt, so the tests that press Ctrl-C
in a game, a simulation or a sweep would wait for runs that never stop. The suite puts Ctrl-C
back to its default, in this process and so in every child it starts. The fixtures tests of
several folders share are here too."""

import os
import signal
from pathlib import Path

import pytest

from tests.compile_once import compile_once

if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_configure(config: pytest.Config) -> None:
    """A worker of `pytest -n 2` compiles a kernel only when no other worker is compiling it
    (tests/compile_once.py): on a clean clone each kernel is compiled once, not once a worker.

    And the workers are handed the tests one at a time: by default each first gets an eighth of
    the suite in one block, so that one worker took every kernel test (the first block of
    tests/kernels tests/unit ...) and ran for a third longer than the other, which sat idle at
    the end. xdist's `loadgroup` hands out one test at a time (a worker holds three at most), in
    the order collected, except that a file whose tests share a module's fixture (a browser, a
    server, a cluster) goes to one worker whole (`shared_by_the_file`): handed out test by test,
    such a file started its server or browser on both workers. An explicit --dist is kept."""
    config.addinivalue_line("markers", "xdist_group(name): run by one worker (pytest-xdist)")
    if os.environ.get("PYTEST_XDIST_WORKER"):
        compile_once()
        if not _given(config, "--dist"):  # a worker reads its --dist from the command line
            config.option.loadgroup = True  # so it names each test by its group, if any
    elif getattr(config.option, "dist", "no") == "load" and not _given(config, "--dist"):
        config.option.dist = "loadgroup"
        config.option.loadscopereorder = False  # RUN_ORDER's order, not the largest group first


def _given(config: pytest.Config, option: str) -> bool:
    return any(str(given).startswith(option) for given in config.invocation_params.args)


@pytest.fixture
def quick_derby_odds(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Derby's live odds worked out from a few thousand races instead of millions, on a
    LiveOdds of the test's own (nothing it keeps reaches another test): for a test of a Derby
    table that reads no odds, where a terminal or a printed board would otherwise work out
    several positions' precise odds (seconds of CPU each) that nothing checks."""
    from horserace.families.derby import live_odds

    live = live_odds.LiveOdds()
    monkeypatch.setattr(live_odds, "PRECISE_SAMPLES", 10_000)
    monkeypatch.setattr(live_odds, "REFINED_SAMPLES", 20_000)
    monkeypatch.setattr(live_odds, "LIVE", live)


# The folders in the order the suite runs them: the ones whose tests take seconds apiece (a
# browser, a server, a terminal, a compiled kernel) first, the many quick ones last, so that the
# two workers of `pytest -n 2` finish together instead of one waiting for the other's last long
# test. A folder not named here runs after these, in the order collected.
RUN_ORDER = (
    "web",
    "server",
    "terminal",
    "kernels",
    "property",
    "conformance",
    "scenarios",
    "unit",
)


@pytest.hookimpl(tryfirst=True)  # before xdist's worker names each test by its group
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Sort the tests by folder (RUN_ORDER), keeping each file's tests together and in order."""
    tests = Path(__file__).resolve().parent

    def rank(item: pytest.Item) -> int:
        parts = item.path.relative_to(tests).parts
        folder = parts[0] if len(parts) > 1 else ""
        return RUN_ORDER.index(folder) if folder in RUN_ORDER else len(RUN_ORDER)

    items.sort(key=rank)
    for item in items:
        if shared_by_the_file(item):
            item.add_marker(pytest.mark.xdist_group(item.path.relative_to(tests).as_posix()))


def shared_by_the_file(item: pytest.Item) -> bool:
    """Whether the test takes a fixture made once per module (or class): the module's tests
    are best run by one process, which makes it once."""
    info = getattr(item, "_fixtureinfo", None)
    definitions = getattr(info, "name2fixturedefs", {})
    return any(defs[-1].scope in ("class", "module", "package") for defs in definitions.values())
