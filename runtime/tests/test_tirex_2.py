"""TiRex-2 (`tirex-2`) through the real worker on a tiny random-weight checkpoint (runtime/tests/fixtures/tirex_2.py,
loaded by the library's own `load_model`): the numbers are the official library's called plainly, compiled as it
ships (tirex_2_reference.py, parity-tolerances.json); past and known-future covariates reach the model and equal the
library's; a joint request is the library's multivariate target; static covariates are ignored with a warning; a
series' forecast is the same alone and inside a batch of concurrent requests; missing weights answer 424."""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from .conftest import model_worker_fixtures
from .helpers import TOLERANCES, assert_parity, assert_prediction_within, gappy_series, model_body, parity_in_a_batch, reference_case
from .tirex_2_reference import reference

MODEL = "tirex-2"
MODELS = {MODEL: "default"}
LEVELS = [0.1, 0.25, 0.5, 0.9]  # 0.25 lies between trained levels: interpolation runs

weights, model_worker = model_worker_fixtures(MODELS)

target = gappy_series


def body(series: list[dict], horizon: int = 24, quantiles=LEVELS, **extra) -> dict:
    return {**model_body(MODELS, MODEL, series, horizon, quantiles), **extra}


def expected(weights, series: list[dict], horizon: int = 24, quantiles=LEVELS, **extra) -> list[dict]:
    return reference([reference_case(weights, MODELS, MODEL, series, horizon, quantiles, **extra)])[0]


def infer(worker, request: dict) -> dict:
    status, answer = worker.infer(**request)
    assert status == 200, answer
    return answer


def assert_shape(prediction: dict, horizon: int) -> None:
    rows = np.array([prediction["quantiles"][key] for key in sorted(prediction["quantiles"], key=float)])
    assert rows.shape == (len(prediction["quantiles"]), horizon) and len(prediction["mean"]) == horizon
    assert np.isfinite(rows).all() and np.isfinite(prediction["mean"]).all()
    assert (np.diff(rows, axis=0) >= 0).all()


def covariate_series(n: int, horizon: int, promo_future=None, price_shift: float = 0.0, static=None) -> dict:
    """price and promo with known future values (unless promo_future is None), weather past-only with a gap."""
    steps = np.arange(n + horizon)
    price = (10 + np.sin(steps / 3)).round(4)
    promo = (steps % 5 == 0).astype(float)
    weather: list = (steps[:n] % 3).astype(float).tolist()
    weather[7] = None
    series = {
        "target": target(n, seed=7),
        "past_covariates": {"price": [p + (price_shift if i >= n - 10 else 0.0) for i, p in enumerate(price[:n])],
                            "promo": promo[:n].tolist(), "weather": weather},
    }
    if promo_future is not None:
        series["future_covariates"] = {"price": price[n:].tolist(), "promo": promo_future}
    if static is not None:
        series["static_covariates"] = static
    return series


# --------------------------------------------------------------------------- parity
def test_forecast_equals_the_official_library(model_worker, weights):
    """Series of different lengths (gaps, leading nulls, the full 2048-step context) and covariate schemas in one
    request, each compared with the library called on it alone."""
    series = [{"target": target(80, seed=1)}, {"target": target(33, seed=2, gaps=False)},
              covariate_series(90, 24, promo_future=[0.0, 1.0] * 12), {"target": target(2048, seed=3)}]
    answer = infer(model_worker, body(series))
    assert answer["warnings"] == []
    for prediction, wanted in zip(answer["predictions"], expected(weights, series), strict=True):
        assert_shape(prediction, 24)
        assert_prediction_within(prediction, wanted, parity_in_a_batch(MODEL), "tirex-2 parity")


def test_a_series_alone_equals_the_library_exactly(model_worker, weights):
    """Alone, the adapter's uncompiled forward (torch.compiler force_eager) gives the compiled library's numbers."""
    for series in ([{"target": target(300, seed=4)}], [covariate_series(60, 12, promo_future=[1.0] * 12)]):
        answer = infer(model_worker, body(series, horizon=12))
        assert_parity(answer["predictions"][0], expected(weights, series, horizon=12)[0], MODEL)


