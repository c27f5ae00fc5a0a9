"""A game stopped before its end: Ctrl-C (or the input closing) saves the record and says how to
resume; `--resume` goes on exactly where the record stops; companion mode's `undo` is a line of
the record of its own, and the record replays to the same game."""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from typer.testing import CliRunner

import horserace
from horserace.core.actions import Action
from horserace.core.record import GameRecord, read_record
from horserace.drivers.cli.app import app
from horserace.engine import UNDO, replay, standing_steps
from horserace.families.presets import get_preset

runner = CliRunner()
SHORT_BOARD = Path(horserace.__file__).parent / "families" / "board" / "boards" / "short-board.toml"
ROOT = Path(__file__).resolve().parents[2]
HORSERACE = Path(sys.executable).parent / "horserace"
BASIC = ("basic", "--seed", "5", "--players", "3", "--races", "4", "--human", "2")


def invoke(state: Path, *args: str, stdin: str | None = None) -> tuple[int, str, str]:
    env = {"XDG_STATE_HOME": str(state), "FORCE_COLOR": None, "COLUMNS": None, "LINES": None}
    result = runner.invoke(app, ["play", *args], input=stdin, env=env)
    return result.exit_code, result.stdout, result.stderr


def test_interrupted_game_resumes_to_the_game_never_stopped(tmp_path: Path) -> None:
    whole = tmp_path / "whole.jsonl"
    code, out, _ = invoke(tmp_path, *BASIC, "--bots", "value,random", "--record", str(whole),
                          stdin="done\n" * 2000)  # fmt: skip
    assert code == 0, out
    code, out, _ = invoke(tmp_path, *BASIC, "--bots", "value,random", stdin="done\n" * 2)
    assert code == 2  # the answers piped in ran out: a mistake of the input's, said in one line
    saved = list((tmp_path / "horserace").glob("basic-*.jsonl"))
    assert len(saved) == 1  # no --record: the record goes to the state directory
    last = out.strip().splitlines()[-1]
    assert last.startswith("error: the answers piped in ran out after ")
    assert last.endswith(f"; resume with: horserace play basic --resume {saved[0]}")
    stopped = read_record(saved[0])
    assert stopped.result is None and stopped.seating is not None
    assert stopped.seating["humans"] == [2]
    assert stopped.seating["bots"] == ["value", "random", "value"]

    code, out, _ = invoke(tmp_path, "basic", "--resume", str(saved[0]), stdin="done\n" * 2000)
    assert code == 0, out
    assert f"resumed from {saved[0]} after {len(stopped.steps)} steps" in out
    assert "Round 1:" not in out  # the first deal is not announced again
    # the same dice, the same bots' choices, the same record line for line
    assert saved[0].read_text(encoding="utf-8") == whole.read_text(encoding="utf-8")


def test_a_record_that_cannot_be_resumed_is_one_line(tmp_path: Path) -> None:
    finished = tmp_path / "done.jsonl"
    assert invoke(tmp_path, "classic", "--seed", "1", "--rounds", "1", "--record",
                  str(finished))[0] == 0  # fmt: skip
    damaged = tmp_path / "damaged.jsonl"
    damaged.write_bytes(b"\xff\xfe not a record")
    cases = [
        (("classic", "--resume", str(finished)), "holds a finished game; see it with"),
        (("advanced", "--resume", str(finished)), "is a game of classic; resume it with:"),
        (("classic", "--resume", str(finished), "--rounds", "3"), "leave out --rounds"),
        (("classic", "--resume", str(damaged)), "is not UTF-8 text"),
        (("classic", "--resume", str(tmp_path / "none.jsonl")), "No such file"),
    ]
    for args, message in cases:
        code, out, err = invoke(tmp_path, *args)
        assert code == 2, (args, out, err)
        assert err.startswith("error: ") and message in err, err
        assert len(err.strip().splitlines()) == 1


