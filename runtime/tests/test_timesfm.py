"""TimesFM 2.5 (`timesfm-2`) and TimesFM 3.0 (`timesfm-3`) through the real worker on tiny random-weight
checkpoints: the numbers are the official APIs' called plainly (timesfm_reference.py) within each model's
measured tolerance (parity-tolerances.json), a series' forecast is the same alone and inside a batch, TimesFM 3
uses its covariates, and the TimesFM 2.5 loader leaves the library's classes alone. Also in-process checks of the compile settings (adapters/timesfm_2.py)."""

from __future__ import annotations

import dataclasses
import shutil
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from horizon_runtime.catalog import load_catalog

from .conftest import CATALOG, model_worker_fixtures
from .helpers import (
    TOLERANCES, assert_float32_close, assert_parity, assert_prediction_within, assert_within, gappy_series, model_body, parity_in_a_batch,
    reference_case, seasonal_series,
)
from .timesfm_reference import reference

MODELS = {"timesfm-2": "200m", "timesfm-3": "330m"}
LEVELS = [0.05, 0.1, 0.25, 0.5, 0.9]  # 0.05 is clamped to 0.1 (warning), 0.25 interpolated


timesfm_weights, timesfm_worker = model_worker_fixtures(MODELS, weights_name="timesfm_weights")


target = gappy_series


def body(model: str, series: list[dict], horizon: int = 24, quantiles=LEVELS) -> dict:
    return model_body(MODELS, model, series, horizon, quantiles)


def expected(weights, model: str, series: list[dict], horizon: int = 24, quantiles=LEVELS) -> list[dict]:
    return reference([reference_case(weights, MODELS, model, series, horizon, quantiles)])[0]


assert_close = assert_float32_close


def assert_prediction(actual: dict, wanted: dict, rtol: float = 1e-5) -> None:
    assert actual["quantiles"].keys() == wanted["quantiles"].keys()
    assert_close(actual["mean"], wanted["mean"], rtol=rtol)
    for key, values in wanted["quantiles"].items():
        assert_close(actual["quantiles"][key], values, rtol=rtol)


def assert_monotone(prediction: dict, horizon: int) -> None:
    rows = np.array([prediction["quantiles"][key] for key in sorted(prediction["quantiles"], key=float)])
    assert rows.shape == (len(prediction["quantiles"]), horizon) and len(prediction["mean"]) == horizon
    assert np.isfinite(rows).all() and np.isfinite(prediction["mean"]).all()
    assert (np.diff(rows, axis=0) >= 0).all()


