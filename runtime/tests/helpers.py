"""Request builders shared by the HTTP tests."""

from __future__ import annotations

import numpy as np


def seasonal_series(n: int, period: int, seed: int = 0) -> list[float]:
    rng = np.random.default_rng(seed)
    steps = np.arange(n)
    values = 100 + 0.3 * steps + 10 * np.sin(2 * np.pi * steps / period) + rng.normal(0, 2, n)
    return [round(float(v), 4) for v in values]


def infer_body(model="naive", target=None, **overrides) -> dict:
    body = {
        "model": model,
        "size": "default",
        "freq": "Q",
        "horizon": 6,
        "quantiles": [0.1, 0.5, 0.9],
        "series": [{"target": target if target is not None else seasonal_series(40, 4)}],
    }
    body.update(overrides)
    return body


def gappy_series(n: int, seed: int, gaps: bool = True) -> list:
    """seasonal_series(n, 7) with three leading missing values and one in the middle (or none)."""
    values: list = seasonal_series(n, 7, seed=seed)
    if gaps:
        values[:3] = [None] * 3
        values[n // 2] = None
    return values


def model_body(models: dict[str, str], model: str, series: list[dict], horizon: int, quantiles, freq: str = "D") -> dict:
    """An /infer body for `model` at its size in `models` (id -> size)."""
    return {"model": model, "size": models[model], "freq": freq, "horizon": horizon, "quantiles": quantiles, "series": series}


def reference_case(weights, models: dict[str, str], model: str, series: list[dict], horizon: int, quantiles, **extra) -> dict:
    """A case for a runtime/tests/*_reference.py script: the same checkpoint and values as model_body."""
    return {"weights": str(weights / model / models[model]), "model": model, "horizon": horizon, "quantiles": quantiles,
            "series": series, **extra}


def assert_float32_close(actual, wanted, scale: float = 130, rtol: float = 1e-5) -> None:
    """float32 models: the worker and the reference run the same code on the same values, but not always
    in batches of the same size or padding, so sums can round differently in the last bits."""
    np.testing.assert_allclose(np.asarray(actual, dtype=float), np.asarray(wanted, dtype=float), rtol=rtol, atol=rtol * scale)
