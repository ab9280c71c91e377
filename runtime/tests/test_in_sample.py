"""In-sample fitted values and intervals (a series' "in_sample", anomaly detection from one fit) equal
statsforecast's own `forecast(y, h, level, fitted=True)` — `fitted`, `fitted-lo-L`, `fitted-hi-L` — called
directly on the same values in this process (the reference imports nothing from horizon_runtime)."""

from __future__ import annotations

import base64
import csv
from pathlib import Path

import numpy as np
import pytest
from statsforecast.models import MSTL, AutoETS

from .helpers import infer_body, seasonal_series
from .test_parity import MODELS as PARITY_MODELS

QUANTILES = [0.005, 0.1, 0.5, 0.9, 0.995]  # the anomaly band at level 99, the median, and one more level
SEASON = {"Q": 4, "MS": 12, "H": 24}

MODELS = {
    **PARITY_MODELS,  # each model id as statsforecast's own class (test_parity.py)
    # the catalog's mstl_season_lengths: 12 for MS, 4 for Q, 24 and 168 for H (both fit twice into 336 values)
    "mstl": lambda m: MSTL(season_length=[24, 168] if m == 24 else [m], trend_forecaster=AutoETS(model="ZZN")),
}

# CI has the shared datasets beside the clone (../shared); without them a synthetic hourly series stands in
M4_HOURLY = Path(__file__).resolve().parents[2].parent / "shared" / "datasets" / "m4" / "Hourly-train.csv"


def hourly_series(n: int = 336) -> list[float]:
    """The last n values of M4 Hourly H1 (real sensor-like data), or a synthetic daily-seasonal series."""
    if M4_HOURLY.exists():
        with M4_HOURLY.open() as f:
            row = next(r for r in csv.reader(f) if r[0] == "H1")
        return [float(v) for v in row[1:] if v][-n:]
    return seasonal_series(n, 24, seed=3)


def _levels(quantiles: list[float]) -> list[float]:
    return sorted({round(100 * abs(2 * q - 1), 10) for q in quantiles} - {0.0})


def direct_in_sample(model, target: list[float], horizon: int, quantiles: list[float]) -> dict:
    """statsforecast's in-sample answer in the protocol's shape: quantile q is the bound of the 100*|2q-1|
    fitted interval (`fitted` itself for 0.5); NaN (nothing fitted there) as JSON's null."""
    out = model.forecast(y=np.array(target, dtype=np.float64), h=horizon, level=_levels(quantiles), fitted=True)
    as_json = lambda values: [None if np.isnan(v) else float(v) for v in np.asarray(values, dtype=np.float64)]
    keys = {q: "fitted" if q == 0.5 else f"fitted-{'lo' if q < 0.5 else 'hi'}-{round(100 * abs(2 * q - 1), 10)}" for q in quantiles}
    return {"mean": as_json(out["fitted"]), "quantiles": {repr(q): as_json(out[key]) for q, key in keys.items()}}


# Seasonal AutoARIMA takes seconds per monthly series and ~25 s per hourly one: checked on Q only.
CASES = ([(model, "MS", 60) for model in MODELS if model != "auto-arima"] + [("auto-arima", "Q", 48)]
         + [(model, "H", 336) for model in MODELS if model != "auto-arima"])


@pytest.mark.parametrize("model, freq, length", CASES)
def test_in_sample_is_statsforecast_fitted(worker, model, freq, length):
    m = SEASON[freq]
    target = hourly_series(length) if freq == "H" else seasonal_series(length, m, seed=length + 5)
    series = [{"target": target, "in_sample": True}]
    status, body = worker.infer(**infer_body(model, series=series, freq=freq, horizon=1, quantiles=QUANTILES))
    assert status == 200, body
    assert body["warnings"] == []
    [answer] = body["predictions"]
    assert answer["in_sample"] == direct_in_sample(MODELS[model](m), target, 1, QUANTILES)
    # the forecast comes from the same call, as without in_sample
    status, plain = worker.infer(**infer_body(model, target=target, freq=freq, horizon=1, quantiles=QUANTILES))
    assert status == 200, plain
    assert {"mean": answer["mean"], "quantiles": answer["quantiles"]} == plain["predictions"][0]


def test_what_each_model_leaves_unfitted(worker):
    """naive has no fitted value for the first observation, seasonal naive none for the first season; the
    models that fit a state (ETS, Theta, CES) have one at every position."""
    target = seasonal_series(48, 12, seed=11)
    unfitted = {"naive": 1, "seasonal-naive": 12, "auto-ets": 0, "auto-theta": 0, "ces": 0}
    for model, count in unfitted.items():
        status, body = worker.infer(**infer_body(model, series=[{"target": target, "in_sample": True}], freq="MS", horizon=1, quantiles=QUANTILES))
        assert status == 200, body
        fitted = body["predictions"][0]["in_sample"]["mean"]
        assert len(fitted) == 48 and fitted[:count] == [None] * count and None not in fitted[count:], (model, fitted[:14])


def test_leading_missing_values_are_not_fitted(worker):
    """fill_missing drops leading nulls: the in-sample arrays still have one value per target value, null
    before the first observation, and the rest is statsforecast's fit of the observed part."""
    observed = seasonal_series(60, 12, seed=8)
    target = [None, None, None] + observed
    status, body = worker.infer(**infer_body("auto-ets", series=[{"target": target, "in_sample": True}], freq="MS", horizon=1, quantiles=QUANTILES))
    assert status == 200, body
    got = body["predictions"][0]["in_sample"]
    want = direct_in_sample(AutoETS(season_length=12), observed, 1, QUANTILES)
    assert got["mean"] == [None] * 3 + want["mean"]
    assert got["quantiles"] == {q: [None] * 3 + values for q, values in want["quantiles"].items()}


def test_batched_and_base64_answers_are_the_same_numbers(worker):
    """Several series in one call (the CPU pool) and the base64 answer (NaN as NaN, always float64) give each
    series exactly what it gets alone; a series without in_sample gets no in-sample arrays."""
    targets = [seasonal_series(60, 12, seed=k) for k in range(3)]
    series = [{"target": t, "in_sample": k != 1} for k, t in enumerate(targets)]
    status, body = worker.infer(**infer_body("auto-ets", series=series, freq="MS", horizon=1, quantiles=QUANTILES, encoding="base64", float32=True))
    assert status == 200, body
    assert "in_sample" not in body["predictions"][1]
    decode = lambda text: np.frombuffer(base64.b64decode(text), dtype="<f8")
    for k in (0, 2):
        want = direct_in_sample(AutoETS(season_length=12), targets[k], 1, QUANTILES)
        got = body["predictions"][k]["in_sample"]
        assert decode(got["mean"]).tolist() == want["mean"]
        for q, values in want["quantiles"].items():
            assert decode(got["quantiles"][q]).tolist() == values, (k, q)
    series = [{"target": targets[0], "in_sample": True}]
    naive = worker.infer(**infer_body("seasonal-naive", series=series, freq="MS", horizon=1, quantiles=QUANTILES, encoding="base64"))[1]
    fitted = decode(naive["predictions"][0]["in_sample"]["mean"])
    assert np.isnan(fitted[:12]).all() and np.isfinite(fitted[12:]).all()


def test_in_sample_must_be_a_boolean(worker):
    status, body = worker.infer(**infer_body("naive", series=[{"target": [1.0, 2.0, 3.0], "in_sample": 1}]))
    assert status == 400, body
    assert body["error"]["code"] == "bad_request" and "in_sample" in body["error"]["detail"], body
