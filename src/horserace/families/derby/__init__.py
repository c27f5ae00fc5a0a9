"""Derby Challenge: its FAMILY."""

from __future__ import annotations

from horserace.families.derby.family import FAMILY

__all__ = ["FAMILY"]
