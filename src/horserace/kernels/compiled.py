"""numba's `njit` for the kernels, with a cache keyed on every source a kernel is built from.

numba keys a function's cached machine code on the text of the function's own file. A kernel
reads constants and calls functions of other modules, and those are frozen into its machine
code: after one of them changes (an upgrade in place, a checkout of another version) numba
would load the old code, which plays by the old layout. Here the cache of each function of the
horserace package is keyed on the text of its module and of every horserace module that module
imports, directly or through others (and on the optimisation level it was compiled at), so it
is compiled anew when any of them changes. Every kernel module takes `njit` from here, which
puts the keyed cache in place before the first function is compiled.

A kernel passes a constant, or a count that starts at a constant, to another kernel function as
`np.int64(...)` (`np.bool_(...)` for a flag): numba would otherwise compile the callee once more
for each constant's literal type (and for a counter's first value, met while it infers the
types): one compile more on a clean clone, and one file more in the cache, for each.
"""

from __future__ import annotations

import ast
import hashlib
from functools import cache
from pathlib import Path
from typing import Any

from numba import njit
from numba.core import config
from numba.core.caching import (
    CacheImpl,
    InTreeCacheLocator,
    UserProvidedCacheLocator,
    UserWideCacheLocator,
)

__all__ = ["njit", "source_files", "sources_stamp"]

PACKAGE = Path(__file__).resolve().parent.parent  # the horserace package's folder


def _module_file(name: str) -> Path | None:
    """The source file of the horserace module `name`, or None when it is not one."""
    if name != "horserace" and not name.startswith("horserace."):
        return None
    path = PACKAGE.joinpath(*name.split(".")[1:])
    for candidate in (path / "__init__.py", path.with_suffix(".py")):
        if candidate.is_file():
            return candidate
    return None


@cache
def _imports(path: Path) -> frozenset[Path]:
    """The horserace modules `path` imports when it runs (a `TYPE_CHECKING` block imports
    nothing then, and numba compiles no import inside a function)."""
    found: set[Path | None] = set()
    for node in ast.parse(path.read_bytes()).body:
        if isinstance(node, ast.Import):
            found.update(_module_file(alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(_module_file(node.module))  # and a name may be a module of a package:
            found.update(_module_file(f"{node.module}.{alias.name}") for alias in node.names)
    return frozenset(path for path in found if path is not None)


def source_files(path: Path) -> list[Path]:
    """`path` and every horserace module it imports, directly or through others."""
    seen, todo = {path}, [path]
    while todo:
        for imported in _imports(todo.pop()):
            if imported not in seen:
                seen.add(imported)
                todo.append(imported)
    return sorted(seen)


@cache
def sources_stamp(path: Path) -> str:
    """A hash of the text of `path` and of the modules it imports (see `source_files`)."""
    digest = hashlib.sha256()
    for source in source_files(path):
        digest.update(source.relative_to(PACKAGE).as_posix().encode() + b"\0")
        digest.update(source.read_bytes() + b"\0")
    return digest.hexdigest()


def _opt_level() -> str:
    """NUMBA_OPT as numba read it (its cache index does not tell the levels apart)."""
    level = getattr(config, "OPT", 3)
    return str(getattr(level, "_raw_value", level))


def _in_package(py_file: str) -> Path | None:
    path = Path(py_file).resolve()
    return path if path.is_relative_to(PACKAGE) else None


class _KeyedOnSources:
    """A locator whose stamp (what numba compares with the one its cache index was saved
    with) covers the function's module and the modules it imports, at this optimisation
    level; numba's own covers the function's file alone."""

    _py_file: str

    def get_source_stamp(self) -> Any:
        path = _in_package(self._py_file)
        assert path is not None  # from_function takes only the package's functions
        return sources_stamp(path), _opt_level()

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> Any:
        if _in_package(py_file) is None:
            return None
        return super().from_function(py_func, py_file)  # type: ignore[misc]


class KeyedUserCache(_KeyedOnSources, UserProvidedCacheLocator):
    """In the folder NUMBA_CACHE_DIR names, when it names one."""


class KeyedInTreeCache(_KeyedOnSources, InTreeCacheLocator):
    """In the __pycache__ folder beside the module, as numba keeps it by default."""


class KeyedUserWideCache(_KeyedOnSources, UserWideCacheLocator):
    """In the user's cache folder, where numba turns when the package's folder cannot be
    written (an installed copy): keyed too, or an upgrade would load the old code there."""


KEYED = [KeyedUserCache, KeyedInTreeCache, KeyedUserWideCache]  # numba's order of preference
if not any(locator.__name__ == "KeyedUserCache" for locator in CacheImpl._locator_classes):
    CacheImpl._locator_classes[:0] = KEYED
