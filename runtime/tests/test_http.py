"""The worker's endpoints over real HTTP (docs/runtime-protocol.md)."""

from __future__ import annotations

import base64
import json
import math

import numpy as np
import pytest

from horizon_runtime.adapters.base import SeriesInput
from horizon_runtime.adapters.statistical import NaiveAdapter

from .conftest import CATALOG, start_worker, stop_worker
from .helpers import infer_body, seasonal_series

STATISTICAL = ["naive", "seasonal-naive", "auto-ets", "auto-arima", "auto-theta", "damped-ets", "dyn-opt-theta", "ces", "mstl"]


def b64(values) -> str:
    """Values as the control plane sends them with "encoding": "base64" (little-endian float64, NaN = missing)."""
    return base64.b64encode(np.asarray(values, dtype="<f8").tobytes()).decode()


def unb64(text: str) -> list[float]:
    return np.frombuffer(base64.b64decode(text), dtype="<f8").tolist()


def assert_error(response, status: int, code: str) -> str:
    got_status, body = response
    assert got_status == status, body
    assert set(body) == {"error"} and set(body["error"]) == {"code", "detail"}, body
    assert body["error"]["code"] == code, body
    assert body["error"]["detail"], body
    return body["error"]["detail"]


def test_ready_line_and_health(worker):
    assert worker.ready["group"] == "core"
    assert worker.ready["pid"] == worker.process.pid
    assert worker.ready["port"] == worker.port > 0
    status, body = worker.call("GET", "/health")
    assert status == 200
    assert body["status"] == "ok" and body["group"] == "core" and body["pid"] == worker.process.pid
    assert isinstance(body["loaded"], list)


def test_models_lists_only_what_this_group_can_serve(worker):
    status, body = worker.call("GET", "/models")
    assert status == 200 and body["group"] == "core"
    assert [m["model"] for m in body["models"]] == STATISTICAL  # chronos ids: no weights here; others: no adapter
    for entry in body["models"]:
        assert entry["sizes"] == ["default"]
        assert set(entry["loaded"]) <= {"default"}


def test_load_is_idempotent_and_reported(worker):
    status, first = worker.call("POST", "/load", {"model": "auto-theta", "size": "default"})
    assert status == 200, first
    assert first["model"] == "auto-theta" and first["size"] == "default" and first["device"] == "cpu"
    assert first["load_ms"] >= 0
    status, second = worker.call("POST", "/load", {"model": "auto-theta", "size": "default"})
    assert status == 200 and second["already_loaded"] is True and second["load_ms"] == 0
    assert ["auto-theta", "default"] in worker.call("GET", "/health")[1]["loaded"]
    models = {m["model"]: m for m in worker.call("GET", "/models")[1]["models"]}
    assert models["auto-theta"]["loaded"] == ["default"]


@pytest.mark.parametrize("path", ["/infer", "/load"])
def test_unknown_model_and_size(worker, path):
    body = infer_body() if path == "/infer" else {"model": "naive", "size": "default"}
    assert "not in the catalog" in assert_error(worker.call("POST", path, {**body, "model": "nope"}), 404, "unknown_model")
    # In the catalog, but served by another runtime group.
    assert "timesfm1" in assert_error(worker.call("POST", path, {**body, "model": "timesfm"}), 404, "unknown_model")
    assert "'large'" in assert_error(worker.call("POST", path, {**body, "size": "large"}), 404, "unknown_size")


@pytest.fixture(scope="module")
def worker_with_unknown_adapter(tmp_path_factory):
    """A catalog naming an adapter this runtime does not have (as an older runtime would see a newer catalog)."""
    catalog = json.loads(CATALOG.read_text())
    naive = next(m for m in catalog["models"] if m["id"] == "naive")
    catalog["models"].append({**naive, "id": "future-model", "adapter": "future-adapter"})
    path = tmp_path_factory.mktemp("catalog") / "models.json"
    path.write_text(json.dumps(catalog))
    started = start_worker(catalog=path)
    yield started
    stop_worker(started)


@pytest.mark.parametrize("path", ["/infer", "/load"])
def test_model_without_adapter_is_unavailable(worker_with_unknown_adapter, path):
    body = infer_body("future-model") if path == "/infer" else {"model": "future-model", "size": "default"}
    detail = assert_error(worker_with_unknown_adapter.call("POST", path, body), 409, "model_unavailable")
    assert "future-model" in detail and "future-adapter" in detail
    status, listed = worker_with_unknown_adapter.call("GET", "/models")
    assert status == 200 and "future-model" not in [m["model"] for m in listed["models"]]


