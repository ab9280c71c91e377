"""The worker's numbers equal statsforecast's own, called directly on the same input in this process."""

from __future__ import annotations

import numpy as np
import pytest
from statsforecast.models import AutoARIMA, AutoETS, AutoTheta, Naive, SeasonalNaive

from .helpers import infer_body, seasonal_series

QUANTILES = [0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95]
SEASON = {"Q": 4, "MS": 12}

MODELS = {
    "naive": lambda m: Naive(),
    "seasonal-naive": lambda m: SeasonalNaive(season_length=m),
    "auto-ets": lambda m: AutoETS(season_length=m),
    "auto-arima": lambda m: AutoARIMA(season_length=m),
    "auto-theta": lambda m: AutoTheta(season_length=m),
}


def direct_forecast(model, target: list[float], horizon: int, quantiles: list[float]) -> dict:
    """statsforecast's forecast in the protocol's shape: quantile q is the bound of the 100*|2q-1| interval."""
    level_of = {q: round(100 * abs(2 * q - 1), 10) for q in quantiles}
    levels = sorted({level for level in level_of.values() if level > 0})
    out = model.forecast(y=np.array(target, dtype=np.float64), h=horizon, level=levels)
    quantile_values = {}
    for q in quantiles:
        key = "mean" if q == 0.5 else f"{'lo' if q < 0.5 else 'hi'}-{level_of[q]}"
        quantile_values[repr(q)] = np.asarray(out[key], dtype=np.float64).tolist()
    return {"mean": np.asarray(out["mean"], dtype=np.float64).tolist(), "quantiles": quantile_values}


# Seasonal AutoARIMA on monthly data takes seconds per series, so auto-arima is checked on Q only.
CASES = [(model, "Q", 48) for model in MODELS] + [(model, "MS", 60) for model in MODELS if model != "auto-arima"]


@pytest.mark.parametrize("model, freq, length", CASES)
def test_parity_with_statsforecast(worker, model, freq, length):
    target = seasonal_series(length, SEASON[freq], seed=length)
    horizon = 2 * SEASON[freq]
    status, body = worker.infer(**infer_body(model, target=target, freq=freq, horizon=horizon, quantiles=QUANTILES))
    assert status == 200, body
    assert body["warnings"] == []
    expected = direct_forecast(MODELS[model](SEASON[freq]), target, horizon, QUANTILES)
    assert body["predictions"][0] == expected
