"""Quantile levels: response keys, interval levels and the monotone fix."""

from __future__ import annotations

import numpy as np


def quantile_key(q: float) -> str:
    """The response key of level q: the shortest decimal that round-trips (repr), e.g. "0.1", "0.05"."""
    return repr(float(q))


def interval_level(q: float) -> float:
    """The central prediction-interval level (0-100) whose bound is quantile q.

    q < 0.5 is the lower bound and q > 0.5 the upper bound of the interval 100*|2q-1|; q = 0.5 is the
    point forecast (level 0). Rounded so that 0.3 gives 40.0 rather than 40.00000000000001.
    """
    return round(100.0 * abs(2.0 * q - 1.0), 10)


def make_monotone(rows: np.ndarray) -> np.ndarray:
    """Sorts each step's values across levels, so that rows (levels ascending, shape (levels, horizon))
    never decrease in the level. Sorting keeps the set of values and is deterministic."""
    return np.sort(rows, axis=0)