def test_undo_is_recorded_and_replays_to_the_game_typed_right(tmp_path: Path) -> None:
    options = ("--rounds", "1", "--players", "2", "--board", str(SHORT_BOARD))
    seeded = tmp_path / "seeded.jsonl"
    assert invoke(tmp_path, "classic", "--seed", "9", *options, "--record", str(seeded))[0] == 0
    truth = [s.action for s in read_record(seeded).steps if s.actor == "chance"]
    # typed with two mistakes, each undone: a wrong first card, and a wrong first roll
    first_roll = next(i for i, text in enumerate(truth) if "+" in text)
    wrong_roll = "1+1" if truth[first_roll] != "1+1" else "1+2"
    typed = [
        "undo",
        "deal 12",
        "undo",
        *truth[:first_roll],
        wrong_roll,
        "undo",
        *truth[first_roll:],
    ]
    path = tmp_path / "typed.jsonl"
    code, out, _ = invoke(tmp_path, "classic", *options, "--companion", "--record", str(path),
                          stdin="\n".join(typed) + "\n")  # fmt: skip
    assert code == 0, out
    assert "nothing typed in yet: nothing to undo" in out
    assert "undone: deal Q; type it again" in out
    record = read_record(path)
    undos = [step for step in record.steps if step.action == UNDO]
    assert [u.events[0]["actions"][0] for u in undos] == ["deal Q", wrong_roll]
    # what stands once the undo lines withdraw their steps is the game typed right
    standing = [step.action for step in standing_steps(list(record.steps))]
    assert standing == [step.action for step in read_record(seeded).steps]
    assert len(record.steps) > len(standing) + 2
    report = replay(record, get_preset)
    assert report.ok, report.problems
    assert report.game is not None and report.game.over
    assert record.result == read_record(seeded).result


