"""Start-up time of the command line, as a ratio to importing what it is built on.

Run: .venv/bin/python benchmarks/bench_startup.py [--runs N]

Each figure is the median wall time of a fresh process, taken in turns with the yardstick
(`python -c "import typer, rich.console"`), so the machine's drift falls on both alike; the
ratio is worked out pair by pair and its median printed. It also lists which heavy packages
each command imports: `--help` and `rules classic` should import none of them.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

BIN = Path(sys.executable).parent
HORSERACE = str(BIN / "horserace")
YARDSTICK = [sys.executable, "-c", "import typer, rich.console"]
COMMANDS = {
    "horserace --help": [HORSERACE, "--help"],
    "horserace rules classic": [HORSERACE, "rules", "classic"],
}
HEAVY = ("numpy", "numba", "fastapi", "psycopg", "uvicorn", "matplotlib", "dask", "textual")
PROBE = """
import json, re, sys
from horserace.drivers.cli.app import app
try:
    app(sys.argv[1:])
except SystemExit:
    pass
heavy = sorted({m.split('.')[0] for m in sys.modules} & set(HEAVY))
rules = sorted(
    m for m in sys.modules
    if m.startswith('horserace.engine') or re.match(r'horserace[.]families[.][a-z]+[.]rules[.]', m)
)
print(json.dumps([heavy, rules]), file=sys.stderr)
"""


def wall(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def imported(arguments: list[str]) -> tuple[list[str], list[str]]:
    code = f"HEAVY = {HEAVY!r}\n{PROBE}"
    done = subprocess.run(
        [sys.executable, "-c", code, *arguments], capture_output=True, text=True, check=True
    )
    heavy, rules = json.loads(done.stderr.strip().splitlines()[-1])
    return list(heavy), list(rules)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    runs = parser.parse_args().runs
    wall(YARDSTICK)  # warm the file cache
    for label, command in COMMANDS.items():
        wall(command)
        pairs = [(wall(command), wall(YARDSTICK)) for _ in range(runs)]
        took = statistics.median(a for a, _ in pairs)
        base = statistics.median(b for _, b in pairs)
        ratio = statistics.median(a / b for a, b in pairs)
        heavy, rules = imported(command[1:])
        print(
            f"{label}: {took * 1000:.0f} ms, yardstick {base * 1000:.0f} ms,"
            f" ratio {ratio:.2f} (target at most 2.5 for --help);"
            f" heavy packages imported: {', '.join(heavy) or 'none'};"
            f" rules modules imported: {len(rules)}"
        )


if __name__ == "__main__":
    main()
