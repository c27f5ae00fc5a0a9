"""Confidence intervals for sampled chances, shared by the odds and the simulation reports
(plain Python: no compiled code is loaded for them)."""

from __future__ import annotations

import math

Z95 = 1.96  # the 97.5% quantile of the standard normal, as the usual tables round it


def wilson95(successes: int, trials: int) -> tuple[float, float]:
    """Wilson score 95% interval of successes/trials; (0, 1) when there are no trials."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = Z95 * Z95
    scale = 1 + z2 / trials
    centre = (p + z2 / (2 * trials)) / scale
    half = Z95 / scale * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials))
    return (max(0.0, centre - half), min(1.0, centre + half))
