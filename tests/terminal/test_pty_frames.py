"""The pty harness reads whole frames only, wherever a read of the pty happens to end: a frame
read in half would show the rows of the frame before under the new one's (a pass screen over
the last person's hand), and a test of hidden cards would fail on what no person ever saw."""

from __future__ import annotations

import pyte

from tests.terminal.pty import FRAME_BEGIN, FRAME_END, whole_frames

OLD = "\x1b[1;1Hyour hand (Bob): 3 A"
NEW = "\x1b[3;1Hpass to Ann\x1b[1;1H" + " " * 20  # the overlay first, then the hand goes
WRITTEN = FRAME_BEGIN + OLD + FRAME_END + FRAME_BEGIN + NEW + FRAME_END


def screens_seen(written: str, reads: list[int]) -> list[str]:
    """The screens the harness lets a test see when `written` arrives in reads of these sizes."""
    screen = pyte.Screen(30, 3)
    stream = pyte.Stream(screen)
    seen, pending, at = [], "", 0
    for size in [*reads, len(written)]:
        done, pending = whole_frames(pending + written[at : at + size])
        at += size
        if done:
            stream.feed(done)
            seen.append("\n".join(line.rstrip() for line in screen.display))
    return seen


def test_no_half_frame_is_read_wherever_a_read_ends() -> None:
    frame = len(FRAME_BEGIN + OLD + FRAME_END)
    for first in range(1, len(WRITTEN)):
        for second in range(1, len(WRITTEN) - first, 4):
            for seen in screens_seen(WRITTEN, [first, second]):
                assert not ("pass to Ann" in seen and "Bob" in seen), (first, second, seen)
    halves = [frame + cut for cut in range(1, len(FRAME_BEGIN))]  # the second mark cut in two
    assert all(screens_seen(WRITTEN, [cut, 4])[-1].endswith("pass to Ann") for cut in halves)


def test_plain_text_and_a_finished_frame_go_through_at_once() -> None:
    assert whole_frames("Ann keeps a card\n") == ("Ann keeps a card\n", "")
    assert whole_frames(FRAME_BEGIN + NEW + FRAME_END) == (FRAME_BEGIN + NEW + FRAME_END, "")
    assert whole_frames(FRAME_BEGIN + NEW) == ("", FRAME_BEGIN + NEW)
    assert whole_frames("news" + FRAME_BEGIN[:4]) == ("news", FRAME_BEGIN[:4])
