"""Browser tests: the real pages in Debian's Chromium, driven by Playwright."""
