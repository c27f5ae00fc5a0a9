"""The suite's own hygiene: a test waits on an event, never on a sleep. A call that pauses for
a fixed time (time.sleep, asyncio.sleep, a Playwright page's wait_for_timeout, a Textual
pilot's pause with a delay) is a poll's interval -- inside a loop that checks what it waits
for -- or a zero-length yield to the event loop, or is listed in ALLOWED with the reason no
event can stand in for it. A new sleep anywhere else fails here."""

from __future__ import annotations

import ast
from collections import Counter
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent

STANDS_IN = "a piece of work that takes a while is what the test is about: the sleep is it"
NOTHING = "nothing must happen: the test gives it the time it would have taken to happen"
AT_REST = "a picture of a screen at rest: no event says that the last repaint is done"

# (file, the function holding the call, why): one entry per call
ALLOWED: list[tuple[str, str, str]] = [
    ("tests/unit/test_runner_interrupt.py", "held_from_10", STANDS_IN),
    ("tests/unit/test_simulate_worker_lost.py", "slow_squares", STANDS_IN),
    (
        "tests/unit/test_runner_interrupt.py",
        "test_ctrl_c_while_the_workers_start_takes_effect_once_they_have",
        NOTHING,  # the press, held, does not stop the start-up
    ),
    (
        "tests/terminal/test_table_app.py",
        "test_a_table_of_bots_plays_to_the_end_and_the_standings_wait_for_enter.scenario",
        NOTHING,
    ),
    (
        "tests/terminal/test_table_app.py",
        "test_a_race_result_waits_for_enter_when_a_person_plays.scenario",
        NOTHING,
    ),
    (
        "tests/terminal/test_table_app.py",
        "test_a_derby_race_result_stays_until_enter_and_in_the_log.scenario",
        NOTHING,
    ),
    (
        "tests/terminal/test_table_app.py",
        "test_a_race_result_stays_until_enter_where_only_bots_play.scenario",
        NOTHING,  # `n` must not close the result: it is given the time a close would take
    ),
    (
        "tests/web/test_table_play.py",
        "test_two_seats_one_browser_a_double_click_the_end_and_the_next_game",
        NOTHING,  # the second click's error
    ),
    (
        "tests/web/test_table_kinds.py",
        "test_a_companion_table_from_the_form_starts_enters_and_undoes",
        NOTHING,  # the undone entry coming back
    ),
    (
        "tests/server/test_server_scale.py",
        "test_watchers_coming_and_going_send_nobody_the_seat_list",
        "the server coalesces a table's news for a fixed time: it is sent once that has passed",
    ),
    ("tests/web/support.py", "snap", AT_REST),  # after a resize
]


def _is_sleep(call: ast.Call) -> bool:
    """time.sleep, asyncio.sleep or a `sleep` imported, page.wait_for_timeout, pilot.pause(t)
    (a pilot's pause() without a delay waits for the app's pending messages: an event)."""
    function = call.func
    if isinstance(function, ast.Name):
        return function.id == "sleep"
    if not isinstance(function, ast.Attribute):
        return False
    if function.attr in ("sleep", "wait_for_timeout"):
        return True
    owner = function.value
    pilot = isinstance(owner, ast.Name) and owner.id == "pilot"
    return function.attr == "pause" and pilot and bool(call.args or call.keywords)


def _zero(call: ast.Call) -> bool:
    """`sleep(0)`: a yield to the event loop, no time."""
    first = call.args[0] if call.args else None
    return isinstance(first, ast.Constant) and first.value == 0


def _polls(loop: ast.For | ast.AsyncFor | ast.While) -> bool:
    """A loop that checks what it waits for: a `while` on a condition, or a loop whose body
    tests something (if, assert) or leaves it (break, return)."""
    if isinstance(loop, ast.While) and not isinstance(loop.test, ast.Constant):
        return True
    checks = (ast.If, ast.Assert, ast.Break, ast.Return)
    return any(isinstance(node, checks) for stmt in loop.body for node in ast.walk(stmt))


def bare_sleeps(source: str) -> list[str]:
    """The dotted name of the function (or <module>) holding each sleep that is neither a
    poll's interval nor a zero-length yield, one entry per call."""
    found: list[str] = []
    loops = ast.For | ast.AsyncFor | ast.While

    def visit(node: ast.AST, names: tuple[str, ...], loop: ast.AST | None) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                visit(child, (*names, child.name), None)  # a loop around a def is not its poll
                continue
            sleeps = isinstance(child, ast.Call) and _is_sleep(child) and not _zero(child)
            if sleeps and not (isinstance(loop, loops) and _polls(loop)):
                found.append(".".join(names) or "<module>")
            visit(child, names, child if isinstance(child, loops) else loop)

    visit(ast.parse(source), (), None)
    return found


def test_no_test_sleeps_where_it_could_wait() -> None:
    found = Counter(
        (path.relative_to(ROOT).as_posix(), function)
        for path in sorted(TESTS.rglob("*.py"))
        for function in bare_sleeps(path.read_text(encoding="utf-8"))
    )
    allowed = Counter((path, function) for path, function, _ in ALLOWED)
    assert found - allowed == Counter(), "a sleep: wait for an event instead (or say why above)"
    assert allowed - found == Counter(), "in ALLOWED but no longer there: take it out"


def pilot_presses(source: str) -> int:
    """The calls of Textual's `pilot.press` in `source`."""
    return sum(
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "press"
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "pilot"
        for node in ast.walk(ast.parse(source))
    )


def test_the_full_screen_tests_type_without_waiting_for_an_idle_process() -> None:
    """Textual's `Pilot.press` waits after each key until the process is idle: 40 ms a key at
    least, up to two seconds while a game's or the odds' thread works on; the full-screen
    tests type with tests/terminal/pilot.py's `press`, and wait for what they need to see."""
    found = {
        path.relative_to(ROOT).as_posix(): count
        for path in sorted((TESTS / "terminal").glob("*.py"))
        if (count := pilot_presses(path.read_text(encoding="utf-8")))
    }
    assert found == {}, "type with tests.terminal.pilot.press(pilot, ...)"
    assert pilot_presses("async def f(pilot):\n    await pilot.press('a', 'enter')\n") == 1


POLLS_AND_SLEEPS = """
import asyncio, time
from time import sleep

def polls(process, pilot):
    while process.poll() is None:
        time.sleep(0.1)
    for _ in range(50):
        if ready():
            break
        sleep(0.1)
    for _ in range(50):
        try:
            return connect()
        except OSError:
            time.sleep(0.2)

async def yields(pilot, display):
    await asyncio.sleep(0)
    await pilot.pause()
    display.pause(10)

def sleeps(page):
    time.sleep(1)
    for _ in range(3):
        page.wait_for_timeout(300)
    while True:
        sleep(2)

async def pauses(pilot):
    async def inner():
        await pilot.pause(0.05)
    while not done():
        await inner()
    await asyncio.sleep(0.5)
    await pilot.pause(delay=0.1)
"""


def test_the_scan_tells_a_sleep_from_a_poll() -> None:
    assert bare_sleeps(POLLS_AND_SLEEPS) == [
        "sleeps",
        "sleeps",
        "sleeps",
        "pauses.inner",
        "pauses",
        "pauses",
    ]
