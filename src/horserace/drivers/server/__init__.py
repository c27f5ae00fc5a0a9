"""The browser table: lobby, seats, WebSockets, storage and the static page (`horserace serve`).

Importing this package is cheap: the FastAPI app lives in `server.app` and is imported only by
whoever serves it, so `horserace verify` (which needs only `server.fair`) stays light.
"""