def test_forecast_alone_equals_forecast_in_a_batch_of_concurrent_requests(model_worker):
    requests = [[{"target": target(20 + 41 * i, seed=10 + i, gaps=i % 2 == 0)}] for i in range(6)]
    requests += [[covariate_series(70, 24, promo_future=[1.0] * 24)], [covariate_series(50, 24)]]
    alone = infer(model_worker, body(requests[4]))
    assert alone["timing"]["batch_series"] == 1
    with ThreadPoolExecutor(len(requests)) as pool:
        answers = list(pool.map(lambda series: infer(model_worker, body(series)), requests))
    assert answers[4]["timing"]["batch_series"] > 1, [a["timing"] for a in answers]
    assert_prediction_within(answers[4]["predictions"][0], alone["predictions"][0], TOLERANCES[MODEL]["batch"], MODEL)


# --------------------------------------------------------------------------- covariates
def test_covariates_reach_the_model(model_worker):
    """A known-future value, a past value and having covariates at all each change the forecast."""
    def mean(series: dict) -> np.ndarray:
        return np.array(infer(model_worker, body([series]))["predictions"][0]["mean"])

    base = mean(covariate_series(90, 24, promo_future=[0.0] * 24))
    assert np.abs(base - mean(covariate_series(90, 24, promo_future=[5.0] * 24))).max() > 1e-3
    assert np.abs(base - mean(covariate_series(90, 24, promo_future=[0.0] * 24, price_shift=2.0))).max() > 1e-3
    assert np.abs(base - mean({"target": covariate_series(90, 24)["target"]})).max() > 1e-3


def test_static_covariates_are_ignored_with_a_warning(model_worker):
    with_static = infer(model_worker, body([covariate_series(60, 24, promo_future=[1.0] * 24, static={"store": 3.0})]))
    without = infer(model_worker, body([covariate_series(60, 24, promo_future=[1.0] * 24)]))
    assert [w.split(" covariates")[0] for w in with_static["warnings"]] == ["static"]
    assert with_static["predictions"] == without["predictions"]


# --------------------------------------------------------------------------- joint
def test_joint_forecast_equals_the_library_multivariate_target(model_worker, weights):
    series = [{"target": target(80, seed=1)}, {"target": target(33, seed=2, gaps=False)}, {"target": target(150, seed=5)}]
    answer = infer(model_worker, body(series, multivariate=True))
    wanted = expected(weights, series, joint=True)
    for prediction, reference_prediction in zip(answer["predictions"], wanted, strict=True):
        assert_shape(prediction, 24)
        assert_parity(prediction, reference_prediction, MODEL)
    separate = infer(model_worker, body(series))["predictions"]
    assert any(np.abs(np.array(a["mean"]) - np.array(b["mean"])).max() > 1e-6 for a, b in zip(answer["predictions"], separate))


# --------------------------------------------------------------------------- levels, horizon, weights
@pytest.mark.parametrize("levels,warned", [([0.05, 0.5, 0.95], True), ([0.1, 0.15, 0.85, 0.9], False)])
def test_levels_outside_the_trained_ones_get_the_nearest_with_a_warning(model_worker, levels, warned):
    answer = infer(model_worker, body([{"target": target(50, seed=4)}], horizon=6, quantiles=levels))
    assert bool(answer["warnings"]) == warned, answer["warnings"]
    assert_shape(answer["predictions"][0], 6)


def test_mean_only_and_the_longest_horizon(model_worker):
    answer = infer(model_worker, body([{"target": target(40, seed=5)}], horizon=320, quantiles=[]))
    prediction = answer["predictions"][0]
    assert prediction["quantiles"] == {} and len(prediction["mean"]) == 320
    assert np.isfinite(prediction["mean"]).all()


def test_missing_weights_answer_424(worker):
    assert "HORIZON_MODEL_DIR" not in os.environ
    status, listed = worker.call("GET", "/models")
    assert MODEL not in {entry["model"] for entry in listed["models"]}
    status, answer = worker.call("POST", "/load", {"model": MODEL, "size": "default"})
    assert status == 424 and answer["error"]["code"] == "weights_missing", answer
    assert "config.json and model.safetensors" in answer["error"]["detail"] and "NX-AI/TiRex-2" in answer["error"]["detail"]
