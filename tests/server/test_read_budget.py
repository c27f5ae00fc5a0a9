"""One address's reads of the API are budgeted: a request costs one token and each 256 KiB of
its answer one more, so one client asking in a loop for a long game's record is slowed to what
the budget allows, and is answered 429 late, while people's pages, `/healthz` and changes
(their own bucket) go on."""

from __future__ import annotations

import time
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route
from starlette.testclient import TestClient

from horserace.drivers.server.limits import AddressBook, Limits, TokenBucket
from horserace.drivers.server.read_budget import READ_BYTES_PER_TOKEN, ReadBudget
from tests.server.support import serving


def sized(request: Request) -> Response:
    """An answer of as many bytes as the path says."""
    return PlainTextResponse("x" * int(request.path_params["size"]))


def budgeted(limits: Limits) -> TestClient:
    app = ReadBudget(Starlette(routes=[Route("/api/bytes/{size}", sized)]), AddressBook(limits))
    return TestClient(app)


def test_each_read_costs_one_and_each_256_kib_of_its_answer_one_more() -> None:
    limits = Limits(reads_per_second=0.001, read_burst=10, refusal_seconds=0.0)
    with budgeted(limits) as client:
        big = client.get(f"/api/bytes/{4 * READ_BYTES_PER_TOKEN}")  # 1 + 4 of the 10
        assert big.status_code == 200 and len(big.content) == 4 * READ_BYTES_PER_TOKEN
        statuses = [client.get("/api/bytes/10").status_code for _ in range(6)]
        assert statuses == [200] * 5 + [429]
        refused = client.get("/api/bytes/10")
        assert refused.status_code == 429 and "reads" in refused.json()["detail"]
        assert refused.headers["retry-after"] == "1"


def test_a_record_bigger_than_the_whole_burst_is_sent_and_paid_off_after() -> None:
    """The size of an answer is known once it is read: it is sent, and the debt it leaves
    refuses what comes next until time has paid it off."""
    limits = Limits(reads_per_second=0.001, read_burst=3, refusal_seconds=0.0)
    with budgeted(limits) as client:
        assert client.get(f"/api/bytes/{8 * READ_BYTES_PER_TOKEN}").status_code == 200
        assert client.get("/api/bytes/1").status_code == 429


def test_a_bucket_in_debt_allows_again_once_time_pays_it_off() -> None:
    bucket = TokenBucket(rate=1000.0, burst=2.0)
    bucket.charge(12.0)  # 10 in debt: 10 ms at this rate
    assert not bucket.allow()
    deadline = time.monotonic() + 5
    while not bucket.allow():
        assert time.monotonic() < deadline, "the debt was never paid off"
    assert bucket.tokens is not None and bucket.tokens <= 1.0


def test_the_server_refuses_reads_past_the_budget_late_and_nothing_else(tmp_path: Path) -> None:
    limits = Limits(reads_per_second=0.001, read_burst=4, refusal_seconds=0.2)
    with serving(tmp_path / "t.db", limits=limits) as client:
        assert [client.get("/api/tables").status_code for _ in range(4)] == [200] * 4
        started = time.monotonic()
        refused = client.get("/api/presets")
        assert refused.status_code == 429
        assert time.monotonic() - started >= limits.refusal_seconds  # answered late
        assert client.get("/healthz").status_code == 200  # not an API read
        assert client.get("/").status_code == 200  # the lobby's page
        body = {"preset": "classic", "options": {"players": 2}}
        assert client.post("/api/tables", json=body).status_code == 201  # a change: its own
