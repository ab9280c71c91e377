"""TiRex (`tirex`) and Yug (`house-tsfm`) through the real worker on tiny random-weight checkpoints
(runtime/tests/fixtures): the numbers are the official libraries' called plainly
(tirex_yug_reference.py, parity-tolerances.json), a series' forecast is the same alone, inside a batch of
concurrent requests and on every request, Yug uses past covariates (and cannot take future or static ones),
TiRex ignores covariates, and missing weights answer 424."""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from .conftest import model_worker_fixtures
from .helpers import TOLERANCES, assert_parity, assert_prediction_within, gappy_series, model_body, parity_in_a_batch, reference_case, with_seeds
from .tirex_yug_reference import reference

MODELS = {"tirex": "default", "house-tsfm": "base"}
LEVELS = [0.1, 0.25, 0.5, 0.9]  # 0.25 lies between trained levels: interpolation runs


weights, model_worker = model_worker_fixtures(MODELS)


target = gappy_series


def body(model: str, series: list[dict], horizon: int = 24, quantiles=LEVELS, freq: str = "D") -> dict:
    return model_body(MODELS, model, series, horizon, quantiles, freq)


def expected(weights: Path, model: str, series: list[dict], horizon: int = 24, quantiles=LEVELS, freq: str = "D") -> list[dict]:
    """The library called plainly on each series (Yug seeded with the seed the worker draws it with)."""
    series = with_seeds(series, model) if model == "house-tsfm" else series
    return reference([reference_case(weights, MODELS, model, series, horizon, quantiles, freq=freq)])[0]


def assert_monotone(prediction: dict, horizon: int) -> None:
    rows = np.array([prediction["quantiles"][key] for key in sorted(prediction["quantiles"], key=float)])
    assert rows.shape == (len(prediction["quantiles"]), horizon) and len(prediction["mean"]) == horizon
    assert np.isfinite(rows).all() and np.isfinite(prediction["mean"]).all()
    assert (np.diff(rows, axis=0) >= 0).all()


def infer(worker, request: dict) -> dict:
    status, answer = worker.infer(**request)
    assert status == 200, answer
    return answer


# --------------------------------------------------------------------------- parity and shape
@pytest.mark.parametrize("model,freq", [("tirex", "D"), ("house-tsfm", "MS"), ("house-tsfm", "Y")])
def test_forecast_equals_the_official_library(model_worker, weights, model, freq):
    """Three series of different lengths (gaps, leading nulls) in one request, each compared with the
    library called on it alone; Y checks Yug's annual bucket mapping end to end."""
    series = [{"target": target(80, seed=1)}, {"target": target(33, seed=2, gaps=False)}, {"target": target(300, seed=3)}]
    answer = infer(model_worker, body(model, series, freq=freq))
    assert answer["warnings"] == []
    wanted = expected(weights, model, series, freq=freq)
    for prediction, reference_prediction in zip(answer["predictions"], wanted, strict=True):
        assert_monotone(prediction, 24)
        assert_prediction_within(prediction, reference_prediction, parity_in_a_batch(model), f"{model} parity")


@pytest.mark.parametrize("model", MODELS)
def test_forecast_alone_equals_forecast_in_a_batch_of_concurrent_requests(model_worker, model):
    targets = [target(20 + 41 * i, seed=10 + i, gaps=i % 2 == 0) for i in range(8)]
    alone = infer(model_worker, body(model, [{"target": targets[4]}]))
    assert alone["timing"]["batch_series"] == 1
    with ThreadPoolExecutor(len(targets)) as pool:
        answers = list(pool.map(lambda t: infer(model_worker, body(model, [{"target": t}])), targets))
    assert answers[4]["timing"]["batch_series"] > 1, [a["timing"] for a in answers]
    assert_prediction_within(answers[4]["predictions"][0], alone["predictions"][0], TOLERANCES[model]["batch"], model)


