"""Races that breathe, in two browsers (a phone and a desktop) at a table of the natural pace:
after the race both see the results (the race's end in words, each seat's money and what the
race changed, a countdown); the table waits while one person has tapped "Next race" and the
other has not, and goes on once both have."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser

from tests.web.support import (
    CHROMIUM,
    PHONE,
    joined,
    new_table,
    page_errors,
    play_until,
    seated,
    serious,
    snap,
    wait_text,
)

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium")
SHORT_RACES = {"players": 3, "races": 2, "course_length": 1, "need": 1, "ranks": 4}


def test_the_results_screen_waits_for_every_tap(browser: Browser, base: str) -> None:
    table, _ = new_table(
        base,
        {
            "preset": "basic",
            "options": SHORT_RACES,
            "seats": ["open", "open", "random"],
            "pace": "natural",
        },
    )
    tokens = joined(base, table, ["Ann", "Bo"])
    ann = seated(browser, base, table, 0, tokens[0], PHONE)
    bo = seated(browser, base, table, 1, tokens[1])
    results = [page.locator("#results") for page in (ann, bo)]
    play_until([ann, bo], lambda: all(r.is_visible() for r in results), seconds=18)
    for page in (ann, bo):
        wait_text(page, "#results-heading", "Race 1 is over")
        wait_text(page, "#results-wait", r"starts in \d+ s")
        rows = page.locator("#results-money tr")
        assert rows.count() == 3
        assert re.search(r"\d+ chips", rows.first.inner_text())
        assert page.locator("#results-lines li").count() >= 1
    serious(ann, "the results")
    snap(ann, "30-race-results")
    at = ann.locator("#version").text_content()

    ann.get_by_role("button", name="Next race").click()
    wait_text(ann, "#results-wait", "Waiting for Bo to tap Next race|Waiting for the others")
    wait_text(bo, "#results-wait", "^The next race starts in")  # Bo alone is awaited
    assert results[1].is_visible() and results[0].is_visible()
    assert bo.locator("#version").text_content() == at  # nothing moved meanwhile

    bo.get_by_role("button", name="Next race").click()
    for page in (ann, bo):
        page.locator("#results").wait_for(state="hidden")
        page.wait_for_function(f"document.getElementById('version').textContent !== '{at}'")
    assert page_errors(ann) == [] and page_errors(bo) == []
