"""Ctrl-C in a Derby game while its live odds are worked out (their kernel compiled for the first
time, on a fresh numba cache): the record is saved, one line says how to resume, exit code 130,
no traceback."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pexpect  # type: ignore[import-untyped]

from horserace.core.record import read_record
from horserace.engine import replay
from horserace.families.presets import get_preset

HORSERACE = str(Path(sys.executable).with_name("horserace"))
PROMPT = re.compile(r"\r?\n([^\r\n]*what came up\?[^\r\n]*): ")
HORSE = re.compile(r"odds die of P\d \(horse (\d+)\)")


def test_ctrl_c_while_a_plain_derby_compiles_its_odds(tmp_path: Path) -> None:
    """The dice of a real table typed in; right after the first turn's last die the board of
    the second turn needs odds from the kernel, compiled now: Ctrl-C comes then."""
    record = tmp_path / "derby.jsonl"
    env = {
        **os.environ,
        "NO_COLOR": "1",
        "COLUMNS": "100",
        "TERM": "xterm",
        "XDG_STATE_HOME": str(tmp_path),
        "NUMBA_CACHE_DIR": str(tmp_path / "numba"),
    }
    args = ["play", "derby", "--companion", "--plain", "--players", "2", "--races", "1"]
    args += ["--seed", "5", "--record", str(record)]
    child = pexpect.spawn(HORSERACE, args, env=env, encoding="utf-8", timeout=120)
    runners: list[str] = []
    dice = 0
    shown = ""
    try:
        for _ in range(40):
            child.expect(PROMPT)
            asked = child.match.group(1)
            shown += (child.before or "") + child.after
            runners += HORSE.findall(asked)
            if "mud die" in asked:
                child.sendline("shoe")
            elif "accelerator die" in asked or "odds die" in asked:
                child.sendline("1")
            else:  # the turn's dice name the horses that run, in turn
                child.sendline(runners[dice % len(runners)])
                dice += 1
                if "turn 1, zone die 4" in asked:
                    break
        child.expect(r"moves: [^\r\n]*\r?\n")  # the turn is played: its odds are worked out now
        child.sendintr()
        child.expect(pexpect.EOF)
        shown += child.before or ""
    finally:
        child.close(force=True)
    assert child.exitstatus == 130, shown[-3000:]
    assert "Traceback" not in shown
    last = shown.strip().splitlines()[-1]
    assert last.startswith("interrupted after") and f"--resume {record}" in last, shown[-3000:]
    assert replay(read_record(record), get_preset).ok
