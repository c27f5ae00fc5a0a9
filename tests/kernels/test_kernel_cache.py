"""The kernels' compiled code on disk: numba's cache keyed on every source a kernel is built
from (horserace.kernels.compiled), and one compiled copy of a game for both of its uses."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import horserace
import horserace.kernels.classic_game as classic_game
from horserace.kernels.advanced_numbers import bot_kinds
from horserace.kernels.classic_numbers import ClassicSpec
from tests.kernels.advanced_tape import decided_game
from tests.kernels.test_classic_game_equality import husted_table

PACKAGE = Path(horserace.__file__).resolve().parent
KERNELS = PACKAGE / "kernels"

RUN = """
from horserace.kernels import probe
import control

print(probe.layout(), control.layout(), sum(probe.layout.stats.cache_hits.values()))
"""

# an installed copy whose folder cannot be written: numba turns to the user's cache folder
UNWRITABLE = """
from numba.core.caching import InTreeCacheLocator

def refuse(self):
    raise OSError("read-only")

InTreeCacheLocator.ensure_cache_path = refuse
"""


@pytest.mark.parametrize("folder", ["beside the modules", "the user's cache folder"])
def test_a_constant_changed_in_another_module_compiles_its_reader_anew(
    tmp_path: Path, folder: str
) -> None:
    """numba keys a cached function on its own file only: a constant it imports from another
    module stays frozen in the machine code it saved (`control`, outside the package, shows
    numba's own cache replaying the old value). A kernel's cache is keyed on the modules it
    imports too: changed, it compiles anew; unchanged, it loads what it saved. So also where
    numba keeps it when the package's folder cannot be written (an installed copy)."""
    copy = tmp_path / "horserace"
    (copy / "kernels").mkdir(parents=True)
    shutil.copy(PACKAGE / "__init__.py", copy / "__init__.py")
    for name in ("__init__.py", "compiled.py"):
        shutil.copy(KERNELS / name, copy / "kernels" / name)
    numbers = copy / "kernels" / "probe_numbers.py"
    numbers.write_text("LAYOUT = 3\n")
    (copy / "kernels" / "probe.py").write_text(
        "from horserace.kernels.compiled import njit\n"
        "from horserace.kernels.probe_numbers import LAYOUT\n\n\n"
        "@njit(cache=True)\ndef layout():\n    return LAYOUT\n"
    )
    (tmp_path / "control.py").write_text(
        "from numba import njit\n\n"
        "from horserace.kernels.probe_numbers import LAYOUT\n\n\n"
        "@njit(cache=True)\ndef layout():\n    return LAYOUT\n"
    )
    env = {key: value for key, value in os.environ.items() if not key.startswith("NUMBA_")}
    env["PYTHONPATH"] = str(tmp_path)
    env["XDG_CACHE_HOME"] = str(tmp_path / "user-cache")
    script = RUN if folder == "beside the modules" else UNWRITABLE + RUN

    def run() -> list[int]:
        done = subprocess.run(
            [sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr[-3000:]
        return [int(word) for word in done.stdout.split()]

    assert run() == [3, 3, 0]  # compiled, and saved beside the modules
    numbers.write_text("LAYOUT = 4  # the layout changed\n")
    assert run() == [4, 3, 0]  # the kernel compiled anew; numba's own cache replays 3
    assert run() == [4, 3, 1]  # nothing changed: the kernel loads the code it saved
    in_user_folder = {
        path.is_relative_to(env["XDG_CACHE_HOME"]) for path in tmp_path.rglob("*.nbi")
    }
    assert in_user_folder == {folder != "beside the modules"}  # each where numba keeps it


def test_every_kernel_module_takes_njit_with_the_keyed_cache() -> None:
    """A module that took numba's own `njit` would be keyed on the keyed cache only when
    another kernel module happened to be imported first."""
    plain = re.compile(r"^\s*(from numba import|import numba\b)", re.MULTILINE)
    taking = [
        path.name
        for path in sorted(KERNELS.glob("*.py"))
        if path.name != "compiled.py"
        and plain.search(path.read_text())
        and "njit" in path.read_text()
    ]
    assert taking == [], "take njit from horserace.kernels.compiled"


def test_a_tape_replay_and_a_run_compile_one_copy_of_the_game(monkeypatch: Any) -> None:
    """A replayed tape reaches the game read-only, as the kernel's own empty tape does: numba
    compiles a kernel and its whole call tree for each type of its arguments, so a writable
    tape would compile every game twice (tens of seconds of CPU on a clean clone)."""
    options, kinds = husted_table(3, ("random", "heuristic", "ev"))
    played = decided_game("classic", options, 3, kinds)
    spec = ClassicSpec.from_config(played.config)
    assert spec is not None
    mix = bot_kinds(kinds)
    assert mix is not None
    classic_game.replay_tape(spec, mix, played.tape)
    classic_game.run_games(spec, 1, 0, 2, np.asarray(mix), threads=1)
    assert len(classic_game.play_game.signatures) == 1
