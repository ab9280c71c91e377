"""The worker's numbers equal statsforecast's own, called directly on the same input in this process."""

from __future__ import annotations

import numpy as np
import pytest
from statsforecast.models import _predict_mstl_seas
from statsforecast.models import MSTL, AutoARIMA, AutoCES, AutoETS, AutoTheta, DynamicOptimizedTheta, Naive, SeasonalNaive

from .helpers import infer_body, seasonal_series

QUANTILES = [0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95]
SEASON = {"Q": 4, "MS": 12}

MODELS = {
    "naive": lambda m: Naive(),
    "seasonal-naive": lambda m: SeasonalNaive(season_length=m),
    "auto-ets": lambda m: AutoETS(season_length=m),
    "auto-arima": lambda m: AutoARIMA(season_length=m),
    "auto-theta": lambda m: AutoTheta(season_length=m),
    "damped-ets": lambda m: AutoETS(season_length=m, damped=True),
    "dyn-opt-theta": lambda m: DynamicOptimizedTheta(season_length=m),
    "ces": lambda m: AutoCES(season_length=m),
    "mstl": lambda m: MSTL(season_length=[m], trend_forecaster=AutoETS(model="ZZN")),
}


def _shape(out: dict, quantiles: list[float]) -> dict:
    level_of = {q: round(100 * abs(2 * q - 1), 10) for q in quantiles}
    quantile_values = {}
    for q in quantiles:
        key = "mean" if q == 0.5 else f"{'lo' if q < 0.5 else 'hi'}-{level_of[q]}"
        quantile_values[repr(q)] = np.asarray(out[key], dtype=np.float64).tolist()
    return {"mean": np.asarray(out["mean"], dtype=np.float64).tolist(), "quantiles": quantile_values}


def _levels(quantiles: list[float]) -> list[float]:
    return sorted({round(100 * abs(2 * q - 1), 10) for q in quantiles} - {0.0})


def direct_forecast(model, target: list[float], horizon: int, quantiles: list[float]) -> dict:
    """statsforecast's forecast in the protocol's shape: quantile q is the bound of the 100*|2q-1| interval."""
    return _shape(model.forecast(y=np.array(target, dtype=np.float64), h=horizon, level=_levels(quantiles)), quantiles)


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


# the validation forecasts prism and auto ask for: the model fitted once on the whole history, then
# statsforecast's forward() on the history before each cutoff (its cross_validation(refit=False))
BACKTEST_CASES = [(model, "MS", 60) for model in MODELS if model != "auto-arima"] + [("auto-arima", "Q", 48)]


@pytest.mark.parametrize("model, freq, length", BACKTEST_CASES)
def test_backtest_is_statsforecast_forward(worker, model, freq, length):
    m = SEASON[freq]
    target = seasonal_series(length, m, seed=length + 1)
    horizon, window, step = 2 * m, m, m // 2
    series = [{"target": target, "backtest": {"window": window, "origins": 3, "step": step}}]
    status, body = worker.infer(**infer_body(model, series=series, freq=freq, horizon=horizon, quantiles=QUANTILES))
    assert status == 200, body
    [answer] = body["predictions"]
    fitted = MODELS[model](m)
    fitted.fit(y=np.array(target, dtype=np.float64))
    # the forecast itself is the plain forecast's
    assert {"mean": answer["mean"], "quantiles": answer["quantiles"]} == direct_forecast(MODELS[model](m), target, horizon, QUANTILES)
    for k, got in enumerate(answer["backtest"], start=1):
        cutoff = length - window - (k - 1) * step
        out = fitted.forward(y=np.array(target[:cutoff], dtype=np.float64), h=window, level=_levels(QUANTILES))
        assert got == _shape(out, QUANTILES), (model, k)


# model "auto"'s default validation (backtest refit "form"): the whole-history fit's form — AutoETS's
# components and damping, AutoTheta's variant — fitted again on the history before each cutoff; MSTL keeps its
# whole-history decomposition (test below); every other model, and a non-seasonal fit, is searched again from
# scratch (the plain forecast of that history)
def _same_form(model: str, fitted, m: int):
    if model in ("auto-ets", "damped-ets"):
        components = fitted.model_["components"]
        return AutoETS(season_length=m, model=components[:3], damped=components[3] != "N")
    if model == "auto-theta":
        return AutoTheta(season_length=m, model=fitted.model_["modeltype"])
    return MODELS[model](m)