def test_tirex_batch_padding_leaves_each_series_unchanged(weights):
    """The library pads the series of one `forecast` call to the longest with NaN; each row then gets
    padded (or cut) to train_ctx_len anyway, so a series alone and in a batch of other lengths reaches
    the network as the same values: bitwise the same forecast (the adapter relies on this)."""
    from .tirex_yug_reference import tirex_model

    model = tirex_model(str(weights / "tirex" / "default"))
    rng = np.random.default_rng(0)
    contexts = []
    for n in (5, 64, 333, 2016, 2100):
        values = 50 + 5 * np.sin(np.arange(n) / 4) + rng.normal(0, 1, n)
        values[: min(2, n)] = np.nan
        contexts.append(values)
    batch_q, batch_mean = model.forecast(context=contexts, prediction_length=32, output_type="numpy")
    for i, context in enumerate(contexts):
        q, mean = model.forecast(context=[context], prediction_length=32, output_type="numpy")
        assert np.array_equal(q[0], batch_q[i]) and np.array_equal(mean[0], batch_mean[i]), f"series {i}"
        assert np.isfinite(q).all()


def test_yug_one_seed_for_a_batch_makes_a_series_depend_on_its_neighbours(weights):
    """Why the adapter calls Yug once per series with the series' own seed: `predict` draws every
    series of a call from one advancing stream."""
    from horizon_runtime.adapters.yug import series_seed

    from .tirex_yug_reference import yug_pipeline

    pipeline = yug_pipeline(str(weights / "house-tsfm" / "base"))
    first, second = (np.array(target(90, seed=s, gaps=False)) for s in (4, 5))
    together = pipeline.predict([first, second], prediction_length=30, freq="D", seed=7).values
    alone = pipeline.predict([second], prediction_length=30, freq="D", seed=7).values
    assert np.array_equal(together[0], pipeline.predict([first], prediction_length=30, freq="D", seed=7).values[0])
    assert not np.allclose(together[1], alone[0])  # the second series' numbers depend on the first
    own = pipeline.predict([second], prediction_length=30, freq="D", seed=series_seed(second)).values
    assert np.array_equal(own, pipeline.predict([second], prediction_length=30, freq="D", seed=series_seed(second)).values)


def test_yug_repeated_requests_give_the_same_samples(model_worker):
    request = body("house-tsfm", [{"target": target(60, seed=3)}, {"target": target(60, seed=3)}])
    first = infer(model_worker, request)["predictions"]
    assert infer(model_worker, request)["predictions"] == first
    assert first[0] == first[1]  # equal series, equal seeds, equal samples


# --------------------------------------------------------------------------- covariates
def covariate_series(n: int, horizon: int, price_shift: float = 0.0, promo_future=None, static=None) -> dict:
    steps = np.arange(n + horizon)
    price = (10 + np.sin(steps / 3)).round(4).tolist()
    promo = (steps % 5 == 0).astype(float).tolist()
    weather: list = (steps[:n] % 3).astype(float).tolist()
    weather[7] = None  # a missing covariate value
    series = {
        "target": target(n, seed=7),
        "past_covariates": {"price": [p + (price_shift if i >= n - 10 else 0.0) for i, p in enumerate(price[:n])],
                            "promo": promo[:n], "weather": weather},
    }
    if promo_future is not None:
        series["future_covariates"] = {"price": price[n:], "promo": promo_future}
    if static is not None:
        series["static_covariates"] = static
    return series


def test_yug_past_covariates_equal_the_official_library_and_change_the_forecast(model_worker, weights):
    series = [covariate_series(90, 30)]
    answer = infer(model_worker, body("house-tsfm", series, horizon=30))
    assert answer["warnings"] == []
    assert_monotone(answer["predictions"][0], 30)
    assert_parity(answer["predictions"][0], expected(weights, "house-tsfm", series, horizon=30)[0], "house-tsfm")

    shifted = infer(model_worker, body("house-tsfm", [covariate_series(90, 30, price_shift=2.0)], horizon=30))
    bare = infer(model_worker, body("house-tsfm", [{"target": series[0]["target"]}], horizon=30))
    mean = np.array(answer["predictions"][0]["mean"])
    assert np.abs(mean - np.array(shifted["predictions"][0]["mean"])).max() > 1e-3  # a covariate value reaches the model
    assert np.abs(mean - np.array(bare["predictions"][0]["mean"])).max() > 1e-3  # and so does having covariates


