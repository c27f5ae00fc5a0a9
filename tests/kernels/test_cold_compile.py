"""The kernels compiled without reference counts compile from nothing. Numba compiles a callee
with its caller's settings when the callee has no compiled version yet, so a callee that
allocates (a slice copy) breaks such a kernel only where no cache holds the callee: on a clean
clone, never on a machine that ran the tests before. Each test gives numba an empty cache, one
kernel family apiece so that two workers compile them side by side."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

COLD_RUNS = {
    "derby": """
from horserace.families.derby.rules.race import start_race
from horserace.families.derby.rules.track import DEFAULT_TRACK
from horserace.kernels.derby_fast import run_races
from horserace.kernels.derby_race import race_start

sample = run_races(race_start(start_race((1, 2, 3, 4))), DEFAULT_TRACK, 1, 0, 20)
assert (sample.podium[:, 0] > 0).all()
print("compiled")
""",
    "classic": """
from horserace.families.presets import get_preset
from horserace.kernels.board_game import BoardGameSpec, run_games

preset = get_preset("classic")
spec = BoardGameSpec.from_config(preset.rules.config_to_dict(preset.config({"players": 4})))
assert spec is not None
run_games(spec, 1, 0, 20)
print("compiled")
""",
}


@pytest.mark.parametrize("kernel", sorted(COLD_RUNS))
def test_the_fast_derby_loop_and_the_classic_kernel_compile_with_an_empty_cache(
    kernel: str, tmp_path: Path
) -> None:
    """The fast Derby loop takes about 16 s of CPU to compile from nothing (the classic kernel
    about 8): the compile is what is tested, so it cannot be shorter. LLVM's optimiser is left
    out (NUMBA_OPT=0, a sixth of the compile): a callee that allocates fails in a kernel compiled
    without reference counts while numba lowers it, before any optimising."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "NUMBA_OPT": "0"}
    done = subprocess.run(
        [sys.executable, "-c", COLD_RUNS[kernel]],
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == "compiled"
