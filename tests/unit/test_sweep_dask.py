"""A sweep's Dask scheduler: a malformed address is one line and exit 2 before any client is
made (a half-built client used to hang the end of the program and print a traceback), and a
scheduler with no worker is waited for a bounded time, said so, then one line and exit 2."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from typer.testing import CliRunner

from horserace.core.errors import ConfigError
from horserace.drivers.cli.app import app
from horserace.drivers.simulate.sweep import Sweep, expand, parse_grid
from horserace.drivers.simulate.sweep_dask import check_address

ARGS = ["sweep", "classic", "--grid", "players=2", "--games", "5"]


@pytest.fixture
def no_client(monkeypatch: pytest.MonkeyPatch) -> None:
    def never(*_: object, **__: object) -> None:
        raise AssertionError("a Dask client was made")

    monkeypatch.setattr("distributed.Client", never)


@pytest.mark.parametrize(
    ("address", "message"),
    [
        ("garbage://x", "error: --scheduler garbage://x: unknown scheme 'garbage' (known: "),
        ("tcp://x:notaport", "error: --scheduler tcp://x:notaport: not a host and a port"),
        ("tcp://x:0", "error: --scheduler tcp://x:0: not a host and a port"),
        ("tcp://:8786", "error: --scheduler tcp://:8786: not a host and a port"),
        ("", "error: --scheduler needs the Dask scheduler's address, e.g. tcp://HOST:8786"),
        ("tls://127.0.0.1:9", "error: cannot reach the Dask scheduler at tls://127.0.0.1:9"),
    ],
)
def test_a_malformed_scheduler_is_one_line_and_exit_2_with_no_client_made(
    address: str, message: str, no_client: None
) -> None:
    result = CliRunner().invoke(app, [*ARGS, "--scheduler", address])
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(message) and result.stderr.count("\n") == 1
    assert result.stdout == ""


def test_well_formed_addresses_pass_the_check() -> None:
    for address in ("tcp://host:8786", "host:8786", "ws://10.0.0.1:1", "inproc://1.2.3.4/5/6"):
        check_address(address)
    with pytest.raises(ConfigError):
        check_address("tcp://host:65536")


@pytest.fixture
def idle_cluster() -> Iterator[Any]:
    from distributed import LocalCluster

    with LocalCluster(  # type: ignore[no-untyped-call]
        n_workers=0, processes=False, dashboard_address=None
    ) as cluster:
        yield cluster


def test_a_scheduler_without_workers_is_waited_for_then_one_line_and_exit_2(
    idle_cluster: Any,
) -> None:
    address = idle_cluster.scheduler_address
    result = CliRunner().invoke(app, [*ARGS, "--scheduler", address, "--wait-workers", "0.3"])
    assert result.exit_code == 2, result.output
    said = result.stderr.splitlines()
    assert said == [
        f"waiting up to 0.3 s (--wait-workers) for a worker to join the Dask scheduler at"
        f" {address}",
        f"error: no worker joined the Dask scheduler at {address} in 0.3 s; start one (dask"
        f" worker {address}) or wait longer (--wait-workers)",
    ]
    assert result.stdout == ""


def test_a_worker_that_joins_while_the_sweep_waits_plays_the_points(idle_cluster: Any) -> None:
    """The notice comes before the wait: a worker started then is found, the sweep goes on."""
    points = expand("classic", parse_grid(["players=2,3"]), 10, 1)
    said: list[str] = []

    def start_a_worker(text: str) -> None:
        said.append(text)
        idle_cluster.scale(1)

    sweep = Sweep(notice=start_a_worker)
    outcomes = sweep.run_dask(points, idle_cluster.scheduler_address, wait_workers=120)
    assert len(said) == 1 and said[0].startswith("waiting up to 120 s")
    assert [o.report is not None for o in outcomes] == [True, True]


def test_a_bad_wait_is_one_line_and_exit_2() -> None:
    result = CliRunner().invoke(app, [*ARGS, "--wait-workers", "-1"])
    assert result.exit_code == 2, result.output
    assert "--wait-workers" in result.stderr and result.stderr.count("\n") == 1
