"""Set-up and checks with nothing but Python: `python3 tasks.py play` or `python3 tasks.py test`.

Each task first makes a local virtual environment (.venv) and installs the project into it,
so a fresh clone needs no other tool.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
STAMP = VENV / ".installed"
CHECKED = ("src", "tests", "benchmarks", "tools", "tasks.py")


def run(*command: str | Path) -> None:
    print("+", " ".join(str(part) for part in command), flush=True)
    completed = subprocess.run([str(part) for part in command], cwd=ROOT, check=False)
    if completed.returncode:
        sys.exit(completed.returncode)


def ensure_environment() -> None:
    """(Re)install when the environment is missing or older than pyproject.toml."""
    if sys.version_info < (3, 11):  # noqa: UP036 - a friendly message on an old interpreter
        sys.exit(f"horserace needs Python 3.11 or newer, this is {sys.version.split()[0]}")
    pyproject = ROOT / "pyproject.toml"
    if STAMP.exists() and STAMP.stat().st_mtime >= pyproject.stat().st_mtime:
        return
    if not (BIN / "python").exists():
        print(f"creating {VENV}", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    run(
        BIN / "python",
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
        "-e",
        ".[dev]",
    )
    STAMP.touch()


DEMO = {"--players": "6", "--rounds": "8", "--seed": "7"}  # what `play` gives unless told


def play(extra: list[str]) -> None:
    """The demo table: `horserace play classic` with the demo's options under the ones given
    (`python3 tasks.py play --speed 0.1` is the demo, faster). Ctrl-C is the game's to handle:
    it saves the record and says how to resume, and this process only passes its exit code on."""
    arguments = list(extra)
    if "--resume" not in arguments:
        for option, value in DEMO.items():
            if option not in arguments:
                arguments += [option, value]
    game = subprocess.Popen([str(BIN / "horserace"), "play", "classic", *arguments], cwd=ROOT)
    while True:
        try:
            sys.exit(game.wait())
        except KeyboardInterrupt:  # the game got the same Ctrl-C: wait for it to end itself
            continue


def apt_install(package: str, needed_by: str) -> None:
    """Install a Debian package the tests need (CI and the dev machines run as root)."""
    root = hasattr(os, "geteuid") and os.geteuid() == 0
    if not (root and shutil.which("apt-get")):
        return
    print(f"installing {package} for {needed_by} with apt-get", flush=True)
    environment = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for step in (["update", "-qq"], ["install", "-y", "-qq", package]):
        print("+ apt-get", " ".join(step), flush=True)
        if subprocess.run(["apt-get", *step], env=environment, check=False).returncode:
            sys.exit(f"could not install {package} with apt-get; {needed_by} need it")


def compiled_kept() -> dict[str, str]:
    """The environment with Python keeping compiled modules, whatever PYTHONDONTWRITEBYTECODE
    says: each test worker otherwise rewrites the asserts of every test module as it collects
    them (about 5 s of CPU a worker, every run) instead of reading them back from __pycache__."""
    return {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def warm_kernels(half: int) -> subprocess.Popen[bytes]:
    """A process compiling half of the kernels the tests call (tests/warm_kernels.py)."""
    command = [str(BIN / "python"), "-m", "tests.warm_kernels", "--half", str(half)]
    return subprocess.Popen(
        command, cwd=ROOT, env=compiled_kept(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


def test(extra: list[str]) -> None:
    if not Path("/usr/bin/chromium").exists():
        apt_install("chromium", "the browser tests (tests/web)")
    if not list(Path("/usr/lib/postgresql").glob("*/bin/initdb")):
        apt_install("postgresql", "the storage tests (tests/server)")
    if not Path("/usr/sbin/nginx").exists():
        apt_install("nginx-light", "the reverse-proxy test (tests/server/test_server_nginx.py)")
    # the whole suite: two processes compile the kernels into numba's cache meanwhile, one a
    # core (tests/warm_kernels.py), while ruff, mypy and the first folders' tests run
    warmers = [] if extra else [warm_kernels(half) for half in (0, 1)]
    run(BIN / "ruff", "check", *CHECKED)
    run(BIN / "ruff", "format", "--check", *CHECKED)
    # mypy reads the code beside the tests (a fresh clone has no cache: about 20 s of CPU), in the
    # time the tests spend waiting on servers, browsers and terminals; its report follows theirs
    print(f"+ {BIN / 'mypy'} (beside the tests; its report follows theirs)", flush=True)
    with tempfile.TemporaryFile("w+", encoding="utf-8") as report:
        mypy = subprocess.Popen([str(BIN / "mypy")], cwd=ROOT, stdout=report, stderr=report)
        tests = [str(BIN / "pytest"), "-n", "2", "--durations=10", *extra]  # the ten slowest
        print("+", " ".join(tests), flush=True)
        tested = subprocess.run(tests, cwd=ROOT, env=compiled_kept(), check=False).returncode
        for warmer in warmers:  # done long before (a cache filler only: a failure is no error)
            warmer.kill()
            warmer.wait()
        checked = mypy.wait()
        report.seek(0)
        print(f"mypy: {report.read().strip()}", flush=True)
    sys.exit(tested or checked)


def analysis(extra: list[str]) -> None:
    """Regenerate docs/analysis.md and its pictures (several minutes; --games N for fewer)."""
    run(BIN / "python", "-m", "tools.analysis_doc", *extra)


def layers(extra: list[str]) -> None:
    """Redraw docs/architecture/layers.png (and its arrows as text) from the code's imports."""
    run(BIN / "python", "tools/layers_picture.py", *extra)


TASKS = {"play": play, "test": test, "analysis": analysis, "layers": layers}


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] not in TASKS:
        sys.exit(f"usage: python3 tasks.py {{{'|'.join(TASKS)}}} [arguments...]")
    ensure_environment()
    TASKS[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    main()
