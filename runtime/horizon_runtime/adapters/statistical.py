"""statsforecast models: naive, seasonal-naive, auto-ets, auto-arima, auto-theta, damped-ets, dyn-opt-theta,
ces, mstl.

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
- auto-ets, ces and mstl need 7 observations, damped-ets 8, auto-theta and dyn-opt-theta 4 (statsforecast
  raises "tiny datasets" below that): naive is used;
- mstl decomposes with the frequency's season lengths (catalog mstl_season_lengths, e.g. 24 and 168 for
  hourly data) that fit twice into the history, and is its trend model (AutoETS without seasonality) alone
  where none does;
- a forecast or interval that is not finite (auto-arima's intervals on 3 points are -inf/+inf) is
  replaced by naive's for that series; a naive forecast that is not finite fails the batch;
- a finite forecast or interval bound over WIDE_INTERVAL (10) times the history's largest magnitude is kept, with a
  warning that names how far it reaches.

In-sample (a series' `in_sample`, anomaly detection from one fit): the fit that forecasts also gives the
one-step-ahead fitted values over the whole history and their intervals, statsforecast's own
`forecast(..., fitted=True, level=...)` (`fitted`, `fitted-lo-L`, `fitted-hi-L`: the fitted value ± z times
one standard error of the in-sample residuals, the same width at every step). Every model here has them;
naive has none for the first observation, seasonal naive none for the first season (NaN in the answer).

Sample paths (a request's "samples": N, `sample_paths`): the model class's own `simulate(h, n_paths, y=history,
seed=…)` (statsforecast 2.1.1: the model the rules below pick is fitted on the history and N future paths drawn from
it with its fitted error distribution), for the adapters whose models all have it: naive, seasonal-naive, auto-ets,
damped-ets, auto-arima, auto-theta, ces (not dyn-opt-theta, mstl: statsforecast has no simulate for them). The seed
is derived from the series' values (and the request's `seed`, when it sends one): equal series, equal paths, alone or
in any batch. A fit that draws a non-finite path draws naive's instead.

Batches of two or more series of the fitted models go to the worker's CPU pool (cpu_pool.py): contiguous
chunks fitted in other processes by the same functions, so every core works and the numbers are unchanged.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass, replace
from typing import Callable, Sequence

import numpy as np
import statsforecast.utils as statsforecast_utils
from statsforecast.models import _predict_mstl_seas  # MSTL's own projection of its seasons (what its predict() adds)
from statsforecast.models import (
    MSTL, AutoARIMA, AutoCES, AutoETS, AutoTheta, DynamicOptimizedTheta, Naive, SeasonalNaive,
)

from ..cancel import BatchStopped, current_stop
from ..cpu_pool import shared_pool
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


def _rows(out: dict, horizon: int, plan: _IntervalPlan) -> tuple[np.ndarray, np.ndarray]:
    mean = np.asarray(out["mean"], dtype=np.float64)
    rows = np.empty((len(plan.output_keys), horizon), dtype=np.float64)
    for row, key in enumerate(plan.output_keys):
        rows[row] = out[key]  # auto-arima returns pandas Series for very short series; assignment copes
    return mean, rows


def _forecast(model, history: np.ndarray, horizon: int, plan: _IntervalPlan) -> tuple[np.ndarray, np.ndarray]:
    return _rows(model.forecast(y=history, h=horizon, level=plan.levels), horizon, plan)


def _fit_forecast(model, history: np.ndarray, horizon: int, plan: _IntervalPlan) -> tuple[np.ndarray, np.ndarray]:
    """fit + predict: the same numbers as `forecast` (runtime/tests/test_parity.py), and the fitted model is
    kept on `model` for forward() at the validation origins."""
    model.fit(y=history)
    return _rows(model.predict(h=horizon, level=plan.levels), horizon, plan)


def _in_sample_rows(out: dict, plan: _IntervalPlan) -> tuple[np.ndarray, np.ndarray]:
    """The in-sample arrays of a statsforecast answer: `fitted`, and per quantile its `fitted-lo-L` /
    `fitted-hi-L` (`fitted` itself for 0.5), as (fitted, rows) like _rows."""
    fitted = np.asarray(out["fitted"], dtype=np.float64)
    rows = np.empty((len(plan.output_keys), fitted.size), dtype=np.float64)
    for row, key in enumerate(plan.output_keys):
        rows[row] = fitted if key == "mean" else out[f"fitted-{key}"]
    return fitted, rows


def _forecast_in_sample(model, history: np.ndarray, horizon: int, plan: _IntervalPlan):
    """One statsforecast call: the forecast and the in-sample fitted values with their intervals."""
    out = model.forecast(y=history, h=horizon, level=plan.levels, fitted=True)
    return _rows(out, horizon, plan), _in_sample_rows(out, plan)


def _finite(mean: np.ndarray, rows: np.ndarray) -> bool:
    return bool(np.isfinite(mean).all() and np.isfinite(rows).all())


# an interval bound this many times the history's largest magnitude is reported: the library's numbers are kept (they are
# its own), but such a bound says its fit compounds an error or trend over the horizon (statsforecast's damped ETS on
# one M4 hourly series of values 10-6,520: an 80 % interval of ±4.5e8, eval/README.md "M4 hourly")
WIDE_INTERVAL = 10.0


def _wide_interval(model_id: str, history: np.ndarray, mean: np.ndarray, rows: np.ndarray) -> str | None:
    scale = float(np.max(np.abs(history))) if history.size else 0.0
    # the bounds bracket the point forecast, so it is scanned only when no quantile levels were asked for (rows empty):
    # one scan per series either way (a generator over both cost ~5 µs a series on the request path)
    values = rows if rows.size else mean
    reach = float(np.max(np.abs(values))) if values.size else 0.0
    if scale <= 0 or reach <= WIDE_INTERVAL * scale:
        return None
    return (f"{model_id}'s forecast reaches {reach:.4g}, {reach / scale:.3g}× the largest magnitude in the history "
            f"({scale:.4g}): the library's fit compounds over the horizon on this series; a shorter horizon or another "
            f"model (mstl, seasonal-naive) may suit it")


def _in_sample_usable(fitted: np.ndarray, rows: np.ndarray) -> bool:
    """No infinity, and a fitted value somewhere (NaN where the model fits nothing is expected)."""
    return bool(not np.isinf(fitted).any() and not np.isinf(rows).any() and np.isfinite(fitted).any())


@dataclass(frozen=True)
class FitSpec:
    """What a fit needs besides the series (picklable: it goes to the CPU pool's processes)."""

    adapter: str  # catalog adapter name: the key of RULES
    model_id: str
    horizon: int
    quantiles: tuple[float, ...]
    season_length: int
    seasons: tuple[int, ...]  # mstl's season lengths at this frequency


# ---- which statsforecast model fits n observations: one rule per adapter ----------------------------


class _Rule:
    def model_for(self, spec: FitSpec, n: int) -> tuple[object, str | None]:
        raise NotImplementedError


class _NaiveRule(_Rule):
    def model_for(self, spec, n):
        return Naive(), None


class _SeasonalNaiveRule(_Rule):
    def model_for(self, spec, n):
        m = spec.season_length
        if n < m:
            return Naive(), f"{n} observations are fewer than one season of {m}; {spec.model_id} forecast with naive"
        return SeasonalNaive(season_length=m), None


class _AutoRule(_Rule):
    """auto-ets, auto-arima, auto-theta and the like: a minimum history and a seasonal fit."""

    def __init__(self, make: Callable[[int], object], min_history: int = 1):
        self.make = make
        self.min_history = min_history  # fewer observations than this: forecast with naive

    def model_for(self, spec, n):
        m = spec.season_length
        if n < self.min_history:
            return Naive(), f"{spec.model_id} needs at least {self.min_history} observations, got {n}; forecast with naive"
        if m > 1 and n < 2 * m:
            return self.make(1), (
                f"{n} observations are fewer than two seasons of {m}; {spec.model_id} fitted without seasonality"
            )
        return self.make(m), None


class _MSTLRule(_Rule):
    """MSTL over the frequency's season lengths that fit twice into the history (catalog mstl_season_lengths),
    the trend by AutoETS without seasonality (statsforecast's default trend forecaster, a new one per fit:
    the library's default argument is one shared instance, which fit() changes)."""

    min_history = 7  # the trend's AutoETS

    def model_for(self, spec, n):
        if n < self.min_history:
            return Naive(), f"{spec.model_id} needs at least {self.min_history} observations, got {n}; forecast with naive"
        seasons = [s for s in spec.seasons if s > 1 and n >= 2 * s]
        dropped = [s for s in spec.seasons if s > 1 and n < 2 * s]
        if not seasons:
            warning = (
                f"{n} observations are fewer than two seasons of {min(dropped)}; {spec.model_id} forecast with its trend model alone (AutoETS without seasonality)"
                if dropped else None
            )
            return AutoETS(model="ZZN"), warning
        warning = (
            f"{n} observations are fewer than two seasons of {', '.join(map(str, dropped))}; {spec.model_id} decomposed with seasons {', '.join(map(str, seasons))} only"
            if dropped else None
        )
        return MSTL(season_length=seasons, trend_forecaster=AutoETS(model="ZZN")), warning


RULES: dict[str, _Rule] = {
    "naive": _NaiveRule(),
    "seasonal-naive": _SeasonalNaiveRule(),
    # statsforecast raises "tiny datasets" below 7 (ETS) and 4 (Theta) observations
    "auto-ets": _AutoRule(lambda m: AutoETS(season_length=m), min_history=7),
    "auto-arima": _AutoRule(lambda m: AutoARIMA(season_length=m)),
    "auto-theta": _AutoRule(lambda m: AutoTheta(season_length=m), min_history=4),
    # AutoETS restricted to damped-trend models: "tiny datasets" below 8 observations
    "damped-ets": _AutoRule(lambda m: AutoETS(season_length=m, damped=True), min_history=8),
    "dyn-opt-theta": _AutoRule(lambda m: DynamicOptimizedTheta(season_length=m), min_history=4),
    "ces": _AutoRule(lambda m: AutoCES(season_length=m), min_history=7),
    "mstl": _MSTLRule(),
}


# ---- one series, one chunk of series -----------------------------------------------------------------


def predict_series(spec: FitSpec, target: np.ndarray, backtest: tuple | None = None, in_sample: bool = False) -> Prediction:
    """The forecast of one series; with `backtest` (window w, origins K, step s[, refit]) also the forecasts
    of the w values from each cutoff n - w - (k-1)·s (k = 1..K): refit "none" (the default) applies the
    model fitted on the whole history to the history before the cutoff (statsforecast's forward(), what its
    cross_validation(refit=False) does): no refit per origin; refit "form" fits the whole-history fit's
    form again on the history before the cutoff (see _same_form). With `in_sample`, also the same fit's
    in-sample fitted values and intervals over the whole target (NaN before its first observed value)."""
    plan = _interval_plan(spec.quantiles)
    history = fill_missing(target)
    model, warning = RULES[spec.adapter].model_for(spec, history.size)
    warnings = [warning] if warning else []
    fitted = None
    insample = None
    if backtest and backtest[1] > 0:
        mean, rows = _fit_forecast(model, history, spec.horizon, plan)
        fitted = model
        if in_sample:
            insample = _in_sample_rows(model.predict_in_sample(level=plan.levels), plan)
    elif in_sample:
        (mean, rows), insample = _forecast_in_sample(model, history, spec.horizon, plan)
    else:
        mean, rows = _forecast(model, history, spec.horizon, plan)
    usable = insample is None or _in_sample_usable(*insample)
    if not (_finite(mean, rows) and usable) and not isinstance(model, Naive):
        warnings.append(f"{spec.model_id} gave a non-finite forecast or interval; forecast with naive")
        if in_sample:
            (mean, rows), insample = _forecast_in_sample(Naive(), history, spec.horizon, plan)
        else:
            mean, rows = _forecast(Naive(), history, spec.horizon, plan)
        fitted = None
    if not _finite(mean, rows):
        raise FloatingPointError(
            f"non-finite forecast for a series of {history.size} observations "
            f"(last {history[-1]!r}, largest magnitude {np.abs(history).max()!r})"
        )
    wide = _wide_interval(spec.model_id, history, mean, rows)
    if wide:
        warnings.append(wide)
    backtests = _backtests(spec, target, backtest, fitted, plan, history.size) if backtest and backtest[1] > 0 else ()
    return Prediction(
        mean=mean, quantiles=make_monotone(rows), warnings=tuple(warnings), backtest=backtests,
        in_sample=_whole_target(insample, target.size) if in_sample else None,
    )


def _whole_target(insample: tuple[np.ndarray, np.ndarray], n: int) -> tuple[np.ndarray, np.ndarray]:
    """In-sample arrays of the history (fill_missing dropped the leading missing values) laid over the whole
    target: NaN before the first observed value. Levels made monotone where fitted (NaN columns stay NaN)."""
    fitted, rows = insample
    lead = n - fitted.size
    mean = np.full(n, np.nan)
    mean[lead:] = fitted
    quantiles = np.full((rows.shape[0], n), np.nan)
    quantiles[:, lead:] = make_monotone(rows)
    return mean, quantiles


def _same_form(spec: FitSpec, fitted, n: int):
    """An unfitted model of a seasonal `fitted`'s form for a history of n values — AutoETS's chosen
    error/trend/season components and damping, AutoTheta's chosen variant — so a validation window costs one
    fit of one form instead of the whole model search (a seasonal AutoETS search is ~10× one form's fit:
    83 vs 8 ms on 120 monthly values, 704 vs 1 ms on 1,000 hourly ones). None where the adapter's rule must
    choose again: a non-seasonal fit (its whole search costs ~3 ms, and on the yearly evaluation sets keeping
    the form made `auto`'s picks worse: eval/README.md), other models (no search to skip; MSTL: _decomposed_window), or a history the
    rule treats differently (fewer than two seasons, too short)."""
    if getattr(fitted, "season_length", 1) <= 1:
        return None
    rule_model, warning = RULES[spec.adapter].model_for(spec, n)
    if warning or type(rule_model) is not type(fitted):
        return None
    if isinstance(fitted, AutoETS):
        components = fitted.model_["components"]
        return AutoETS(season_length=fitted.season_length, model=components[:3], damped=components[3] != "N")
    if isinstance(fitted, AutoTheta):
        return AutoTheta(season_length=fitted.season_length, decomposition_type=fitted.decomposition_type, model=fitted.model_["modeltype"])
    return None


def _decomposed_window(spec: FitSpec, fitted: MSTL, cut: int, window: int, plan: _IntervalPlan):
    """MSTL's "form" window from its whole-history decomposition, cut after the history's first `cut` values: the
    trend model of the whole-history fit's form (its AutoETS components) fitted again on the seasonally adjusted
    values before the cutoff, each season continued from its last cycle before it (MSTL's own projection). The
    decomposition is ~85 % of an MSTL fit (0.44 of 0.53 s on 700 hourly values) and forward() redoes it, so it is not
    redone: it has seen the window, as forward()'s parameters do; the trend model's parameters have not. None
    (refit) where the rule would decompose `cut` values with other seasons."""
    rule_model, warning = RULES[spec.adapter].model_for(spec, cut)
    seasons = lambda model: list(np.atleast_1d(model.season_length))
    if warning or not isinstance(rule_model, MSTL) or seasons(rule_model) != seasons(fitted):
        return None
    parts = fitted.model_.iloc[:cut]
    adjusted = parts[["trend", "remainder"]].sum(axis=1).to_numpy()
    components = fitted.trend_forecaster.model_["components"]
    trend = AutoETS(model=components[:3], damped=components[3] != "N")
    out = trend.forecast(y=adjusted, h=window, level=plan.levels)
    season = _predict_mstl_seas(parts, h=window, season_length=fitted.season_length)
    return _rows({key: value + season for key, value in out.items()}, window, plan)


def _form_window(spec: FitSpec, fitted, before: np.ndarray, cut: int, window: int, plan: _IntervalPlan):
    """The window after `before` by the whole-history fit's form (refit "form"); None: refit from scratch."""
    if isinstance(fitted, MSTL):
        return _decomposed_window(spec, fitted, cut, window, plan)
    model = _same_form(spec, fitted, before.size)
    return _rows(model.forecast(y=fill_missing(before), h=window, level=plan.levels), window, plan) if model else None


def _backtests(spec: FitSpec, target: np.ndarray, backtest: tuple, fitted, plan: _IntervalPlan, history_size: int):
    window, origins, step = backtest[:3]
    refit = backtest[3] if len(backtest) > 3 else "none"
    lead = target.size - history_size  # leading missing values fill_missing dropped from the fitted history
    out = []
    for k in range(1, origins + 1):
        before = target[: target.size - window - (k - 1) * step]
        values = None
        if fitted is not None:
            try:
                with np.errstate(all="ignore"):
                    if refit == "form":
                        out_k = _form_window(spec, fitted, before, before.size - lead, window, plan)
                    else:
                        out_k = _rows(fitted.forward(y=fill_missing(before), h=window, level=plan.levels), window, plan)
                if out_k is not None and _finite(*out_k):
                    values = (out_k[0], make_monotone(out_k[1]))
            except Exception:  # the fitted form does not apply to this history (e.g. too short for its season)
                values = None
        if values is None:  # refit on the history before the window, as a forecast of it would
            earlier = predict_series(replace(spec, horizon=window), before)
            values = (earlier.mean, earlier.quantiles)
        out.append(values)
    return tuple(out)


def predict_chunk(spec: FitSpec, items: Sequence[tuple[np.ndarray, tuple | None, bool]]) -> list[Prediction]:
    """predict_series over a chunk: what one CPU pool task runs. Fitted in the worker's own thread (no pool), a
    batch whose callers have all gone stops before its next series (cancel.py; a pool process has no stop event)."""
    stop = current_stop()
    out = []
    for done, (target, backtest, in_sample) in enumerate(items):
        if stop is not None and stop.is_set():
            raise BatchStopped(len(items) - done)
        out.append(predict_series(spec, target, backtest, in_sample))
    return out


def sample_seed(target: np.ndarray, seed: int | None = None) -> int:
    """A numpy seed (< 2**32) from the series' values (missing ones included) and the request's seed: equal inputs,
    equal paths."""
    data = np.ascontiguousarray(target, dtype=np.float64).tobytes() + (b"" if seed is None else seed.to_bytes(8, "little", signed=True))
    return int.from_bytes(hashlib.blake2b(data, digest_size=4).digest(), "little")


def simulate_series(spec: FitSpec, target: np.ndarray, paths: int, seed: int | None = None) -> np.ndarray:
    """(paths, horizon) sample paths of one series: the rule's model's own simulate on the filled history."""
    history = fill_missing(target)
    model, _ = RULES[spec.adapter].model_for(spec, history.size)
    drawn = model.simulate(h=spec.horizon, n_paths=paths, y=history, seed=sample_seed(target, seed))
    if not np.isfinite(drawn).all() and not isinstance(model, Naive):
        drawn = Naive().simulate(h=spec.horizon, n_paths=paths, y=history, seed=sample_seed(target, seed))
    return np.asarray(drawn, dtype=np.float64)


def simulate_chunk(spec: FitSpec, paths: int, seed: int | None, targets: Sequence[np.ndarray]) -> list[np.ndarray]:
    """simulate_series over a chunk: what one CPU pool task runs."""
    return [simulate_series(spec, target, paths, seed) for target in targets]


# ---- adapters ------------------------------------------------------------------------------------------

# Below this many series a batch is fitted in the calling thread: handing it to the pool costs more.
POOL_MIN_SERIES = 2


class StatisticalAdapter(Adapter):
    one_batch_at_a_time = False  # per-series fits: batches of one key may run side by side
    supports_backtest = True  # series may carry (window, origins, step[, refit]): forward() or the form refitted at each cutoff
    supports_in_sample = True  # series may ask for the fit's in-sample fitted values and intervals
    # cheap per series (naive, seasonal naive): fitted in the calling thread, the pool's hop would cost more
    in_pool = True
    # every model the adapter's rule picks has statsforecast's simulate (not dyn-opt-theta, mstl)
    supports_samples = True

    def load(self) -> None:
        # The import happened when the registry loaded this module; this runs the first-call set-up.
        warm_up = np.tile([1.0, 3.0, 2.0, 4.0], 4) + np.arange(16) * 0.1
        predict_series(self._spec(4, (0.1, 0.5, 0.9), "Q"), warm_up)

    def _spec(self, horizon: int, quantiles: tuple[float, ...], freq: str) -> FitSpec:
        seasons = tuple(self.catalog.mstl_season_lengths.get(freq, (self.catalog.season_length[freq],)))
        return FitSpec(self.adapter_name, self.model_id, horizon, tuple(quantiles), self.catalog.season_length[freq], seasons)

    def predict_batch(
        self, series: list[SeriesInput], horizon: int, quantiles: tuple[float, ...], freq: str
    ) -> list[Prediction]:
        spec = self._spec(horizon, quantiles, freq)
        items = [(s.target, s.backtest, s.in_sample) for s in series]
        pool = shared_pool() if self.in_pool and len(items) >= POOL_MIN_SERIES else None
        if pool is None:
            return predict_chunk(spec, items)
        return pool.map_chunks(functools.partial(predict_chunk, spec), items)

    def sample_paths(self, series: list[SeriesInput], horizon: int, paths: int, freq: str, seed: int | None = None) -> list[np.ndarray]:
        spec = self._spec(horizon, (), freq)
        targets = [s.target for s in series]
        pool = shared_pool() if self.in_pool and len(targets) >= POOL_MIN_SERIES else None
        if pool is None:
            return simulate_chunk(spec, paths, seed, targets)
        return pool.map_chunks(functools.partial(simulate_chunk, spec, paths, seed), targets)


class NaiveAdapter(StatisticalAdapter):
    in_pool = False


class SeasonalNaiveAdapter(StatisticalAdapter):
    in_pool = False


class AutoETSAdapter(StatisticalAdapter):
    pass


class AutoARIMAAdapter(StatisticalAdapter):
    pass


class AutoThetaAdapter(StatisticalAdapter):
    pass


class DampedETSAdapter(StatisticalAdapter):
    pass


class DynOptThetaAdapter(StatisticalAdapter):
    supports_samples = False


class CESAdapter(StatisticalAdapter):
    pass


class MSTLAdapter(StatisticalAdapter):
    supports_samples = False
