"""What an operator watches: Prometheus metrics (one registry per app, so tests and several
apps in one process never share counters) and structured logs, one JSON object a line, in
which no token can appear."""

from __future__ import annotations

import gc
import hmac
import json
import logging
import re
import sys
import threading
import time
import traceback
from collections.abc import Iterator
from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST as METRICS_CONTENT_TYPE
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.registry import Collector

from horserace.drivers.server.event_loop import TURN_BUCKETS, TurnTimes

__all__ = [
    "METRICS_CONTENT_TYPE",
    "JsonLogFormatter",
    "Metrics",
    "configure_logging",
    "metrics_allowed",
]

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
SECRET_WORDS = ("token", "authorization", "secret", "password", "key_file")


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        registry = self.registry
        self.tables = Gauge(
            "horserace_tables", "Tables held in memory, by status", ["status"], registry=registry
        )
        self.connections = Gauge(
            "horserace_connections", "Open table and lobby WebSockets", registry=registry
        )
        self.actions = Counter(
            "horserace_actions", "Actions applied, by who made them", ["by"], registry=registry
        )
        self.latency = Histogram(
            "horserace_action_latency_seconds",
            "From a person's act message to its ack being queued",
            buckets=LATENCY_BUCKETS,
            registry=registry,
        )
        self.messages = Gauge(
            "horserace_messages_sent",
            "Messages queued to table sockets by the tables held now",
            registry=registry,
        )
        self.refusals = Counter(
            "horserace_refusals",
            "A person's moves (act messages) refused, by the error's code",
            ["code"],
            registry=registry,
        )
        self.closed = Counter(
            "horserace_sockets_closed_by_limit",
            "Sockets the server closed, by close code",
            ["code"],
            registry=registry,
        )
        # the event loop's turns by the clock and in CPU time, once it runs (event_loop.py)
        self.turns: tuple[TurnTimes, TurnTimes] | None = None
        registry.register(_TurnCollector(self))
        registry.register(_GuardCollector())

    def exposition(
        self, table_counts: dict[str, int], messages: int, worker: int | None = None
    ) -> bytes:
        """The text Prometheus reads; one worker of several labels every sample with its
        id (`worker`), so the series of two workers are never taken for one."""
        self.messages.set(messages)
        for status in ("waiting", "playing", "over"):
            self.tables.labels(status).set(table_counts.get(status, 0))
        if worker is None:
            return generate_latest(self.registry)
        return generate_latest(_Labelled(self.registry, {"worker": str(worker)}))


class _Labelled(CollectorRegistry):
    """A registry's metrics with labels added to every sample."""

    def __init__(self, registry: CollectorRegistry, labels: dict[str, str]) -> None:
        super().__init__()
        self.inner = registry
        self.labels = labels

    def collect(self) -> Iterator[Metric]:
        for found in self.inner.collect():
            labelled = Metric(found.name, found.documentation, found.type, found.unit)
            labelled.samples = [
                sample._replace(labels={**sample.labels, **self.labels}) for sample in found.samples
            ]
            yield labelled


def metrics_allowed(token: str, authorization: str | None) -> bool:
    """Whether a request's `Authorization` header carries the metrics token (compared in
    constant time). The metrics are the operator's: what they count is nobody's at a table."""
    if not authorization or not authorization.startswith("Bearer "):
        return False
    given = authorization.removeprefix("Bearer ").strip()
    return hmac.compare_digest(given.encode(), token.encode())


class _TurnCollector(Collector):
    """The event loop's turns (the time between two looks at its sockets): a histogram, and
    the longest since the start. A long turn is a pause every connection waited through."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def collect(self) -> Iterator[Metric]:
        if self.metrics.turns is None:
            return
        clock, cpu = self.metrics.turns
        for name, turns, what in (
            ("horserace_loop_turn_seconds", clock, "by the clock"),
            ("horserace_loop_turn_cpu_seconds", cpu, "in the loop's own CPU time"),
        ):
            bounds = [repr(bound) for bound in TURN_BUCKETS] + ["+Inf"]
            cumulative, running = [], 0
            for bound, count in zip(bounds, turns.counts, strict=True):
                running += count
                cumulative.append((bound, float(running)))
            yield HistogramMetricFamily(
                name,
                f"Turns of the event loop (the time between two looks at its sockets), {what}",
                buckets=cumulative,
                sum_value=turns.seconds,
            )
            yield GaugeMetricFamily(
                name.replace("_seconds", "_longest_seconds"),
                f"The event loop's longest turn since the start, {what}",
                value=turns.longest,
            )


class _GuardCollector(Collector):
    """What the process's HTTP connection guard (guard.py) holds and has closed, once the
    server runs under one."""

    def collect(self) -> Iterator[Metric]:
        from horserace.drivers.server.guard import CLOSED, guard_counts

        counts = guard_counts()
        if not counts:
            return
        held = GaugeMetricFamily(
            "horserace_http_connections",
            "HTTP connections open (WebSockets not counted), and those waiting for a request head",
            labels=["state"],
        )
        held.add_metric(["open"], counts["open"])
        held.add_metric(["waiting"], counts["waiting"])
        yield held
        closed = CounterMetricFamily(
            "horserace_http_connections_closed",
            "HTTP connections the guard closed, by why: over the address's cap, no room,"
            " a head or body out of time, or closed to make room (the oldest waiting)",
            labels=["reason"],
        )
        for reason in CLOSED:
            closed.add_metric([reason], counts[reason])
        yield closed


class JsonLogFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message, and the record's `fields`
    (given as `extra={"fields": {...}}`), any whose name speaks of a secret left out. A web
    server's request line becomes its fields (`client`, `method`, `path`, `status`); an
    exception is its last line (`error`) and where it was raised (`at`), never a traceback
    over many lines."""

    def format(self, record: logging.LogRecord) -> str:
        data: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
        }
        access = _access_fields(record)
        data["message"] = "request" if access else record.getMessage().strip()
        if data["message"].startswith(TRACEBACK) and not record.exc_info:
            data["message"] = "exception"  # a traceback's text, as starlette's failed start-up
            data.update(_traceback_fields(record.getMessage()))
        fields = getattr(record, "fields", None)
        for name, value in {**access, **(fields if isinstance(fields, dict) else {})}.items():
            if not any(word in str(name).lower() for word in SECRET_WORDS):
                data[str(name)] = value
        if record.exc_info and record.exc_info[1] is not None:
            error = record.exc_info[1]
            data["error"] = f"{type(error).__name__}: {error}".removesuffix(": ")
            frames = traceback.extract_tb(error.__traceback__)
            if frames:
                data["at"] = f"{frames[-1].filename}:{frames[-1].lineno}"
        return json.dumps(data, default=str)


