"""Joint forecasts ("multivariate": true) and sample paths ("samples": N) through the real worker on tiny random-weight
checkpoints (issue 34): a joint forecast differs from the same series forecast independently and equals the library's
own joint call (joint_samples_reference.py, no Horizon code); sample paths equal the library's own draws with the same
seed, alone or in a batch; models without either answer 400; the catalog's flags are the adapters'."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from horizon_runtime.adapters.chronos_t5 import series_seed
from horizon_runtime.adapters.statistical import sample_seed
from horizon_runtime.catalog import load_catalog
from horizon_runtime.registry import ADAPTERS, adapter_class, unavailable_reason

from .conftest import CATALOG, model_worker_fixtures
from .helpers import assert_prediction_within, gappy_series, seasonal_series
from .joint_samples_reference import reference

MODELS = {"chronos": "tiny", "chronos-2": "small", "toto-2": "2.5b", "timesfm-3": "330m"}
LEVELS = [0.1, 0.5, 0.9]
# the library's joint call and the worker's differ by float32 rounding of differently built batches at most
PARITY = {"rel": 1e-4, "floor": 1e-4}

weights, jworker = model_worker_fixtures(MODELS)


def body(model: str, series: list[dict], horizon: int = 12, **extra) -> dict:
    return {"model": model, "size": MODELS.get(model, "default"), "freq": "D", "horizon": horizon, "quantiles": LEVELS,
            "series": series, **extra}


def equal_length_series(n: int = 64, count: int = 3) -> list[dict]:
    return [{"target": gappy_series(n, seed=20 + i, gaps=i == 1)} for i in range(count)]


@pytest.mark.parametrize("model", ["chronos-2", "toto-2", "timesfm-3"])
def test_a_joint_forecast_differs_from_the_independent_one_and_equals_the_librarys_joint_call(jworker, weights, model):
    series = equal_length_series()
    status, joint = jworker.infer(**body(model, series, multivariate=True))
    assert status == 200, joint
    assert joint["timing"]["batch_series"] == len(series)
    status, alone = jworker.infer(**body(model, series))
    assert status == 200, alone
    differs = [not np.allclose(j["mean"], a["mean"], rtol=1e-6, atol=1e-9) for j, a in zip(joint["predictions"], alone["predictions"])]
    assert any(differs), f"{model}: the joint forecast is the independent one"

    case = {"weights": str(weights / model / MODELS[model]), "model": model, "horizon": 12, "quantiles": LEVELS, "kind": "joint", "series": series}
    wanted = reference([case])[0]
    for actual, expected in zip(joint["predictions"], wanted):
        assert_prediction_within(actual, expected, PARITY, f"{model} joint vs the library's joint call")


def test_chronos_2_joint_forecast_of_series_of_different_lengths(jworker, weights):
    series = [{"target": gappy_series(40 + 25 * i, seed=30 + i)} for i in range(3)]
    status, joint = jworker.infer(**body("chronos-2", series, multivariate=True))
    assert status == 200, joint
    case = {"weights": str(weights / "chronos-2" / "small"), "model": "chronos-2", "horizon": 12, "quantiles": LEVELS, "kind": "joint", "series": series}
    for actual, expected in zip(joint["predictions"], reference([case])[0]):
        assert_prediction_within(actual, expected, PARITY, "chronos-2 joint, different lengths")


def test_chronos_t5_sample_paths_are_the_pipelines_own_draws(jworker, weights):
    # 128 values: a multiple of the adapter's 64-value padding, so the pipeline sees the very same context
    series = [{"target": gappy_series(128, seed=41, gaps=False)}, {"target": gappy_series(128, seed=42, gaps=False)}]
    status, answer = jworker.infer(**body("chronos", series, samples=7, seed=5))
    assert status == 200, answer
    paths = [np.array(p["samples"]) for p in answer["predictions"]]
    assert [p.shape for p in paths] == [(7, 12), (7, 12)]
    seeded = [{**one, "seed": series_seed(np.array(one["target"], dtype=float), 5)} for one in series]
    case = {"weights": str(weights / "chronos" / "tiny"), "model": "chronos", "horizon": 12, "kind": "samples", "samples": 7, "series": seeded}
    for actual, expected in zip(paths, reference([case])[0]):
        np.testing.assert_array_equal(actual, np.array(expected["samples"]))
    # another seed, other paths; none: the same paths every time
    other = jworker.infer(**body("chronos", series, samples=7, seed=6))[1]
    assert not np.array_equal(np.array(other["predictions"][0]["samples"]), paths[0])


@pytest.mark.parametrize("model", ["naive", "seasonal-naive", "auto-ets", "auto-arima", "auto-theta", "damped-ets", "ces"])
def test_statistical_sample_paths_are_statsforecasts_simulate(jworker, model):
    series = [{"target": seasonal_series(60, 7, seed=i)} for i in range(3)]
    status, answer = jworker.infer(**body(model, series, samples=5))
    assert status == 200, answer
    seeded = [{**one, "seed": sample_seed(np.array(one["target"], dtype=float))} for one in series]
    case = {"model": model, "horizon": 12, "kind": "samples", "samples": 5, "season_length": 7, "series": seeded}
    for prediction, expected in zip(answer["predictions"], reference([case])[0]):
        np.testing.assert_array_equal(np.array(prediction["samples"]), np.array(expected["samples"]))
    # a series' paths are the same alone
    alone = jworker.infer(**body(model, series[1:2], samples=5))[1]
    assert alone["predictions"][0]["samples"] == answer["predictions"][1]["samples"]


def test_sample_paths_in_base64(jworker):
    series = [{"target": seasonal_series(40, 7, seed=1)}]
    plain = jworker.infer(**body("auto-ets", series, samples=3))[1]
    status, encoded = jworker.infer(**body("auto-ets", series, samples=3, encoding="base64"))
    assert status == 200, encoded
    import base64

    values = np.frombuffer(base64.b64decode(encoded["predictions"][0]["samples"]), dtype="<f8").reshape(3, 12)
    np.testing.assert_array_equal(values, np.array(plain["predictions"][0]["samples"]))


@pytest.mark.parametrize("extra,model,reason", [
    ({"multivariate": True}, "auto-ets", "'multivariate': auto-ets has no joint"),
    ({"samples": 3}, "chronos-2", "'samples': chronos-2 draws no sample paths"),
    ({"samples": 3}, "mstl", "'samples': mstl draws no sample paths"),
    ({"samples": 0.5}, "naive", "'samples' must be an integer"),
    ({"multivariate": "yes"}, "naive", "'multivariate' must be true or false"),
])
def test_what_a_model_cannot_do_is_a_400(jworker, extra, model, reason):
    status, answer = jworker.infer(**body(model, [{"target": seasonal_series(40, 7)}], **extra))
    assert status == 400 and reason in answer["error"]["detail"], answer


def test_the_catalog_flags_are_the_adapters():
    catalog = json.loads(Path(CATALOG).read_text())
    for entry in catalog["models"]:
        if entry["adapter"] not in ADAPTERS or unavailable_reason(entry["adapter"]):  # prism; timesfm (its own group)
            continue
        cls = adapter_class(entry["adapter"])
        assert cls.supports_joint == ("multivariate" in entry), entry["id"]
        assert cls.supports_samples == bool(entry.get("sample_paths")), entry["id"]
    assert load_catalog(CATALOG).models["chronos-2"]