@pytest.mark.parametrize("model", ["naive", "auto-ets"])
def test_base64_values_answer_exactly_what_json_values_do(worker, model):
    target = seasonal_series(40, 12, seed=3)
    target[5] = None
    json_body = infer_body(model, target=target)
    json_body["series"][0]["past_covariates"] = {"p": [float(i) for i in range(40)]}
    status, plain = worker.infer(**json_body)
    assert status == 200, plain
    binary_body = infer_body(model, target=b64([math.nan if v is None else v for v in target]), encoding="base64")
    binary_body["series"][0]["past_covariates"] = {"p": b64(range(40))}
    status, binary = worker.infer(**binary_body)
    assert status == 200, binary
    [got], [wanted] = binary["predictions"], plain["predictions"]
    assert isinstance(got["mean"], str) and set(got["quantiles"]) == set(wanted["quantiles"])
    assert unb64(got["mean"]) == wanted["mean"]
    for key, values in wanted["quantiles"].items():
        assert unb64(got["quantiles"][key]) == values, key
    assert binary["warnings"] == plain["warnings"]


def test_float32_is_only_used_when_asked_and_exact(worker):
    """A statistical model's quantiles are float64 arithmetic: "float32": true still answers float64 there;
    without "float32" a base64 answer is always float64; the answer names its dtype."""
    target = [float(v) for v in range(1, 41)]
    for extra, dtype in (({}, "float64"), ({"float32": False}, "float64"), ({"float32": True}, "float64")):
        status, answer = worker.infer(**infer_body("naive", target=target, encoding="base64", **extra))
        assert status == 200, answer
        assert answer["dtype"] == dtype
        assert unb64(answer["predictions"][0]["mean"]) == [40.0] * 6
    status, plain = worker.infer(**infer_body("naive", target=target))
    assert "dtype" not in plain  # JSON arrays: the numbers say it


def test_encode_predictions_narrows_exact_float32_blocks_only():
    from horizon_runtime.adapters.base import Prediction
    from horizon_runtime.protocol import encode_predictions

    exact = np.float32([[0.1, 2.5, -3e-5], [1.0, 2.0, 3.0]]).astype(np.float64)  # float32 values held as float64
    predictions = [Prediction(mean=exact[0], quantiles=exact, warnings=[]), Prediction(mean=exact[1], quantiles=exact[::-1].copy(), warnings=[])]
    answers, dtype = encode_predictions(predictions, (("0.9", 1), ("0.1", 0)), 3, float32=True)
    assert dtype == "float32"
    decode = lambda text: np.frombuffer(base64.b64decode(text), dtype="<f4").astype(np.float64).tolist()  # noqa: E731
    assert [decode(a["mean"]) for a in answers] == [exact[0].tolist(), exact[1].tolist()]
    assert list(answers[0]["quantiles"]) == ["0.9", "0.1"]
    assert decode(answers[0]["quantiles"]["0.9"]) == exact[1].tolist() and decode(answers[1]["quantiles"]["0.9"]) == exact[0].tolist()
    assert encode_predictions(predictions, (("0.9", 1),), 3, float32=False)[1] == "float64"
    wide = [Prediction(mean=np.array([0.1, 1.0, 2.0]), quantiles=exact, warnings=[])]  # 0.1 is no float32
    answers, dtype = encode_predictions(wide, (("0.5", 0),), 3, float32=True)
    assert dtype == "float64" and unb64(answers[0]["mean"]) == [0.1, 1.0, 2.0]


