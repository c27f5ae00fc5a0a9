"""Compiled fast paths (numba) for the games and races that need no decisions.

Each kernel is written for speed and tested equal to its family's reference rules: fed the
same chance stream, it plays the same game chip by chip. The kernels import numba when this
package's modules are first imported, so only the commands that use them pay for it.
"""

from __future__ import annotations

from typing import Any, TypeAlias

import numpy.typing as npt

Array: TypeAlias = npt.NDArray[Any]  # an array argument of a compiled kernel (numba types it)
Word: TypeAlias = Any  # a scalar inside compiled code (int64, uint64 or float64, numba infers it)
# numba's option to compile a function without reference counts (its own tests use it): for a
# function that allocates nothing, whose arrays all outlive the call. numba counts a reference,
# an atomic add, for each array argument and each view it makes, on every call.
NO_REFCOUNTS: dict[str, Any] = {"_nrt": False}
