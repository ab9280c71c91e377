"""statsforecast models: naive, seasonal-naive, auto-ets, auto-arima, auto-theta.

Each series is forecast on its own with the model class's per-series `forecast(y, h, level)` (not the
DataFrame `StatsForecast` wrapper, whose pandas overhead would dominate the naive model's latency),
so a forecast never depends on the other series of its batch.

`mean` is the library's point forecast. Quantile q is a bound of the library's central prediction
interval of level 100*|2q-1| (lower for q < 0.5, upper for q > 0.5; the point forecast for q = 0.5),
then the levels are made monotone at every step.

Fallbacks, each reported as a warning on the response:
- the season length m comes from the catalog's season_length[freq]. With fewer than 2*m
  observations, auto-ets, auto-arima and auto-theta are fitted non-seasonal (m = 1): a seasonal fit
  needs two full seasons;
- seasonal-naive with fewer than m observations has no value one season back: naive is used;
- auto-ets needs 7 observations and auto-theta 4 (statsforecast raises "tiny datasets" below that):
  naive is used;
- a forecast or interval that is not finite (auto-arima's intervals on 3 points are -inf/+inf) is
  replaced by naive's for that series; a naive forecast that is not finite fails the batch.
"""

from __future__ import annotations

import functools
from abc import abstractmethod

import numpy as np
import statsforecast.utils as statsforecast_utils
from statsforecast.models import AutoARIMA, AutoETS, AutoTheta, Naive, SeasonalNaive

from ..quantiles import interval_level, make_monotone
from .base import Adapter, Prediction, SeriesInput


def _memoise_normal_quantiles() -> None:
    """statsforecast's naive models compute z = Normal.ppf(levels) once per series through a scipy frozen
    distribution, which costs ~0.55 ms, ten times the rest of a naive forecast. z depends only on the
    levels, so it is memoised; the values are the library's own, bit for bit."""
    compute = statsforecast_utils._quantiles

    @functools.lru_cache(maxsize=1024)
    def normal_z(levels: tuple[float, ...]) -> np.ndarray:
        z = compute(np.asarray(levels, dtype=np.float64))
        z.setflags(write=False)
        return z

    def quantiles(level, distribution="normal", dist_params=None):
        if distribution == "normal" and dist_params is None:
            return normal_z(tuple(np.asarray(level, dtype=np.float64).ravel().tolist()))
        return compute(level, distribution=distribution, dist_params=dist_params)

    statsforecast_utils._quantiles = quantiles


_memoise_normal_quantiles()


def fill_missing(target: np.ndarray) -> np.ndarray:
    """The history a statistical model can fit: nulls (NaN) removed without moving the forecast origin.

    Leading NaNs are dropped (the series starts at its first value), interior NaNs are linearly
    interpolated between their neighbours, and trailing NaNs are forward-filled with the last value, so
    the forecast still starts right after the last (missing) step. `target` has at least one value.
    """
    missing = np.isnan(target)
    if not missing.any():
        return target
    first = int(np.argmax(~missing))
    history = target[first:].copy()
    missing = missing[first:]
    if missing.any():
        steps = np.arange(history.size)
        # np.interp holds the last known value beyond the last known step: that is the forward fill.
        history[missing] = np.interp(steps[missing], steps[~missing], history[~missing])
    return history


class _IntervalPlan:
    """Which statsforecast output gives each quantile: levels to request, output key per quantile."""

    def __init__(self, quantiles: tuple[float, ...]):
        self.output_keys: list[str] = []
        levels: set[float] = set()
        for q in quantiles:
            level = interval_level(q)
            if level == 0.0:
                self.output_keys.append("mean")
            else:
                levels.add(level)
                self.output_keys.append(f"{'lo' if q < 0.5 else 'hi'}-{level}")
        self.levels = sorted(levels) or None


@functools.lru_cache(maxsize=256)
def _interval_plan(quantiles: tuple[float, ...]) -> _IntervalPlan:
    return _IntervalPlan(quantiles)


