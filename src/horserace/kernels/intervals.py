"""Confidence intervals for sampled chances, shared by the odds and the simulation reports
(plain Python: no compiled code is loaded for them; they live with the core's statistics)."""

from __future__ import annotations

from horserace.core.stats import Z95, wilson95

__all__ = ["Z95", "wilson95"]