@pytest.mark.parametrize(
    "change",
    [
        {"horizon": 0},
        {"float32": 1},
        {"horizon": 2.5},
        {"horizon": 10001},  # above the catalog's max_horizon
        {"freq": "M"},
        {"quantiles": [0.5, 1.0]},
        {"quantiles": [0.0]},
        {"quantiles": ["0.5"]},
        {"quantiles": None},
        {"series": []},
        {"series": [{"target": []}]},
        {"series": [{"target": [None, None]}]},
        {"series": [{"target": [1.0, "2"]}]},
        {"series": [{"target": [1.0, True]}]},
        {"series": [{"target": [1.0, [2.0]]}]},
        {"series": [{"target": [1.0, None, "3"]}]},  # nulls and a string: the slower of the two parse paths
        {"series": [{"target": [1.0, 2.0], "past_covariates": {"p": [1.0, False]}}]},
        {"series": [{"target": [1.0, 2.0], "past_covariates": {"p": [1.0]}}]},
        {"series": [{"target": [1.0, 2.0], "past_covariates": {"p": [1.0, 2.0]}, "future_covariates": {"p": [1.0]}}]},
        {"series": [{"target": [1.0, 2.0], "future_covariates": {"p": [1.0] * 6}}]},  # not in past
        {"series": [{"target": [1.0, 2.0], "static_covariates": {"s": "a"}}]},
        {"series": [{"target": [1.0, 2.0], "index": ["2020-01-01"], "forecast_index": ["2020-01-03"] * 6}]},
        {"series": [{"target": [1.0, 2.0], "index": ["2020-01-01", "2020-13-01"], "forecast_index": ["2020-01-03"] * 6}]},
        {"series": [{"target": [1.0, 2.0], "index": ["2020-01-01", 5], "forecast_index": ["2020-01-03"] * 6}]},
        {"series": [{"target": [1.0, 2.0], "index": ["2020-01-01", "2020-01-02"]}]},  # without forecast_index
        {"series": [{"target": "not base64!"}]},
        {"series": [{"target": base64.b64encode(b"\x00" * 7).decode()}]},  # not whole float64 values
        {"series": [{"target": b64([1.0, math.inf])}]},
        {"series": [{"target": b64([])}]},
        {"series": [{"target": b64([math.nan, math.nan])}]},  # only missing values
        {"series": [{"target": b64([1.0, 2.0]), "past_covariates": {"p": b64([1.0])}}]},
        {"series": [{"target": 5}]},
        {"encoding": "msgpack"},
        {"series": "x"},
        {"size": 3},
    ],
)
def test_malformed_infer_body_is_bad_request(worker, change):
    assert_error(worker.infer(**{**infer_body(), **change}), 400, "bad_request")


@pytest.mark.parametrize("raw", [b"{not json", b"[1, 2]", b"", b"null"])
def test_malformed_json_is_bad_request(worker, raw):
    assert_error(worker.call("POST", "/infer", raw=raw), 400, "bad_request")
    assert_error(worker.call("POST", "/load", raw=raw), 400, "bad_request")


def test_inference_failure_reports_what_the_model_raised(worker):
    detail = assert_error(worker.infer(**infer_body(target=[1e308, -1e308, 1e308])), 500, "inference_failed")
    assert "non-finite" in detail and "naive" in detail


def check_prediction_shapes(body: dict, n_series: int, horizon: int, quantiles: list[float]):
    predictions = body["predictions"]
    assert len(predictions) == n_series
    for prediction in predictions:
        assert set(prediction) == {"mean", "quantiles"}
        assert list(prediction["quantiles"]) == [repr(q) for q in quantiles]
        arrays = [prediction["mean"], *prediction["quantiles"].values()]
        for values in arrays:
            assert len(values) == horizon
            assert all(isinstance(v, float) and math.isfinite(v) for v in values)
        rows = np.array([prediction["quantiles"][repr(q)] for q in sorted(quantiles)])
        assert (np.diff(rows, axis=0) >= 0).all(), "quantiles must not decrease with the level"


@pytest.mark.parametrize("model", STATISTICAL)
def test_infer_shapes_keys_and_monotone_quantiles(worker, model):
    quantiles = [0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.95]
    series = [{"target": seasonal_series(n, 4, seed=n)} for n in (12, 40, 57)]
    status, body = worker.infer(**infer_body(model, series=series, quantiles=quantiles, horizon=9))
    assert status == 200, body
    assert body["model"] == model and body["size"] == "default"
    assert set(body["timing"]) == {"queue_ms", "infer_ms", "batch_series", "loaded_ms"}
    assert body["timing"]["batch_series"] >= 3
    assert isinstance(body["warnings"], list)
    check_prediction_shapes(body, 3, 9, quantiles)


def test_quantile_keys_are_shortest_decimals_in_request_order(worker):
    quantiles = [0.975, 0.025, 0.3, 0.5, 0.3]
    status, body = worker.infer(**infer_body(quantiles=quantiles))
    assert status == 200, body
    assert list(body["predictions"][0]["quantiles"]) == ["0.975", "0.025", "0.3", "0.5"]
    check_prediction_shapes(body, 1, 6, [0.975, 0.025, 0.3, 0.5])
    q = body["predictions"][0]["quantiles"]
    assert q["0.5"] == body["predictions"][0]["mean"]  # naive's median is its point forecast
    assert q["0.025"][0] < q["0.3"][0] < q["0.5"][0] < q["0.975"][0]


def test_no_quantiles_requested(worker):
    status, body = worker.infer(**infer_body(quantiles=[]))
    assert status == 200, body
    assert body["predictions"][0]["quantiles"] == {}