TRACEBACK = "Traceback (most recent call last):"
FRAME_LINE = re.compile(r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+)', re.MULTILINE)


def _traceback_fields(text: str) -> dict[str, str]:
    """A traceback logged as text, as the one line of an exception: its last line (`error`,
    the exception's type without its module, and its text) and its last frame (`at`)."""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    kind, _, words = lines[-1].partition(": ")
    fields = {"error": f"{kind.rsplit('.', 1)[-1]}: {words}".removesuffix(": ")}
    frames = FRAME_LINE.findall(text)
    if frames:
        fields["at"] = f"{frames[-1][0]}:{frames[-1][1]}"
    return fields


def _access_fields(record: logging.LogRecord) -> dict[str, Any]:
    """uvicorn's access line (`client - "METHOD PATH HTTP/V" STATUS`), as fields."""
    args = record.args
    if record.name != "uvicorn.access" or not isinstance(args, tuple) or len(args) != 5:
        return {}
    client, method, path, version, status = args
    return {"client": client, "method": method, "path": path, "http": version, "status": status}


LOGGERS_OF_OTHERS = ("uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi", "asyncio")


def configure_logging(level: str = "info") -> None:
    """Every log line of the process as JSON on stderr: the server's own, the web server's
    (uvicorn is run with no logging set-up of its own), asyncio's and any library's, Python's
    warnings, and an exception nobody caught (in any thread)."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonLogFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.WARNING)
    for name in ("horserace", *LOGGERS_OF_OTHERS):
        logger = logging.getLogger(name)
        logger.handlers[:] = []
        logger.propagate = True
    logging.getLogger("horserace").setLevel(level.upper())
    logging.captureWarnings(True)
    uncaught = logging.getLogger("horserace.uncaught")

    def log_uncaught(kind: type[BaseException], error: BaseException, trace: Any) -> None:
        uncaught.critical("uncaught exception", exc_info=(kind, error, trace))

    def log_thread(found: threading.ExceptHookArgs) -> None:
        if found.exc_value is not None and not isinstance(found.exc_value, SystemExit):
            uncaught.error(
                "uncaught exception in a thread",
                exc_info=(found.exc_type, found.exc_value, found.exc_traceback),
                extra={"fields": {"thread": getattr(found.thread, "name", None)}},
            )

    sys.excepthook = log_uncaught
    threading.excepthook = log_thread


def event(logger: logging.Logger, message: str, **fields: Any) -> None:
    """A structured log line: what happened and its fields (never a token)."""
    logger.info(message, extra={"fields": fields})


COLLECTOR_THRESHOLDS = (2_000, 10, 500)  # Python's defaults: (700, 10, 10)


def tune_collector() -> None:
    """Python's cyclic collector, set for a server that holds many tables for a long time.
    With the defaults a full collection came every few seconds under load and walked every
    object of every table: with 1,000 tables it held the event loop 0.1-1.2 s each time, and
    that pause was the p99 of every move. Now what start-up made (modules, presets, the
    tables resumed) is frozen out of every collection, the youngest generation is collected
    after 2,000 new objects instead of 700 (each of the middle one's collections then stays
    under about 40 ms), and the oldest 500 times less often than the middle one instead of
    10 (a full collection still comes, after some 10 million objects, and then takes as long
    as before). Memory is still freed by reference counting as it was; only garbage in
    reference cycles waits longer (and what start-up made stays)."""
    gc.freeze()
    gc.set_threshold(*COLLECTOR_THRESHOLDS)
