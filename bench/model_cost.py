"""Per-series fit cost of the statistical models, for catalog/models.json's `cost` fields (src/forecasting/cost.ts).

Times statsforecast's per-series `Model(...).forecast(y=..., h=..., level=[80])` (what the core worker's
statistical adapter calls, one series at a time) on synthetic series: monthly (m = 12) of 60, 100, 150 and
200 points, and hourly (m = 24) of 1,500 points. One process, one thread, sequential; the first fit of
each model is a warm-up (numba compilation) and not timed. Prints, per model and shape, the mean and the
largest ms per series, and the (x, ms) pairs with x = n · max(1, m / 12), which the catalog's estimate
models as ms_per_series + us_per_point · x / 1000.

    runtime/.venv-core/bin/python bench/model_cost.py            # every statistical model
    runtime/.venv-core/bin/python bench/model_cost.py auto-arima # one
    runtime/.venv-core/bin/python bench/model_cost.py --backtest auto-ets   # fit + 2 forward() origins (prism, refit false)
"""

from __future__ import annotations

import os
import sys
import time

os.environ.setdefault("NIXTLA_ID_AS_COL", "1")

import numpy as np  # noqa: E402
from statsforecast.models import (  # noqa: E402
    MSTL, AutoARIMA, AutoCES, AutoETS, AutoTheta, DynamicOptimizedTheta, Naive, SeasonalNaive,
)

# as runtime/horizon_runtime/adapters/statistical.py builds them (mstl: catalog mstl_season_lengths, H = 24 and 168)
MODELS = {
    "naive": lambda m: Naive(),
    "seasonal-naive": lambda m: SeasonalNaive(season_length=m),
    "auto-ets": lambda m: AutoETS(season_length=m),
    "auto-theta": lambda m: AutoTheta(season_length=m),
    "auto-arima": lambda m: AutoARIMA(season_length=m),
    "damped-ets": lambda m: AutoETS(season_length=m, damped=True),
    "dyn-opt-theta": lambda m: DynamicOptimizedTheta(season_length=m),
    "ces": lambda m: AutoCES(season_length=m),
    "mstl": lambda m: MSTL(season_length=[24, 168] if m == 24 else [m], trend_forecaster=AutoETS(model="ZZN")),
}
# (label, season length, history length, series timed)
SHAPES = [("monthly", 12, 60, 8), ("monthly", 12, 100, 8), ("monthly", 12, 150, 8), ("monthly", 12, 200, 8), ("hourly", 24, 1500, 3)]
HORIZON = {12: 12, 24: 48}


def series(rng: np.random.Generator, m: int, n: int) -> np.ndarray:
    t = np.arange(n)
    level = 100 + 0.3 * t + rng.normal(0, 1, n).cumsum()
    season = 10 * np.sin(2 * np.pi * t / m) + 4 * np.cos(4 * np.pi * t / m)
    return np.maximum(level + season + rng.normal(0, 3, n), 1.0)


def fit_and_forward(model, y: np.ndarray, h: int, origins: int = 2) -> None:
    """What a series carrying a `backtest` costs: one fit, its forecast, and forward() at each origin."""
    model.fit(y=y)
    model.predict(h=h, level=[80])
    for k in range(1, origins + 1):
        model.forward(y=y[: y.size - k * h], h=h, level=[80])


def main() -> None:
    args = sys.argv[1:]
    backtest = "--backtest" in args
    wanted = [a for a in args if a != "--backtest"] or list(MODELS)
    rng = np.random.default_rng(26)
    for name in wanted:
        make = MODELS[name]
        make(12).forecast(y=series(rng, 12, 60), h=12, level=[80])  # warm-up
        if backtest:
            fit_and_forward(make(12), series(rng, 12, 60), 12)
        for label, m, n, count in SHAPES:
            times = []
            for _ in range(count):
                y = series(rng, m, n)
                start = time.perf_counter()
                if backtest:
                    fit_and_forward(make(m), y, HORIZON[m])
                else:
                    make(m).forecast(y=y, h=HORIZON[m], level=[80])
                times.append((time.perf_counter() - start) * 1e3)
            x = n * max(1.0, m / 12)
            print(f"{name + (' +fwd' if backtest else ''):19s} {label:8s} n={n:5d} x={x:6.0f}  mean {np.mean(times):9.2f} ms  max {np.max(times):9.2f} ms  per series", flush=True)


if __name__ == "__main__":
    main()