def test_median_is_the_point_forecast_and_intervals_widen(worker):
    status, body = worker.infer(**infer_body("auto-ets", quantiles=[0.1, 0.5, 0.9], horizon=8))
    assert status == 200, body
    prediction = body["predictions"][0]
    assert prediction["quantiles"]["0.5"] == prediction["mean"]
    width = np.subtract(prediction["quantiles"]["0.9"], prediction["quantiles"]["0.1"])
    assert (width > 0).all() and width[-1] >= width[0]


@pytest.mark.parametrize("model", ["naive", "auto-ets", "auto-theta"])
def test_nulls_in_target(worker, model):
    filled = seasonal_series(30, 4, seed=3)
    with_nulls = list(filled)
    with_nulls[10] = None  # interior: interpolated between its neighbours
    filled[10] = (filled[9] + filled[11]) / 2
    leading = [None, None, None] + with_nulls  # leading nulls are dropped
    status, expected = worker.infer(**infer_body(model, target=filled))
    assert status == 200, expected
    for target in (with_nulls, leading):
        status, got = worker.infer(**infer_body(model, target=target))
        assert status == 200, got
        assert got["predictions"] == expected["predictions"]


def test_trailing_nulls_are_forward_filled(worker):
    status, body = worker.infer(**infer_body("naive", target=[3.0, 5.0, 7.5, None, None]))
    assert status == 200, body
    assert body["predictions"][0]["mean"] == [7.5] * 6
    status, expected = worker.infer(**infer_body("naive", target=[3.0, 5.0, 7.5, 7.5, 7.5]))
    assert body["predictions"] == expected["predictions"]


def test_single_value_and_nulls_only_before_it(worker):
    status, body = worker.infer(**infer_body("naive", target=[None, None, 4.25]))
    assert status == 200, body
    prediction = body["predictions"][0]
    assert prediction["mean"] == [4.25] * 6
    assert all(values == [4.25] * 6 for values in prediction["quantiles"].values())


@pytest.mark.parametrize(
    "model, n, needs",
    [("auto-ets", 6, "7 observations"), ("auto-theta", 3, "4 observations")],
)
def test_too_short_for_the_model_falls_back_to_naive(worker, model, n, needs):
    target = seasonal_series(n, 4)
    status, body = worker.infer(**infer_body(model, target=target))
    assert status == 200, body
    assert len(body["warnings"]) == 1 and needs in body["warnings"][0] and "naive" in body["warnings"][0]
    assert body["warnings"][0].startswith("series 0: ")
    status, naive = worker.infer(**infer_body("naive", target=target))
    assert body["predictions"] == naive["predictions"]


def test_seasonal_naive_shorter_than_a_season_falls_back_to_naive(worker):
    target = seasonal_series(10, 24)
    status, body = worker.infer(**infer_body("seasonal-naive", target=target, freq="H"))
    assert status == 200, body
    assert "one season of 24" in body["warnings"][0]
    status, naive = worker.infer(**infer_body("naive", target=target, freq="H"))
    assert body["predictions"] == naive["predictions"]


@pytest.mark.parametrize("model", ["auto-ets", "auto-arima", "auto-theta"])
def test_fewer_than_two_seasons_fits_without_seasonality(worker, model):
    target = seasonal_series(20, 12)  # MS: season of 12, two seasons need 24
    status, body = worker.infer(**infer_body(model, target=target, freq="MS"))
    assert status == 200, body
    assert "without seasonality" in body["warnings"][0]
    status, yearly = worker.infer(**infer_body(model, target=target, freq="Y"))  # season length 1
    assert yearly["warnings"] == []
    assert body["predictions"] == yearly["predictions"]


def test_non_finite_intervals_fall_back_to_naive(monkeypatch):
    # statsforecast's AutoARIMA gave -inf/+inf interval bounds on [2, 4, 6] on one CPU (AMD EPYC) and
    # finite ones on another (Intel Xeon): the library's own output is patched to make the case certain.
    from horizon_runtime.adapters.statistical import AutoARIMAAdapter
    from horizon_runtime.catalog import load_catalog
    from statsforecast.models import AutoARIMA

    catalog = load_catalog(CATALOG)
    adapter = AutoARIMAAdapter(catalog.models["auto-arima"], "default", catalog)
    library_forecast = AutoARIMA.forecast

    def infinite_upper_bound(self, *args, **kwargs):
        out = library_forecast(self, *args, **kwargs)
        return {key: np.full(len(out["mean"]), np.inf) if key.startswith("hi-") else value for key, value in out.items()}

    monkeypatch.setattr(AutoARIMA, "forecast", infinite_upper_bound)
    history = np.array([2.0, 4.0, 6.0, 5.0, 7.0, 9.0, 8.0, 10.0])
    [prediction] = adapter.predict_batch([SeriesInput(history, {}, {}, {})], 3, (0.1, 0.5, 0.9), "Y")
    naive = NaiveAdapter(catalog.models["naive"], "default", catalog)
    [expected] = naive.predict_batch([SeriesInput(history, {}, {}, {})], 3, (0.1, 0.5, 0.9), "Y")
    assert any("non-finite" in warning for warning in prediction.warnings), prediction.warnings
    np.testing.assert_array_equal(prediction.mean, expected.mean)
    np.testing.assert_array_equal(prediction.quantiles, expected.quantiles)