FORM_CASES = [("auto-ets", "MS", 60), ("damped-ets", "MS", 60), ("auto-theta", "MS", 60), ("auto-theta", "Q", 48),
              ("seasonal-naive", "MS", 60), ("dyn-opt-theta", "MS", 60)]


@pytest.mark.parametrize("model, freq, length", FORM_CASES)
def test_backtest_refit_form_fits_the_chosen_form_again(worker, model, freq, length):
    m = SEASON[freq]
    target = seasonal_series(length, m, seed=length + 2)
    horizon, window, step = 2 * m, m, m
    series = [{"target": target, "backtest": {"window": window, "origins": 2, "step": step, "refit": "form"}}]
    status, body = worker.infer(**infer_body(model, series=series, freq=freq, horizon=horizon, quantiles=QUANTILES))
    assert status == 200, body
    [answer] = body["predictions"]
    assert {"mean": answer["mean"], "quantiles": answer["quantiles"]} == direct_forecast(MODELS[model](m), target, horizon, QUANTILES)
    fitted = MODELS[model](m).fit(y=np.array(target, dtype=np.float64))
    forward = []
    for k, got in enumerate(answer["backtest"], start=1):
        cutoff = length - window - (k - 1) * step
        assert got == direct_forecast(_same_form(model, fitted, m), target[:cutoff], window, QUANTILES), (model, k)
        forward.append(_shape(fitted.forward(y=np.array(target[:cutoff], dtype=np.float64), h=window, level=_levels(QUANTILES)), QUANTILES))
    if model != "seasonal-naive":  # a fitted model's windows are not the refit-free ones
        assert answer["backtest"] != forward


def test_backtest_refit_form_of_mstl_cuts_its_whole_history_decomposition(worker):
    # the decomposition (most of an MSTL fit) is not redone per window: its parts before the cutoff, the trend's
    # AutoETS form fitted again on the seasonally adjusted values there, each season continued from its last cycle
    m, length = 12, 60
    target = seasonal_series(length, m, seed=length + 3)
    horizon, window, step = 2 * m, m, m
    series = [{"target": target, "backtest": {"window": window, "origins": 2, "step": step, "refit": "form"}}]
    status, body = worker.infer(**infer_body("mstl", series=series, freq="MS", horizon=horizon, quantiles=QUANTILES))
    assert status == 200, body
    [answer] = body["predictions"]
    assert {"mean": answer["mean"], "quantiles": answer["quantiles"]} == direct_forecast(MODELS["mstl"](m), target, horizon, QUANTILES)
    fitted = MODELS["mstl"](m).fit(y=np.array(target, dtype=np.float64))
    components = fitted.trend_forecaster.model_["components"]
    refits = []
    for k, got in enumerate(answer["backtest"], start=1):
        cutoff = length - window - (k - 1) * step
        parts = fitted.model_.iloc[:cutoff]
        trend = AutoETS(model=components[:3], damped=components[3] != "N")
        out = trend.forecast(y=parts[["trend", "remainder"]].sum(axis=1).to_numpy(), h=window, level=_levels(QUANTILES))
        season = _predict_mstl_seas(parts, h=window, season_length=[m])
        assert got == _shape({key: value + season for key, value in out.items()}, QUANTILES), k
        refits.append(direct_forecast(MODELS["mstl"](m), target[:cutoff], window, QUANTILES))
    assert answer["backtest"] != refits  # not a new decomposition per window


def test_backtest_refit_form_searches_a_non_seasonal_fit_again(worker):
    target = seasonal_series(30, 4, seed=7)  # yearly: season length 1
    series = [{"target": target, "backtest": {"window": 4, "origins": 2, "refit": "form"}}]
    status, body = worker.infer(**infer_body("auto-ets", series=series, freq="Y", horizon=4, quantiles=QUANTILES))
    assert status == 200, body
    for k, got in enumerate(body["predictions"][0]["backtest"], start=1):
        assert got == direct_forecast(AutoETS(season_length=1), target[: 30 - 4 * k], 4, QUANTILES), k


def test_backtest_refit_must_be_none_or_form(worker):
    series = [{"target": seasonal_series(48, 4, seed=1), "backtest": {"window": 4, "origins": 2, "refit": "yes"}}]
    status, body = worker.infer(**infer_body("auto-ets", series=series, freq="Q", horizon=4, quantiles=QUANTILES))
    assert status == 400, body
    assert body["error"]["code"] == "bad_request" and "backtest.refit" in body["error"]["detail"], body
