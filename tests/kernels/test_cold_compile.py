"""The kernels compiled without reference counts compile from nothing. Numba compiles a callee
with its caller's settings when the callee has no compiled version yet, so a callee that
allocates (a slice copy) breaks such a kernel only where no cache holds the callee: on a clean
clone, never on a machine that ran the tests before. This test gives numba an empty cache."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

COLD_RUN = """
from horserace.families.derby.rules.race import start_race
from horserace.families.derby.rules.track import DEFAULT_TRACK
from horserace.families.presets import get_preset
from horserace.kernels.board_game import BoardGameSpec, run_games
from horserace.kernels.derby_fast import run_races
from horserace.kernels.derby_race import race_start

sample = run_races(race_start(start_race((1, 2, 3, 4))), DEFAULT_TRACK, 1, 0, 20)
assert (sample.podium[:, 0] > 0).all()
preset = get_preset("classic")
spec = BoardGameSpec.from_config(preset.rules.config_to_dict(preset.config({"players": 4})))
assert spec is not None
run_games(spec, 1, 0, 20)
print("compiled")
"""


def test_the_fast_derby_loop_and_the_classic_kernel_compile_with_an_empty_cache(
    tmp_path: Path,
) -> None:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "-c", COLD_RUN], env=env, capture_output=True, text=True, timeout=900
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == "compiled"