def _forecast(model, history: np.ndarray, horizon: int, plan: _IntervalPlan) -> tuple[np.ndarray, np.ndarray]:
    out = model.forecast(y=history, h=horizon, level=plan.levels)
    mean = np.asarray(out["mean"], dtype=np.float64)
    rows = np.empty((len(plan.output_keys), horizon), dtype=np.float64)
    for row, key in enumerate(plan.output_keys):
        rows[row] = out[key]  # auto-arima returns pandas Series for very short series; assignment copes
    return mean, rows


def _finite(mean: np.ndarray, rows: np.ndarray) -> bool:
    return bool(np.isfinite(mean).all() and np.isfinite(rows).all())


class StatisticalAdapter(Adapter):
    one_batch_at_a_time = False  # per-series fits: batches of one key may run side by side
    @abstractmethod
    def _model_for(self, n: int, season_length: int) -> tuple[object, str | None]:
        """The statsforecast model to fit on n observations, and a warning if that is a fallback."""

    def load(self) -> None:
        # The import happened when the registry loaded this module; this runs the first-call set-up.
        warm_up = np.tile([1.0, 3.0, 2.0, 4.0], 4) + np.arange(16) * 0.1
        self._predict_series(warm_up, 4, _interval_plan((0.1, 0.5, 0.9)), 4)

    def predict_batch(
        self, series: list[SeriesInput], horizon: int, quantiles: tuple[float, ...], freq: str
    ) -> list[Prediction]:
        season_length = self.catalog.season_length[freq]
        plan = _interval_plan(quantiles)
        return [self._predict_series(s.target, horizon, plan, season_length) for s in series]

    def _predict_series(
        self, target: np.ndarray, horizon: int, plan: _IntervalPlan, season_length: int
    ) -> Prediction:
        history = fill_missing(target)
        model, warning = self._model_for(history.size, season_length)
        warnings = [warning] if warning else []
        mean, rows = _forecast(model, history, horizon, plan)
        if not _finite(mean, rows) and not isinstance(model, Naive):
            warnings.append(f"{self.model_id} gave a non-finite forecast or interval; forecast with naive")
            mean, rows = _forecast(Naive(), history, horizon, plan)
        if not _finite(mean, rows):
            raise FloatingPointError(
                f"non-finite forecast for a series of {history.size} observations "
                f"(last {history[-1]!r}, largest magnitude {np.abs(history).max()!r})"
            )
        return Prediction(mean=mean, quantiles=make_monotone(rows), warnings=tuple(warnings))


class _AutoModelAdapter(StatisticalAdapter):
    """auto-ets, auto-arima, auto-theta: fitted models with a minimum history and a seasonal fit."""

    min_history = 1  # fewer observations than this: forecast with naive

    @abstractmethod
    def _make_model(self, season_length: int):
        """The statsforecast model for this season length."""

    def _model_for(self, n: int, season_length: int) -> tuple[object, str | None]:
        if n < self.min_history:
            return Naive(), (
                f"{self.model_id} needs at least {self.min_history} observations, got {n}; forecast with naive"
            )
        if season_length > 1 and n < 2 * season_length:
            return self._make_model(1), (
                f"{n} observations are fewer than two seasons of {season_length}; "
                f"{self.model_id} fitted without seasonality"
            )
        return self._make_model(season_length), None


class NaiveAdapter(StatisticalAdapter):
    def _model_for(self, n: int, season_length: int) -> tuple[object, str | None]:
        return Naive(), None


class SeasonalNaiveAdapter(StatisticalAdapter):
    def _model_for(self, n: int, season_length: int) -> tuple[object, str | None]:
        if n < season_length:
            return Naive(), (
                f"{n} observations are fewer than one season of {season_length}; "
                f"{self.model_id} forecast with naive"
            )
        return SeasonalNaive(season_length=season_length), None


class AutoETSAdapter(_AutoModelAdapter):
    min_history = 7

    def _make_model(self, season_length: int):
        return AutoETS(season_length=season_length)


class AutoARIMAAdapter(_AutoModelAdapter):
    def _make_model(self, season_length: int):
        return AutoARIMA(season_length=season_length)


class AutoThetaAdapter(_AutoModelAdapter):
    min_history = 4

    def _make_model(self, season_length: int):
        return AutoTheta(season_length=season_length)