def test_a_wide_interval_is_kept_with_a_warning(monkeypatch):
    # statsforecast's damped ETS gave an 80 % interval of ±4.5e8 on an M4 hourly series of values 10-6,520 (eval/README.md,
    # "M4 hourly"); the library's output is patched here to make such a case certain on a short series
    from horizon_runtime.adapters.statistical import DampedETSAdapter
    from horizon_runtime.catalog import load_catalog
    from statsforecast.models import AutoETS

    catalog = load_catalog(CATALOG)
    adapter = DampedETSAdapter(catalog.models["damped-ets"], "default", catalog)
    history = np.array([12.0, 15.0, 14.0, 18.0, 21.0, 19.0, 24.0, 26.0, 25.0, 29.0, 31.0, 30.0])
    [plain] = adapter.predict_batch([SeriesInput(history, {}, {}, {})], 3, (0.1, 0.5, 0.9), "Y")
    assert not any("largest magnitude" in warning for warning in plain.warnings), plain.warnings
    library_forecast = AutoETS.forecast

    def compounding(self, *args, **kwargs):
        out = library_forecast(self, *args, **kwargs)
        return {key: out["mean"] + 1e4 * (value - out["mean"]) if key[:3] in ("lo-", "hi-") else value for key, value in out.items()}

    monkeypatch.setattr(AutoETS, "forecast", compounding)
    [wide] = adapter.predict_batch([SeriesInput(history, {}, {}, {})], 3, (0.1, 0.5, 0.9), "Y")
    [warning] = [w for w in wide.warnings if "largest magnitude" in w]
    assert warning.startswith("damped-ets's forecast reaches") and "(31)" in warning, warning
    # the library's numbers are kept
    np.testing.assert_array_equal(wide.mean, plain.mean)
    np.testing.assert_allclose(wide.quantiles[2] - wide.mean, 1e4 * (plain.quantiles[2] - plain.mean), rtol=1e-9)


def test_a_wide_point_forecast_is_warned_of_without_quantile_levels(monkeypatch):
    # no levels asked for: no bounds to scan, so the point forecast itself is checked
    from horizon_runtime.adapters.statistical import DampedETSAdapter
    from horizon_runtime.catalog import load_catalog
    from statsforecast.models import AutoETS

    catalog = load_catalog(CATALOG)
    adapter = DampedETSAdapter(catalog.models["damped-ets"], "default", catalog)
    history = np.array([12.0, 15.0, 14.0, 18.0, 21.0, 19.0, 24.0, 26.0, 25.0, 29.0, 31.0, 30.0])
    [plain] = adapter.predict_batch([SeriesInput(history, {}, {}, {})], 3, (), "Y")
    assert not any("largest magnitude" in warning for warning in plain.warnings), plain.warnings
    library_forecast = AutoETS.forecast
    monkeypatch.setattr(AutoETS, "forecast", lambda self, *a, **k: {key: 1e3 * value for key, value in library_forecast(self, *a, **k).items()})
    [wide] = adapter.predict_batch([SeriesInput(history, {}, {}, {})], 3, (), "Y")
    assert any(w.startswith("damped-ets's forecast reaches") for w in wide.warnings), wide.warnings


def test_covariates_are_ignored_with_a_warning(worker):
    series = [{"target": [1.0, 2.0, 3.0], "past_covariates": {"p": [1.0, None, 2.0]},
               "future_covariates": {"p": [1.0] * 6}, "static_covariates": {"store": 3}}]
    status, body = worker.infer(**infer_body(series=series))
    assert status == 200, body
    assert [w.split(" ")[0] for w in body["warnings"]] == ["past", "future", "static"]


def test_seasonal_naive_repeats_the_last_season(worker):
    # What the M4-Hourly MASE check relies on: the forecast is the last 24 hours repeated.
    target = seasonal_series(700, 24, seed=7)
    status, body = worker.infer(**infer_body("seasonal-naive", target=target, freq="H", horizon=48))
    assert status == 200, body
    assert body["warnings"] == []
    assert body["predictions"][0]["mean"] == target[-24:] * 2
