"""`horserace play PRESET --plain` end to end in a terminal (a pty), one family at a time, with a
person at seat 1 who answers every prompt from the options it shows until the game ends."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pexpect  # type: ignore[import-untyped]
import pytest

HORSERACE = str(Path(sys.executable).with_name("horserace"))
PROMPT = re.compile(r"\r?\n([^\r\n]*) > ")
OPTION = re.compile(r"^ {2,4}([^\s:]+(?: [^\s:]+)*): ", re.M)
FIELD = re.compile(r"^ {2}\w+ (\d+)(?: to \d+)? \w+.*: type the number", re.M)
END = re.compile(r"Final standings")


def answers(screen: str) -> list[str]:
    """What a person could type at this prompt: the field's least number, then each key."""
    keys = [key for key in OPTION.findall(screen) if key != "<"]
    field = FIELD.search(screen)
    return ([field.group(1)] if field else []) + keys


def play_through(args: list[str], state: str, limit: int = 400) -> tuple[str, int]:
    """Run the game, answering each prompt with the first answer its screen offers (the next one
    after a rejection); the whole transcript and the number of prompts answered."""
    env = {
        **os.environ,
        "NO_COLOR": "1",
        "COLUMNS": "100",
        "TERM": "xterm",
        "XDG_STATE_HOME": state,
    }
    child = pexpect.spawn(HORSERACE, args, env=env, encoding="utf-8", timeout=60)
    transcript: list[str] = []
    asked = 0
    shown = ""
    tries = 0
    try:
        for _ in range(limit):
            found = child.expect([PROMPT, pexpect.EOF])
            transcript.append(child.before or "")
            if found == 1:
                break
            transcript.append(child.after)
            before = child.before or ""
            if "is not a choice here" in before or "allowed:" in before:
                tries += 1
            else:
                shown, tries = before, 0
            offered = answers(shown)
            assert offered, f"a prompt offered nothing to type:\n{before}"
            child.sendline(offered[min(tries, len(offered) - 1)])
            asked += 1
        else:
            tail = "".join(transcript)[-3000:]
            raise AssertionError(f"the game did not end within the prompts allowed:\n{tail}")
    finally:
        child.close(force=True)
    assert child.exitstatus == 0, "".join(transcript)[-3000:]
    return "".join(transcript), asked


ASKED = {  # a question each game must put to its person
    "advanced": "which card do you keep >",
    "husted": "your bet >",
    "perry": "trade? >",
    "basic": "your bet at the book >",
    "calcutta": "is for sale",
    "derby": "your wager on horse",
}


@pytest.mark.parametrize(
    "args",
    [
        ["advanced", "--players", "4", "--rounds", "1", "--seed", "5", "--human", "1"],
        [
            "classic",
            "--players",
            "4",
            "--rounds",
            "1",
            "--seed",
            "5",
            "--house",
            "husted",
            "--human",
            "2",
        ],
        [
            "classic",
            "--players",
            "3",
            "--rounds",
            "1",
            "--seed",
            "5",
            "--house",
            "perry",
            "--human",
            "1",
        ],
        ["basic", "--players", "3", "--races", "1", "--seed", "5", "--human", "2"],
        ["calcutta", "--players", "3", "--races", "1", "--seed", "5", "--human", "2"],
        [
            "derby",
            "--players",
            "3",
            "--races",
            "1",
            "--seed",
            "5",
            "--track",
            "sprint",
            "--human",
            "1",
        ],
    ],
    ids=list(ASKED),
)
def test_a_person_plays_a_whole_plain_game(
    args: list[str], tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    transcript, asked = play_through(["play", *args, "--plain", "--speed", "0"], str(tmp_path))
    assert asked >= 1
    assert ASKED[request.node.callspec.id] in transcript
    assert END.search(transcript)
    assert "\x1b[" not in transcript  # plain: no colour or cursor codes