def test_yug_future_and_static_covariates_do_not_reach_the_model(model_worker):
    """Yug takes past covariates only (adapters/yug.py): known-future values and static covariates sent
    to the worker are ignored with a warning, and changing them leaves the forecast as it was."""
    past_only = infer(model_worker, body("house-tsfm", [covariate_series(90, 30)], horizon=30))
    with_future = infer(model_worker, body("house-tsfm", [covariate_series(90, 30, promo_future=[0.0] * 30, static={"store": 3.0})], horizon=30))
    changed = infer(model_worker, body("house-tsfm", [covariate_series(90, 30, promo_future=[5.0] * 30, static={"store": 9.0})], horizon=30))
    assert {w.split(" covariates")[0] for w in with_future["warnings"]} == {"future", "static"}
    assert with_future["predictions"] == past_only["predictions"] == changed["predictions"]


def test_yug_frequency_buckets():
    """Every contract freq lands in Yug's matching learned bucket; 'Y' needs the mapping to 'A'."""
    from yug.utils import FREQ_CORE, freq_id, normalize_freq

    from horizon_runtime.adapters.yug import YUG_FREQ
    from horizon_runtime.catalog import load_catalog

    from .conftest import CATALOG

    buckets = {"H": "H", "D": "D", "W": "W", "MS": "M", "Q": "Q", "Y": "A"}
    assert set(YUG_FREQ) == set(load_catalog(CATALOG).season_length)
    for freq, bucket in buckets.items():
        assert freq_id(normalize_freq(YUG_FREQ[freq])) == [FREQ_CORE[bucket], 1], freq
    assert freq_id(normalize_freq("Y")) == [FREQ_CORE["U"], 1]  # what 'Y' unmapped would be: "unknown"


def test_tirex_ignores_covariates_with_a_warning(model_worker):
    series = covariate_series(90, 12, promo_future=[1.0] * 12, static={"store": 3.0})
    answer = infer(model_worker, body("tirex", [series], horizon=12))
    assert {w.split(" covariates")[0] for w in answer["warnings"]} == {"past", "future", "static"}
    bare = infer(model_worker, body("tirex", [{"target": series["target"]}], horizon=12))
    assert answer["predictions"] == bare["predictions"]


# --------------------------------------------------------------------------- levels, horizon, weights
@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("levels,warned", [([0.05, 0.5, 0.95], True), ([0.1, 0.15, 0.85, 0.9], False)])
def test_levels_outside_the_trained_ones_get_the_nearest_with_a_warning(model_worker, model, levels, warned):
    answer = infer(model_worker, body(model, [{"target": target(50, seed=4)}], horizon=6, quantiles=levels))
    assert bool(answer["warnings"]) == warned, answer["warnings"]
    prediction = answer["predictions"][0]
    assert_monotone(prediction, 6)
    if warned:
        assert prediction["quantiles"]["0.05"] == infer(model_worker, body(model, [{"target": target(50, seed=4)}], horizon=6, quantiles=[0.1]))["predictions"][0]["quantiles"]["0.1"]


@pytest.mark.parametrize("model", MODELS)
def test_mean_only_and_the_longest_horizon(model_worker, model):
    answer = infer(model_worker, body(model, [{"target": target(40, seed=5)}], horizon=512, quantiles=[]))
    prediction = answer["predictions"][0]
    assert prediction["quantiles"] == {} and len(prediction["mean"]) == 512
    assert np.isfinite(prediction["mean"]).all()


@pytest.mark.parametrize("model,files,repo", [("tirex", "model.ckpt", "NX-AI/TiRex"),
                                              ("house-tsfm", "config.json and model.safetensors", "birlaailabs/yug")])
def test_missing_weights_answer_424(worker, model, files, repo):
    assert "HORIZON_MODEL_DIR" not in os.environ
    status, listed = worker.call("GET", "/models")
    assert model not in {entry["model"] for entry in listed["models"]}
    status, answer = worker.call("POST", "/load", {"model": model, "size": MODELS[model]})
    assert status == 424 and answer["error"]["code"] == "weights_missing", answer
    assert files in answer["error"]["detail"] and repo in answer["error"]["detail"]


def test_models_lists_both_with_their_weights(model_worker):
    status, listed = model_worker.call("GET", "/models")
    sizes = {entry["model"]: entry["sizes"] for entry in listed["models"]}
    assert sizes["tirex"] == ["default"] and sizes["house-tsfm"] == ["base"]