def covariate_series(n: int, horizon: int, promo_future=None, seed: int = 7) -> dict:
    """A hist-only variable (weather, with a missing value), two known-future ones (price, promo)."""
    steps = np.arange(n + horizon)
    price = (10 + np.sin(steps / 3)).round(4).tolist()
    promo = (steps % 5 == 0).astype(float).tolist()
    weather: list = (steps[:n] % 3).astype(float).tolist()
    weather[n // 3] = None
    return {
        "target": target(n, seed=seed),
        "past_covariates": {"price": price[:n], "weather": weather, "promo": promo[:n]},
        "future_covariates": {"price": price[n:], "promo": promo_future if promo_future is not None else promo[n:]},
    }


def test_models_lists_both_sizes(timesfm_worker):
    status, answer = timesfm_worker.call("GET", "/models")
    assert status == 200, answer
    listed = {entry["model"]: entry["sizes"] for entry in answer["models"]}
    assert listed["timesfm-2"] == ["200m"] and listed["timesfm-3"] == ["330m"]


@pytest.mark.parametrize("model", list(MODELS))
def test_forecast_equals_the_official_api(timesfm_worker, timesfm_weights, model):
    series = [{"target": target(80, seed=1)}]
    status, answer = timesfm_worker.infer(**body(model, series))
    assert status == 200, answer
    clamped = "quantile levels 0.05 lie outside 0.1-0.9, the levels this model predicts; they get the values of the nearest predicted level"
    assert answer["warnings"] == [f"series 0: {clamped}"]
    prediction = answer["predictions"][0]
    assert_monotone(prediction, 24)
    assert prediction["mean"] == prediction["quantiles"]["0.5"]  # mean is the median output
    assert_parity(prediction, expected(timesfm_weights, model, series)[0], model)


def test_timesfm_3_covariates_equal_the_official_api(timesfm_worker, timesfm_weights):
    series = [covariate_series(90, 30)]
    status, answer = timesfm_worker.infer(**body("timesfm-3", series, horizon=30, quantiles=[0.1, 0.5, 0.9]))
    assert status == 200, answer
    assert answer["warnings"] == []
    assert_monotone(answer["predictions"][0], 30)
    assert_parity(answer["predictions"][0], expected(timesfm_weights, "timesfm-3", series, 30, [0.1, 0.5, 0.9])[0], "timesfm-3")


def test_timesfm_3_future_covariates_change_the_forecast(timesfm_worker):
    answers = [
        timesfm_worker.infer(**body("timesfm-3", [s], horizon=30))[1]
        for s in (covariate_series(90, 30), covariate_series(90, 30, promo_future=[3.0] * 30))
    ]
    first, second = (np.array(a["predictions"][0]["mean"]) for a in answers)
    assert np.abs(first - second).max() > 1e-3


def test_timesfm_3_past_only_covariates_change_the_forecast(timesfm_worker):
    plain = covariate_series(90, 12)
    changed = covariate_series(90, 12)
    # another shape: the model standardises each covariate by its own history, so a rescaled one is the same
    changed["past_covariates"]["weather"] = [float(np.cos(i / 2)) for i in range(90)]
    first, second = (np.array(timesfm_worker.infer(**body("timesfm-3", [s], horizon=12))[1]["predictions"][0]["mean"])
                     for s in (plain, changed))
    assert np.abs(first - second).max() > 1e-3


def test_timesfm_3_missing_covariate_values_are_interpolated(timesfm_worker):
    """A null inside a covariate is the linear interpolation of its neighbours; before its first known
    value (here, in the last of the history) a covariate holds the nearest one."""
    gap = covariate_series(90, 12)
    filled = covariate_series(90, 12)
    weather = filled["past_covariates"]["weather"]
    i = weather.index(None)
    weather[i] = (weather[i - 1] + weather[i + 1]) / 2
    gap["past_covariates"]["price"][:10] = [None] * 10
    filled["past_covariates"]["price"][:10] = [filled["past_covariates"]["price"][10]] * 10
    answers = [timesfm_worker.infer(**body("timesfm-3", [s], horizon=12))[1] for s in (gap, filled)]
    assert_prediction(answers[0]["predictions"][0], answers[1]["predictions"][0], rtol=1e-6)


@pytest.mark.parametrize("model", list(MODELS))
def test_forecast_alone_equals_forecast_in_a_batch_of_concurrent_requests(timesfm_worker, model):
    targets = [target(30 + 37 * i, seed=10 + i, gaps=i % 2 == 0) for i in range(8)]
    status, alone = timesfm_worker.infer(**body(model, [{"target": targets[4]}]))
    assert status == 200, alone
    assert alone["timing"]["batch_series"] == 1
    with ThreadPoolExecutor(len(targets)) as pool:
        answers = list(pool.map(lambda t: timesfm_worker.infer(**body(model, [{"target": t}])), targets))
    assert all(status == 200 for status, _ in answers), answers
    assert answers[4][1]["timing"]["batch_series"] > 1, [a["timing"] for _, a in answers]
    assert_prediction_within(answers[4][1]["predictions"][0], alone["predictions"][0], TOLERANCES[model]["batch"], model)


def test_timesfm_3_covariate_schemas_mix_in_one_batch(timesfm_worker):
    """Series with different covariates (and none) share a batch and keep their own forecasts: the
    library would give a series without covariates zeros in their place next to one that has some."""
    requests = [
        [covariate_series(90, 30)],
        [{"target": target(70, seed=8)}],
        [{"target": target(60, seed=9), "past_covariates": {"x": [float(i % 4) for i in range(60)]}}],
        [covariate_series(75, 30, seed=3)],
    ]
    alone = [timesfm_worker.infer(**body("timesfm-3", series, horizon=30))[1] for series in requests]
    with ThreadPoolExecutor(len(requests)) as pool:
        together = list(pool.map(lambda s: timesfm_worker.infer(**body("timesfm-3", s, horizon=30))[1], requests))
    assert max(answer["timing"]["batch_series"] for answer in together) > 1
    for single, batched in zip(alone, together):
        assert_prediction_within(batched["predictions"][0], single["predictions"][0], TOLERANCES["timesfm-3"]["batch"], "timesfm-3")


def test_unused_covariates_are_ignored_with_a_warning(timesfm_worker):
    series = covariate_series(90, 12)
    bare = {"target": series["target"]}
    # timesfm-2 uses none
    answer = timesfm_worker.infer(**body("timesfm-2", [{**series, "static_covariates": {"store": 3.0}}], horizon=12))[1]
    assert {w.split(" covariates")[0] for w in answer["warnings"] if "covariates ignored" in w} == {"past", "future", "static"}
    assert answer["predictions"] == timesfm_worker.infer(**body("timesfm-2", [bare], horizon=12))[1]["predictions"]
    # timesfm-3 uses past and future ones, not static ones
    with_static = timesfm_worker.infer(**body("timesfm-3", [{**series, "static_covariates": {"store": 3.0}}], horizon=12))[1]
    assert [w for w in with_static["warnings"] if "covariates ignored" in w] == ["static covariates ignored: timesfm-3 does not use them"]
    without = timesfm_worker.infer(**body("timesfm-3", [series], horizon=12))[1]
    assert with_static["predictions"] == without["predictions"]


@pytest.mark.parametrize("model", list(MODELS))
def test_mean_only_the_longest_horizon_and_the_longest_context(timesfm_worker, timesfm_weights, model):
    caps = load_catalog(CATALOG).models[model].sizes[MODELS[model]]
    series = [{"target": target(caps.max_context, seed=5)}, {"target": target(40, seed=6, gaps=False)}]
    status, answer = timesfm_worker.infer(**body(model, series, horizon=caps.max_horizon, quantiles=[]))
    assert status == 200, answer
    for prediction in answer["predictions"]:
        assert prediction["quantiles"] == {} and len(prediction["mean"]) == caps.max_horizon
        assert np.isfinite(prediction["mean"]).all()
    wanted = expected(timesfm_weights, model, series[1:], horizon=caps.max_horizon, quantiles=[])
    assert_within(answer["predictions"][1]["mean"], wanted[0]["mean"], parity_in_a_batch(model), model)  # beside series 0


# In process: the TimesFM 2.5 loader and compile settings.

def tiny_timesfm_2(weights):
    from horizon_runtime.adapters import timesfm_2

    return timesfm_2.load_model(weights / "timesfm-2" / "200m", "cpu")


def test_timesfm_2_loader_leaves_the_library_classes_alone(timesfm_weights):
    from horizon_runtime.adapters import timesfm_2
    from timesfm.timesfm_2p5.timesfm_2p5_base import TimesFM_2p5_200M_Definition
    from timesfm.timesfm_2p5.timesfm_2p5_torch import TimesFM_2p5_200M_torch_module

    published = TimesFM_2p5_200M_torch_module.config
    model = tiny_timesfm_2(timesfm_weights)
    assert TimesFM_2p5_200M_torch_module.config is published and published == TimesFM_2p5_200M_Definition()
    assert type(model.model) is not TimesFM_2p5_200M_torch_module
    assert model.model.config.stacked_transformers.transformer.model_dims == 32
    assert sum(p.numel() for p in model.model.parameters()) == 757_184
    # a published config.json ({"torch_compile": false}) selects the library's own module class
    assert timesfm_2.definition_from_config({"torch_compile": False}) is None
    round_trip = {"torch_compile": False, timesfm_2.DEFINITION_KEY: timesfm_2.definition_to_config(published)}
    assert timesfm_2.definition_from_config(round_trip) == published


def test_timesfm_2_compile_settings_change_the_numbers_only_by_rounding(timesfm_weights):
    """Compiling with the catalog caps, with the request's own sizes and with the adapter's buckets
    gives the same forecast up to float32 rounding (padding is masked, positions are relative)."""
    from horizon_runtime.adapters import timesfm_2

    model = tiny_timesfm_2(timesfm_weights)
    caps = load_catalog(CATALOG).models["timesfm-2"].sizes["200m"]
    values = np.array(seasonal_series(300, 7, seed=2))
    for horizon in (12, 200):
        settings = {
            "caps": (caps.max_context, caps.max_horizon),
            "request": (320, timesfm_2.horizon_bucket(horizon)),  # the library's own rounding: patches of 32 / 128
            "adapter": (timesfm_2.context_bucket(300, caps.max_context), timesfm_2.horizon_bucket(horizon)),
            "request, caps horizon": (320, caps.max_horizon),
        }
        forecasts = {}
        for name, (max_context, max_horizon) in settings.items():
            model.compile(timesfm_2.forecast_config(max_context, max_horizon))
            forecasts[name] = model.forecast(horizon, inputs=[values])[1][0]
        for name, full in forecasts.items():
            np.testing.assert_allclose(full, forecasts["request"], rtol=2e-6, atol=2e-6 * 130, err_msg=f"{name}, horizon {horizon}")


def test_timesfm_2_caps_beyond_the_checkpoint_fail_the_load(timesfm_weights, monkeypatch):
    from horizon_runtime.adapters.timesfm_2 import TimesFM2Adapter

    monkeypatch.setenv("HORIZON_MODEL_DIR", str(timesfm_weights))
    monkeypatch.setenv("HORIZON_DEVICE", "cpu")
    catalog = load_catalog(CATALOG)
    model = catalog.models["timesfm-2"]
    too_long = dataclasses.replace(model.sizes["200m"], max_context=16000)  # 16000 + 1024 > 16384
    catalog.models["timesfm-2"] = dataclasses.replace(model, sizes={"200m": too_long})
    with pytest.raises(ValueError, match="context limit"):
        TimesFM2Adapter(catalog.models["timesfm-2"], "200m", catalog).load()


def test_timesfm_3_checkpoint_missing_tensors_fails_the_load(timesfm_weights, tmp_path, monkeypatch):
    from horizon_runtime.adapters.timesfm_3 import TimesFM3Adapter
    from safetensors.torch import load_file, save_file

    directory = tmp_path / "timesfm-3" / "330m"
    shutil.copytree(timesfm_weights / "timesfm-3" / "330m", directory)
    tensors = load_file(directory / "model.safetensors")
    tensors.pop(min(tensors))
    save_file(tensors, directory / "model.safetensors")
    monkeypatch.setenv("HORIZON_MODEL_DIR", str(tmp_path))
    monkeypatch.setenv("HORIZON_DEVICE", "cpu")
    catalog = load_catalog(CATALOG)
    with pytest.raises(ValueError, match="lacks 1 of the model's"):
        TimesFM3Adapter(catalog.models["timesfm-3"], "330m", catalog).load()
