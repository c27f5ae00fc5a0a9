"""What an operator sees: /healthz, Prometheus metrics that count what happened, JSON log
lines without tokens, and no API description unless it is asked for."""

from __future__ import annotations

import io
import json
import logging
import subprocess
import sys
import traceback
from pathlib import Path

from horserace.core.errors import ConfigError
from horserace.drivers.server.app import create_app
from horserace.drivers.server.ops import COLLECTOR_THRESHOLDS, JsonLogFormatter, Metrics, event
from tests.server.support import (
    METRICS_TOKEN,
    Player,
    TestClient,
    create_table,
    join,
    metrics_text,
    serving,
)


def _metric(text: str, name: str) -> float:
    for line in text.splitlines():
        if line.startswith(name + " ") or (
            line.startswith(name + "{") and line.split(" ")[0] == name
        ):
            return float(line.rsplit(" ", 1)[1])
    raise AssertionError(f"{name} not in the metrics")


def test_health_metrics_and_no_openapi_by_default(tmp_path: Path) -> None:
    with serving(tmp_path / "t.db") as client:
        assert client.get("/healthz").json() == {"status": "ok", "tables": 0}
        assert client.get("/openapi.json").status_code == 404
        assert client.get("/docs").status_code == 404
        table, _, _ = create_table(client, "classic", ["open", "random"], {"rounds": 1})
        _, token = join(client, table, "Ann")
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            ann = Player(ws, 0)
            ann.hello(token=token)
            state = ann.settled(people=[0])
            ann.send_act(state["state"]["legal"][0], state["version"])
            assert ann.reply()["type"] == "ack"
            ann.send_act(state["state"]["legal"][0], state["version"])
            assert ann.reply()["code"] in ("stale", "not-your-turn")
            text = metrics_text(client)
            assert _metric(text, "horserace_connections") == 1
        text = metrics_text(client)
        assert _metric(text, 'horserace_tables{status="playing"}') == 1
        assert _metric(text, 'horserace_actions_total{by="person"}') == 1
        assert _metric(text, 'horserace_actions_total{by="bot"}') >= 1
        assert _metric(text, 'horserace_actions_total{by="chance"}') >= 1
        assert _metric(text, "horserace_action_latency_seconds_count") == 1
        assert _metric(text, "horserace_connections") == 0
        assert token not in text
        hub = client.app.state.hub  # type: ignore[attr-defined]

        def gone(*args: object) -> None:
            raise OSError("the database is away")

        hub.storage.page_tables = gone
        assert client.get("/healthz").status_code == 503
    app = create_app(f"sqlite:///{tmp_path / 'o.db'}", openapi=True)
    with TestClient(app) as client:
        assert "/api/tables" in client.get("/openapi.json").json()["paths"]
        assert client.get("/metrics").status_code == 404  # no token given: no metrics


def test_the_metrics_are_the_operators_alone(tmp_path: Path) -> None:
    with serving(tmp_path / "t.db") as client:
        for headers in (
            {},
            {"Authorization": "Bearer nope"},
            {"Authorization": METRICS_TOKEN},
            {"Authorization": f"Basic {METRICS_TOKEN}"},
            {"Authorization": f"Bearer {METRICS_TOKEN}x"},
        ):
            refused = client.get("/metrics", headers=headers)
            assert refused.status_code == 401, headers
            assert "horserace_" not in refused.text and METRICS_TOKEN not in refused.text
        assert "horserace_actions_total" in metrics_text(client)


def test_log_lines_are_json_and_never_hold_a_token() -> None:
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(JsonLogFormatter())
    logger = logging.getLogger("horserace.test-ops")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        event(logger, "table created", table="abc", token="SECRET", host_token="SECRET", seats=2)
    finally:
        logger.removeHandler(handler)
    line = json.loads(out.getvalue())
    assert line["message"] == "table created" and line["table"] == "abc" and line["seats"] == 2
    assert "SECRET" not in out.getvalue() and line["level"] == "info"


def test_a_traceback_logged_as_text_is_one_line_with_its_error_and_where() -> None:
    """A server that cannot start (a database sealed with another key) fails in starlette's
    start-up, which logs the exception's traceback as the text of its message: that is one
    line too, its error and where it was raised, as an exception logged with its info is."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(JsonLogFormatter())
    logger = logging.getLogger("uvicorn.error")
    logger.addHandler(handler)
    try:
        try:
            raise ConfigError("table T's seed was sealed with another key (--key-file)")
        except ConfigError:
            logger.error(traceback.format_exc())  # what a failed start-up logs
    finally:
        logger.removeHandler(handler)
    assert out.getvalue().count("\n") == 1 and "Traceback" not in out.getvalue()
    line = json.loads(out.getvalue())
    assert line["message"] == "exception" and line["level"] == "error"
    assert line["error"] == "ConfigError: table T's seed was sealed with another key (--key-file)"
    assert line["at"] == f"{__file__}:{_line_of('raise ConfigError')}"


def _line_of(words: str) -> int:
    """The number of the first line of this file that begins with `words`."""
    lines = Path(__file__).read_text().splitlines()
    return next(n for n, line in enumerate(lines, 1) if line.lstrip().startswith(words))


CHECK_COLLECTOR = """
import gc, sys, warnings
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient
from horserace.drivers.server.app import create_app
for database, long_lived in zip(sys.argv[1::2], sys.argv[2::2]):
    before = (gc.get_threshold(), gc.get_freeze_count())
    with TestClient(create_app(f"sqlite:///{database}", long_lived=long_lived == "1")):
        print(before, (gc.get_threshold(), gc.get_freeze_count() > 0))
"""


def test_a_long_lived_server_freezes_what_start_up_made_and_collects_less_often(
    tmp_path: Path,
) -> None:
    """`serve` (long_lived): a full collection no longer walks every table every few seconds;
    an app in a test process leaves the collector alone. One fresh process makes both apps,
    the test process's kind first: it leaves the collector as it found it (asserted), so the
    long-lived one starts from the same defaults as in a process of its own."""
    arguments = [str(tmp_path / "0.db"), "0", str(tmp_path / "1.db"), "1"]
    run = subprocess.run(
        [sys.executable, "-c", CHECK_COLLECTOR, *arguments],
        capture_output=True,
        text=True,
        check=True,
    )
    defaults = "((700, 10, 10), 0)"
    assert run.stdout.splitlines() == [
        f"{defaults} ((700, 10, 10), False)",
        f"{defaults} ({COLLECTOR_THRESHOLDS}, True)",
    ]


def test_one_worker_of_several_labels_every_sample_with_its_id() -> None:
    metrics = Metrics()
    metrics.actions.labels("bot").inc(3)
    metrics.latency.observe(0.004)
    text = metrics.exposition({"playing": 2}, 5, worker=77).decode()
    samples = [line for line in text.splitlines() if line and not line.startswith("#")]
    assert len(samples) > 20
    assert all('worker="77"' in line for line in samples), samples
    assert 'horserace_actions_total{by="bot",worker="77"} 3.0' in samples
    assert 'horserace_tables{status="playing",worker="77"} 2.0' in samples
    alone = metrics.exposition({"playing": 2}, 5).decode()
    assert "worker=" not in alone
