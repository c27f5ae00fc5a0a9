"""The nginx configuration docs/server.md gives, run as written in front of `horserace serve
--workers 2` over PostgreSQL: pages, the lobby and a table's socket pass through it, and a
client that names other addresses in `X-Forwarded-For` is still one address (the proxy sets
the header; the server believes only the proxy). Debian's nginx: `python3 tasks.py test`
installs it when it is missing."""

from __future__ import annotations

import contextlib
import re
import subprocess
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import httpx
from websockets.sync.client import connect

from tests.server.serve_process import HOST, free_port, serve_running, stop_process
from tests.server.test_server_proxies import welcomed

NGINX = Path("/usr/sbin/nginx")
DOCS = Path(__file__).resolve().parents[2] / "docs" / "server.md"


def _documented() -> str:
    """The nginx block of docs/server.md."""
    found = re.search(r"```nginx\n(.*?)```", DOCS.read_text(), re.S)
    assert found, "docs/server.md has no nginx configuration"
    return found.group(1)


@contextlib.contextmanager
def nginx_in_front(folder: Path, upstreams: Sequence[str], extra: str = "") -> Iterator[str]:
    """nginx with the documented configuration in front of `upstreams` (HOST:PORT each), and
    `extra` directives in its server block; its URL."""
    port = free_port()
    server = _documented().replace("listen 80;", f"listen {HOST}:{port};\n    {extra}")
    lines = " ".join(f"server {upstream};" for upstream in upstreams)
    server = server.replace("server 127.0.0.1:8000;", lines)
    temp = " ".join(
        f"{kind}_temp_path {folder / kind};" for kind in ("client_body", "proxy", "fastcgi")
    )
    temp += f" uwsgi_temp_path {folder / 'uwsgi'}; scgi_temp_path {folder / 'scgi'};"
    user = "user root;" if Path("/root").owner() == "root" else ""
    (folder / "nginx.conf").write_text(
        f"{user}\nworker_processes 1;\npid {folder / 'nginx.pid'};\n"
        f"error_log {folder / 'error.log'};\nevents {{ worker_connections 256; }}\n"
        f"http {{ access_log off; {temp}\n{server}\n}}\n"
    )
    process = subprocess.Popen(
        [str(NGINX), "-p", str(folder), "-c", str(folder / "nginx.conf"), "-g", "daemon off;"]
    )
    base = f"http://{HOST}:{port}"
    try:
        deadline = time.monotonic() + 15
        while True:
            assert process.poll() is None, (folder / "error.log").read_text()
            with contextlib.suppress(httpx.TransportError):
                if httpx.get(f"{base}/healthz", timeout=2, trust_env=False).status_code == 200:
                    break
            assert time.monotonic() < deadline, "nginx did not answer"
            time.sleep(0.05)
        yield base
    finally:
        stop_process(process)


def _welcomed(url: str, spoof: str, held: contextlib.ExitStack) -> bool:
    headers = {"X-Forwarded-For": spoof}
    return welcomed(held.enter_context(connect(url, additional_headers=headers, open_timeout=10)))


def test_the_documented_nginx_configuration_in_front_of_two_workers(
    tmp_path: Path, postgres_url: str
) -> None:
    assert NGINX.exists(), "nginx is missing: python3 tasks.py test installs it"
    arguments = ["--workers", "2", "--db", postgres_url, "--trusted-proxies", HOST]
    arguments += ["--sockets-per-address", "2", "--key-file", str(tmp_path / "server.key")]
    with serve_running(arguments, tmp_path / "serve.log") as (_, direct):
        upstream = int(direct.rsplit(":", 1)[1])
        with (
            nginx_in_front(tmp_path, [f"{HOST}:{upstream}"]) as base,
            httpx.Client(trust_env=False) as http,
        ):
            assert "<html" in http.get(f"{base}/", timeout=10).text.lower()
            body = {"preset": "classic", "options": {"players": 2}}
            created = http.post(f"{base}/api/tables", json=body, timeout=10)
            assert created.status_code == 201, created.text
            table = created.json()["table"]["id"]
            assert http.get(f"{base}/api/tables/{table}", timeout=10).json()["id"] == table
            url = base.replace("http:", "ws:") + f"/ws/tables/{table}"
            with contextlib.ExitStack() as held:
                welcomed = [_welcomed(url, f"10.9.0.{n}", held) for n in range(4)]
    assert welcomed == [True, True, False, False]  # one client, however it names itself
