"""Chronos forecasts through the real worker on tiny random-weight checkpoints: the numbers are the
official pipeline's called plainly (chronos_reference.py) within each model's measured tolerance
(parity-tolerances.json), a series' forecast is the same alone and inside a batch of concurrent requests, and
Chronos-2 uses the covariates."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from horizon_runtime.catalog import load_catalog

from .chronos_reference import reference
from .conftest import CATALOG
from .helpers import TOLERANCES, assert_parity, assert_prediction_within, gappy_series, with_seeds

SIZES = [(model, size) for model in ("chronos", "chronos-bolt", "chronos-2") for size in load_catalog(CATALOG).models[model].sizes]
LEVELS = [0.05, 0.1, 0.5, 0.9]  # 0.05 lies below Bolt's trained levels: interpolation and clamping both run

target = gappy_series


def body(model: str, size: str, series: list[dict], horizon: int = 24, quantiles=LEVELS) -> dict:
    return {"model": model, "size": size, "freq": "D", "horizon": horizon, "quantiles": quantiles, "series": series}


def expected(weights, model: str, size: str, series: list[dict], horizon: int = 24, quantiles=LEVELS) -> list[dict]:
    """The library called plainly on each series (Chronos-T5 seeded with the seed the worker draws it with)."""
    series = with_seeds(series, model) if model == "chronos" else series
    case = {"weights": str(weights / model / size), "model": model, "horizon": horizon, "quantiles": quantiles, "series": series}
    return reference([case])[0]


def assert_monotone(prediction: dict, horizon: int) -> None:
    rows = np.array([prediction["quantiles"][key] for key in sorted(prediction["quantiles"], key=float)])
    assert rows.shape == (len(prediction["quantiles"]), horizon) and len(prediction["mean"]) == horizon
    assert np.isfinite(rows).all() and np.isfinite(prediction["mean"]).all()
    assert (np.diff(rows, axis=0) >= 0).all()


@pytest.mark.parametrize("model,size", SIZES)
def test_forecast_equals_the_official_pipeline(chronos_worker, chronos_weights, model, size):
    series = [{"target": target(80, seed=1)}]
    status, answer = chronos_worker.infer(**body(model, size, series))
    assert status == 200, answer
    prediction = answer["predictions"][0]
    assert_monotone(prediction, 24)
    assert_parity(prediction, expected(chronos_weights, model, size, series)[0], model)


@pytest.mark.parametrize("model,size", [("chronos", "small"), ("chronos-bolt", "base"), ("chronos-2", "small")])
def test_forecast_alone_equals_forecast_in_a_batch_of_concurrent_requests(chronos_worker, model, size):
    targets = [target(30 + 17 * i, seed=10 + i, gaps=i % 2 == 0) for i in range(10)]
    status, alone = chronos_worker.infer(**body(model, size, [{"target": targets[4]}]))
    assert status == 200, alone
    assert alone["timing"]["batch_series"] == 1

    with ThreadPoolExecutor(len(targets)) as pool:
        answers = list(pool.map(lambda t: chronos_worker.infer(**body(model, size, [{"target": t}])), targets))
    assert all(status == 200 for status, _ in answers), answers
    assert answers[4][1]["timing"]["batch_series"] > 1, [a["timing"] for _, a in answers]
    assert_prediction_within(answers[4][1]["predictions"][0], alone["predictions"][0], TOLERANCES[model]["batch"], model)


def test_repeated_requests_give_the_same_chronos_t5_samples(chronos_worker):
    request = body("chronos", "tiny", [{"target": target(60, seed=3)}, {"target": target(60, seed=3)}])
    first = chronos_worker.infer(**request)[1]["predictions"]
    second = chronos_worker.infer(**request)[1]["predictions"]
    assert first == second
    assert first[0] == first[1]  # equal series, equal seeds, equal samples


def covariate_series(n: int, horizon: int, promo_future=None, static=None) -> dict:
    steps = np.arange(n + horizon)
    price = (10 + np.sin(steps / 3)).round(4).tolist()
    promo = (steps % 5 == 0).astype(float).tolist()
    series = {
        "target": target(n, seed=7),
        "past_covariates": {"price": price[:n], "promo": promo[:n], "weather": (steps[:n] % 3).astype(float).tolist()},
        "future_covariates": {"price": price[n:], "promo": promo_future if promo_future is not None else promo[n:]},
    }
    if static is not None:
        series["static_covariates"] = static
    return series


def test_chronos_2_covariates_equal_the_official_pipeline(chronos_worker, chronos_weights):
    series = [covariate_series(90, 30)]
    status, answer = chronos_worker.infer(**body("chronos-2", "base", series, horizon=30))
    assert status == 200, answer
    assert answer["warnings"] == []
    assert_monotone(answer["predictions"][0], 30)
    assert_parity(answer["predictions"][0], expected(chronos_weights, "chronos-2", "base", series, horizon=30)[0], "chronos-2")


def test_chronos_2_future_covariates_change_the_forecast(chronos_worker):
    plain = covariate_series(90, 30)
    changed = covariate_series(90, 30, promo_future=[3.0] * 30)
    answers = [chronos_worker.infer(**body("chronos-2", "small", [s], horizon=30))[1] for s in (plain, changed)]
    first, second = (np.array(a["predictions"][0]["mean"]) for a in answers)
    assert np.abs(first - second).max() > 1e-3


def test_chronos_2_covariate_schemas_mix_in_one_batch(chronos_worker):
    """Series with different covariates (and none) share a batch and keep their own forecasts."""
    requests = [
        [covariate_series(90, 30)],
        [{"target": target(70, seed=8)}],
        [{"target": target(60, seed=9), "past_covariates": {"x": [float(i % 4) for i in range(60)]}}],
    ]
    alone = [chronos_worker.infer(**body("chronos-2", "small", series, horizon=30))[1] for series in requests]
    with ThreadPoolExecutor(len(requests)) as pool:
        together = list(pool.map(lambda s: chronos_worker.infer(**body("chronos-2", "small", s, horizon=30))[1], requests))
    assert max(answer["timing"]["batch_series"] for answer in together) > 1
    for single, batched in zip(alone, together):
        assert_prediction_within(batched["predictions"][0], single["predictions"][0], TOLERANCES["chronos-2"]["batch"], "chronos-2")


def test_chronos_2_static_covariates_go_in_as_constants_with_a_warning(chronos_worker):
    plain = chronos_worker.infer(**body("chronos-2", "small", [covariate_series(90, 12)], horizon=12))[1]
    static = chronos_worker.infer(**body("chronos-2", "small", [covariate_series(90, 12, static={"store": 3.0})], horizon=12))[1]
    assert static["warnings"] and "constant covariates" in static["warnings"][0]
    assert plain["predictions"][0]["mean"] != static["predictions"][0]["mean"]  # they reach the model


def test_models_without_covariates_ignore_them_with_a_warning(chronos_worker):
    series = covariate_series(90, 12, static={"store": 3.0})
    status, answer = chronos_worker.infer(**body("chronos-bolt", "tiny", [series], horizon=12, quantiles=[0.1, 0.9]))
    assert status == 200, answer
    assert {w.split(" covariates")[0] for w in answer["warnings"]} == {"past", "future", "static"}
    bare = chronos_worker.infer(**body("chronos-bolt", "tiny", [{"target": series["target"]}], horizon=12, quantiles=[0.1, 0.9]))[1]
    assert answer["predictions"] == bare["predictions"]


@pytest.mark.parametrize("model,levels,warned", [("chronos-bolt", [0.05, 0.5, 0.95], True), ("chronos-2", [0.005, 0.5], True),
                                                 ("chronos-2", [0.01, 0.33, 0.99], False), ("chronos", [0.001, 0.999], False)])
def test_levels_outside_the_trained_ones_are_clamped_with_a_warning(chronos_worker, model, levels, warned):
    size = load_catalog(CATALOG).models[model].default_size
    status, answer = chronos_worker.infer(**body(model, size, [{"target": target(50, seed=4)}], horizon=6, quantiles=levels))
    assert status == 200, answer
    assert bool(answer["warnings"]) == warned, answer["warnings"]
    assert_monotone(answer["predictions"][0], 6)


@pytest.mark.parametrize("model", ["chronos", "chronos-bolt", "chronos-2"])
def test_mean_only_and_the_longest_horizon(chronos_worker, model):
    catalog_model = load_catalog(CATALOG).models[model]
    horizon = catalog_model.sizes[catalog_model.default_size].max_horizon
    request = body(model, catalog_model.default_size, [{"target": target(40, seed=5)}], horizon=horizon, quantiles=[])
    status, answer = chronos_worker.infer(**request)
    assert status == 200, answer
    assert answer["predictions"][0]["quantiles"] == {} and len(answer["predictions"][0]["mean"]) == horizon


def _decode(text: str, dtype: str) -> list[float]:
    import base64

    return np.frombuffer(base64.b64decode(text), dtype="<f4" if dtype == "float32" else "<f8").astype(np.float64).tolist()


@pytest.mark.parametrize("model,size", [("chronos", "small"), ("chronos-bolt", "small"), ("chronos-2", "small")])
def test_float32_answers_carry_exactly_the_float64_answers_values(chronos_worker, model, size):
    """"float32": true with base64: Chronos' outputs are float32, so the answer says "dtype": "float32",
    and each value widened back to float64 is bitwise the value of the JSON (float64) answer. Levels at
    the trained ones (no interpolation in float64)."""
    series = [{"target": target(80, seed=5)}, {"target": target(60, seed=6, gaps=False)}]
    levels = [0.1, 0.5, 0.9]
    status, plain = chronos_worker.infer(**body(model, size, series, quantiles=levels))
    assert status == 200, plain
    status, narrow = chronos_worker.infer(**body(model, size, series, quantiles=levels), encoding="base64", float32=True)
    assert status == 200, narrow
    assert narrow["dtype"] == "float32"
    status, wide = chronos_worker.infer(**body(model, size, series, quantiles=levels), encoding="base64")
    assert status == 200, wide
    assert wide["dtype"] == "float64"
    for answer in (narrow, wide):
        for got, wanted in zip(answer["predictions"], plain["predictions"], strict=True):
            assert isinstance(got["mean"], str)  # base64, not an array
            assert _decode(got["mean"], answer["dtype"]) == wanted["mean"]
            assert got["quantiles"].keys() == wanted["quantiles"].keys()
            for key, values in wanted["quantiles"].items():
                assert _decode(got["quantiles"][key], answer["dtype"]) == values, key