def test_a_typed_game_resumes_and_undo_reaches_back_before_the_stop(tmp_path: Path) -> None:
    options = ("--rounds", "1", "--players", "2", "--board", str(SHORT_BOARD))
    seeded = tmp_path / "seeded.jsonl"
    assert invoke(tmp_path, "classic", "--seed", "9", *options, "--record", str(seeded))[0] == 0
    truth = [s.action for s in read_record(seeded).steps if s.actor == "chance"]
    wrong = "deal 2" if truth[5] != "deal 2" else "deal 3"
    path = tmp_path / "typed.jsonl"
    code, out, _ = invoke(tmp_path, "classic", *options, "--companion", "--record", str(path),
                        stdin="\n".join([*truth[:5], wrong]) + "\n")  # fmt: skip
    assert code == 2  # the outcomes piped in ran out: said as the answers' running out is
    assert out.strip().splitlines()[-1].startswith("error: the answers piped in ran out after ")
    rest = ["undo", *truth[5:]]
    code, out, _ = invoke(tmp_path, "classic", "--resume", str(path), stdin="\n".join(rest) + "\n")
    assert code == 0, out
    record = read_record(path)
    assert record.result == read_record(seeded).result
    assert replay(record, get_preset).ok


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_ctrl_c_at_a_prompt_saves_the_record_without_a_traceback(
    tmp_path: Path, stop: signal.Signals
) -> None:
    """Ctrl-C, and as well a plain kill or the terminal closing."""
    path = tmp_path / "game.jsonl"
    game = subprocess.Popen(
        [HORSERACE, "play", "advanced", "--seed", "3", "--players", "4", "--human", "1",
         "--record", str(path)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    assert game.stdout is not None
    shown = _read_until_prompt(game.stdout.fileno())  # the game asks the person at seat 1
    assert game.poll() is None, shown.decode(errors="replace")[-2000:]
    game.send_signal(stop)
    out, err = game.communicate(timeout=60)
    assert game.returncode == 130
    assert b"Traceback" not in err
    last = out.decode().strip().splitlines()[-1]
    assert last.startswith("interrupted after") and f"--resume {path}" in last
    assert replay(read_record(path), get_preset).ok


def test_ctrl_c_in_the_demo_while_bots_move(tmp_path: Path) -> None:
    """`python3 tasks.py play` on a terminal: Ctrl-C reaches both processes; the game saves its
    record and says how to resume, and neither prints a traceback."""
    parent, child = pty.openpty()
    env = {**os.environ, "XDG_STATE_HOME": str(tmp_path), "COLUMNS": "100", "LINES": "40"}
    demo = subprocess.Popen(
        [sys.executable, "tasks.py", "play", "--speed", "0.05"], cwd=ROOT, env=env,
        stdin=child, stdout=child, stderr=child, start_new_session=True,
    )  # fmt: skip
    os.close(child)
    shown = _read_until(parent, seconds=60, enough=30_000)  # bots roll on a live board
    assert demo.poll() is None, shown.decode(errors="replace")[-2000:]
    os.killpg(demo.pid, signal.SIGINT)
    code = demo.wait(timeout=60)
    shown += _read_until(parent, seconds=2)
    os.close(parent)
    text = shown.decode(errors="replace")
    assert code == 130, text[-2000:]
    assert "Traceback" not in text
    saved = list((tmp_path / "horserace").glob("classic-*.jsonl"))
    assert len(saved) == 1
    assert f"--resume {saved[0]}" in text
    assert replay(read_record(saved[0]), get_preset).ok


def _read_until(fd: int, seconds: float, enough: int = 0) -> bytes:
    """What a terminal shows for `seconds` (or until `enough` bytes came, or the program ended)."""
    seen = b""
    end = time.monotonic() + seconds
    while time.monotonic() < end and not (enough and len(seen) >= enough):
        ready, _, _ = select.select([fd], [], [], 0.1)
        if not ready:
            continue
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    return seen


def _read_until_prompt(fd: int, seconds: float = 60) -> bytes:
    """What a program prints until it asks the person (its output ends with the prompt's
    "> "), or `seconds` are up, or it ends."""
    seen = b""
    end = time.monotonic() + seconds
    while time.monotonic() < end and not seen.endswith(b"> "):
        ready, _, _ = select.select([fd], [], [], 0.1)
        if not ready:
            continue
        chunk = os.read(fd, 65536)
        if not chunk:
            break
        seen += chunk
    return seen


def test_a_fault_in_the_program_still_keeps_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from horserace.families.random_bot import RandomBot

    chosen = RandomBot.choose
    calls = 0

    def failing(self: RandomBot, view: object, legal: Sequence[Action]) -> Action:
        nonlocal calls
        calls += 1
        if calls == 40:
            raise RuntimeError("a bot's fault")
        return chosen(self, view, legal)

    monkeypatch.setattr(RandomBot, "choose", failing)
    path = tmp_path / "game.jsonl"
    result = runner.invoke(app, ["play", "classic", "--seed", "1", "--record", str(path)])
    assert isinstance(result.exception, RuntimeError)  # a fault still shows as one
    assert "stopped by an error after " in result.stdout
    assert f"resume with: horserace play classic --resume {path}" in result.stdout
    record = read_record(path)
    assert sum(1 for step in record.steps if step.actor != "chance") == 39
    assert replay(record, get_preset).ok


def test_a_record_is_written_whole_or_not_at_all(tmp_path: Path) -> None:
    path = tmp_path / "game.jsonl"
    path.write_text("the game so far\n", encoding="utf-8")
    record = read_record_of_a_short_game(tmp_path)

    class CutShort(GameRecord):
        def lines(self) -> Iterator[str]:
            yield from list(super().lines())[:2]
            raise OSError(28, "No space left on device")

    cut = CutShort(record.preset, record.config, record.seed, record.chance, record.steps)
    with pytest.raises(OSError):
        cut.write(path)
    assert path.read_text(encoding="utf-8") == "the game so far\n"
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".partial")] == []
    record.write(path)
    assert read_record(path) == record


def read_record_of_a_short_game(folder: Path) -> GameRecord:
    path = folder / "short.jsonl"
    code, out, _ = invoke(folder, "classic", "--seed", "2", "--rounds", "1", "--players", "2",
                          "--board", str(SHORT_BOARD), "--record", str(path))  # fmt: skip
    assert code == 0, out
    return read_record(path)
