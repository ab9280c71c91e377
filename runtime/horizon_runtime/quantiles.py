"""Quantile levels: response keys, interval levels and the monotone fix."""

from __future__ import annotations

import numpy as np


def quantile_key(q: float) -> str:
    """The response key of level q: the shortest decimal that round-trips (repr), e.g. "0.1", "0.05"."""
    return repr(float(q))


def interval_level(q: float) -> float:
    """The central prediction-interval level (0-100) whose bound is quantile q.

    q < 0.5 is the lower bound and q > 0.5 the upper bound of the interval 100*|2q-1|; q = 0.5 is the
    point forecast (level 0). Rounded so that 0.3 gives 40.0 rather than 40.00000000000001. Levels
    within about 5e-11 of 0 or 1 (0.9999999999999999 is a valid request) would round to 100, whose
    normal z is infinite: they get the bound of the widest finite interval, MAX_INTERVAL_LEVEL.
    """
    return min(round(100.0 * abs(2.0 * q - 1.0), 10), MAX_INTERVAL_LEVEL)


MAX_INTERVAL_LEVEL = 99.9999999


def make_monotone(rows: np.ndarray) -> np.ndarray:
    """Sorts each step's values across levels, so that rows (levels ascending, shape (levels, horizon))
    never decrease in the level. Sorting keeps the set of values and is deterministic."""
    return np.sort(rows, axis=0)


def outside_trained_levels(quantiles: tuple[float, ...], trained) -> tuple[str, ...]:
    """The warning for requested levels outside the model's trained ones (they get the nearest level's values)."""
    outside = [q for q in quantiles if q < trained[0] or q > trained[-1]]
    if not outside:
        return ()
    return (
        f"quantile levels {', '.join(map(repr, outside))} lie outside {trained[0]}-{trained[-1]}, the levels "
        f"this model predicts; they get the values of the nearest predicted level",
    )


def interpolate_levels(trained, values: np.ndarray, requested: tuple[float, ...]) -> tuple[np.ndarray, tuple[str, ...]]:
    """A model's fixed quantile outputs at the requested levels, for models that predict a fixed set.

    trained: the model's levels, ascending; values: (len(trained), horizon). Returns (len(requested),
    horizon), made monotone, and the warnings: a requested level between two trained ones is linear in
    the level (what the Chronos pipelines do), one outside gets the nearest trained level's values.
    """
    rows, warnings = interpolate_levels_batch(trained, np.asarray(values)[None], requested)
    return rows[0], warnings


def interpolate_levels_batch(trained, values: np.ndarray, requested: tuple[float, ...]) -> tuple[np.ndarray, tuple[str, ...]]:
    """interpolate_levels for a batch at once: values (series, len(trained), horizon) → (series,
    len(requested), horizon). The same element-wise arithmetic, so the same numbers, in one numpy pass
    instead of one per series (256 series: ~20 ms of Python on the worker's thread otherwise)."""
    trained = np.asarray(trained, dtype=np.float64)
    values = np.sort(np.asarray(values, dtype=np.float64), axis=1)
    wanted = np.clip(np.asarray(requested, dtype=np.float64), trained[0], trained[-1])
    upper = np.clip(np.searchsorted(trained, wanted, side="left"), 1, len(trained) - 1)
    lower = upper - 1
    weight = ((wanted - trained[lower]) / (trained[upper] - trained[lower]))[:, None]
    rows = values[:, lower] * (1.0 - weight) + values[:, upper] * weight
    return np.sort(rows, axis=1), outside_trained_levels(tuple(requested), list(trained))
