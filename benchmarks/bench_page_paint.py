"""First paint of the browser table's pages in Debian's Chromium, beside a plain page.

Run: `.venv/bin/python benchmarks/bench_page_paint.py [--runs 15]`.
It starts `horserace serve` on a free 127.0.0.1 port with a fresh SQLite file and one table of
bots, then loads each page `--runs` times in a fresh browser context (nothing cached) and reads
the browser's own `first-contentful-paint` entry. The baseline is a plain page of one heading
at the same origin, answered by the browser itself (no server work), so the ratio says what
the lobby and table pages add over the least a page can cost in this browser on this machine.
It also prints the bytes each page loads. It only prints: timings depend on the machine.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import Browser, Request, sync_playwright
from playwright.sync_api import Error as PlaywrightError

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.web.support import CHROMIUM, CHROMIUM_ARGS, api, serve  # noqa: E402

PLAIN = "/plain"
PLAIN_HTML = "<!doctype html><title>plain</title><h1>plain</h1>\n"


def body_size(request: Request) -> int:
    try:
        return int(request.sizes()["responseBodySize"])
    except PlaywrightError:  # finished as the context closed
        return 0


def paint_ms(browser: Browser, url: str) -> tuple[float, int]:
    """First contentful paint (ms after navigation start) and the bytes transferred."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.route("**" + PLAIN, lambda route: route.fulfill(body=PLAIN_HTML, content_type="text/html"))
    loaded: list[int] = []
    page.on("requestfinished", lambda request: loaded.append(body_size(request)))
    page.goto(url, wait_until="load")
    paint = page.evaluate(
        """() => new Promise((done) => {
            const seen = performance.getEntriesByName("first-contentful-paint");
            if (seen.length) return done(seen[0].startTime);
            new PerformanceObserver((list) => done(list.getEntries()[0].startTime))
                .observe({ type: "paint", buffered: true });
        })"""
    )
    context.close()
    return float(paint), sum(loaded)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory() as folder:
        database, log = Path(folder) / "t.db", Path(folder) / "server.log"
        with serve(database, log) as base, sync_playwright() as playwright:
            body = {"preset": "classic", "seats": ["random"] * 4, "options": {"players": 4}}
            table = api(base, "POST", "/api/tables", {**body, "pace": "natural"})["table"]["id"]
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            pages = {"plain page (baseline)": PLAIN, "lobby": "/", "table": f"/table/{table}"}
            for url in pages.values():  # warm the server and the disk once
                paint_ms(browser, base + url)
            results: dict[str, list[float]] = {name: [] for name in pages}
            weights: dict[str, int] = {}
            for _ in range(runs):  # interleaved, so a busy moment hits every page alike
                for name, url in pages.items():
                    paint, weight = paint_ms(browser, base + url)
                    results[name].append(paint)
                    weights[name] = weight
            browser.close()
    baseline = statistics.median(results["plain page (baseline)"])
    print(f"first contentful paint at 390x844, median of {runs} fresh loads")
    print(f"{'page':24} {'median ms':>10} {'max ms':>8} {'bytes':>8} {'ratio':>6}")
    for name, times in results.items():
        median = statistics.median(times)
        print(
            f"{name:24} {median:10.0f} {max(times):8.0f} {weights[name]:8,d}"
            f" {median / baseline:6.2f}"
        )


if __name__ == "__main__":
    main()
