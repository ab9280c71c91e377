"""Online anomaly detection through Nixtla's own SDK (nixtla==0.9.0): detect_anomalies_online() (univariate and
multivariate threshold methods) equals Horizon's POST /v1/anomalies with detection_size value for value, and
detect_anomalies() with the SDK's defaults on 30 hourly series × 336 values is answered in ONE request (no retry)."""
from __future__ import annotations

import math
import time
from statistics import NormalDist

import httpx
import numpy as np
import pandas as pd
import pytest
from nixtla import ApiError, NixtlaClient

pytestmark = pytest.mark.filterwarnings("ignore::FutureWarning")  # the SDK announces its 1.0 renames


def v1_series(df: pd.DataFrame, fmt: str) -> list[dict]:
    """The frame as /v1 series, in the SDK's order (sorted by unique_id)."""
    return [{"target": g["y"].tolist(), "index": g["ds"].dt.strftime(fmt).tolist()}
            for _, g in df.sort_values(["unique_id", "ds"]).groupby("unique_id", sort=True)]


def v1_anomalies(server, body: dict) -> dict:
    res = server.raw("POST", "/v1/anomalies", body)
    assert res.status_code == 200, res.text
    return res.json()


class Counting(NixtlaClient):
    """The SDK as a user makes it, with every HTTP request it sends recorded (retries included)."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.requests: list[str] = []

    def _make_client(self, **kwargs) -> httpx.Client:
        hooks = {"request": [lambda request: self.requests.append(f"{request.method} {request.url.path}")]}
        return httpx.Client(**kwargs, event_hooks=hooks)


def z(level: float) -> float:
    return NormalDist().inv_cdf((1 + level / 100) / 2)


def test_detect_anomalies_online_univariate_equals_v1(client: NixtlaClient, server, panel: pd.DataFrame) -> None:
    df = panel.copy()
    spike = df.index[(df.unique_id == "air") & (df.ds == "1960-06-01")][0]
    df.loc[spike, "y"] += 300.0
    out = client.detect_anomalies_online(df, h=12, detection_size=24, freq="MS", model="auto-ets", level=99)
    assert list(out.columns) == ["unique_id", "ds", "y", "TimeGPT", "anomaly", "anomaly_score", "TimeGPT-hi-99", "TimeGPT-lo-99"]
    ref = v1_anomalies(server, {"series": v1_series(df, "%Y-%m-%d"), "freq": "MS", "model": "auto-ets", "level": 99, "detection_size": 24, "step": 1})
    assert ref["mode"] == "in-sample" and ref["detection_size"] == 24
    for (uid, g), s in zip(out.groupby("unique_id", sort=True), ref["series"]):
        assert len(g) == 24, uid
        assert g["ds"].dt.strftime("%Y-%m-%d").tolist() == s["index"]
        assert g["y"].tolist() == s["actual"]
        np.testing.assert_array_equal(g["TimeGPT"], s["forecast"])
        np.testing.assert_array_equal(g["TimeGPT-lo-99"], s["lo"])
        np.testing.assert_array_equal(g["TimeGPT-hi-99"], s["hi"])
        assert g["anomaly"].tolist() == s["anomaly"]
        # the score in standard deviations: Horizon's score (band half-widths) × z(99)
        np.testing.assert_allclose(g["anomaly_score"], np.array(s["score"], dtype=float) * z(99), rtol=1e-8)
        assert ((g["anomaly_score"].abs() > z(99)) == g["anomaly"]).all()
    flagged = out.loc[out["anomaly"]]
    assert ("air", "1960-06") in set(zip(flagged.unique_id, flagged.ds.dt.strftime("%Y-%m"))), flagged


def test_detect_anomalies_online_multivariate_combines_the_series_per_step(client: NixtlaClient, server, airpassengers: pd.DataFrame) -> None:
    rng = np.random.default_rng(3)
    a = airpassengers.assign(unique_id="a")
    # quarters: exact in the float32 the SDK sends its values as
    b = airpassengers.assign(unique_id="b", y=lambda d: np.round((d.y * 0.5 + rng.normal(0, 3, len(d))) * 4) / 4)
    df = pd.concat([a, b], ignore_index=True)
    # both series 2.3 σ above their forecast at one step: neither passes its own band (z(99) = 2.58 σ), the two
    # together do (2 × 2.3² = 10.6 > the chi-squared threshold 9.2)
    clean = client.detect_anomalies_online(df, h=6, detection_size=18, freq="MS", model="seasonal-naive", level=99)
    for uid in ["a", "b"]:
        row = clean.loc[(clean.unique_id == uid) & (clean.ds == "1960-03-01")].iloc[0]
        sigma = (row["TimeGPT-hi-99"] - row["TimeGPT-lo-99"]) / (2 * z(99))
        df.loc[(df.unique_id == uid) & (df.ds == "1960-03-01"), "y"] = np.round((row["TimeGPT"] + 2.3 * sigma) * 4) / 4
    uni = client.detect_anomalies_online(df, h=6, detection_size=18, freq="MS", model="seasonal-naive", level=99)
    assert not uni["anomaly"].any(), uni.loc[uni["anomaly"]]
    out = client.detect_anomalies_online(df, h=6, detection_size=18, freq="MS", model="seasonal-naive", level=99, threshold_method="multivariate")
    assert list(out.columns) == ["unique_id", "ds", "y", "TimeGPT", "anomaly", "anomaly_score", "accumulated_anomaly_score"]
    ref = v1_anomalies(server, {"series": v1_series(df, "%Y-%m-%d"), "freq": "MS", "model": "seasonal-naive", "level": 99, "detection_size": 18, "step": 1})
    ga, gb = [g.reset_index(drop=True) for _, g in out.groupby("unique_id", sort=True)]
    for g, s in zip([ga, gb], ref["series"]):
        np.testing.assert_array_equal(g["TimeGPT"], s["forecast"])
        np.testing.assert_allclose(g["anomaly_score"], np.array(s["score"], dtype=float) * z(99), rtol=1e-8)
    # each step's combined score: the sum of both series' squared scores, the same on both rows; flagged above
    # the chi-squared quantile at 99 % with 2 degrees of freedom, -2 ln(1 - 0.99)
    combined = ga["anomaly_score"] ** 2 + gb["anomaly_score"] ** 2
    np.testing.assert_allclose(ga["accumulated_anomaly_score"], combined, rtol=1e-12)
    np.testing.assert_array_equal(ga["accumulated_anomaly_score"], gb["accumulated_anomaly_score"])
    threshold = -2 * math.log(0.01)
    assert (ga["anomaly"] == (combined > threshold)).all() and (gb["anomaly"] == ga["anomaly"]).all()
    assert ga.loc[ga["anomaly"], "ds"].dt.strftime("%Y-%m").tolist() == ["1960-03"], ga.loc[ga["anomaly"]]

    # one series alone: multivariate flags exactly what univariate flags (a symmetric band)
    one = client.detect_anomalies_online(a, h=6, detection_size=30, freq="MS", model="auto-ets", level=80, threshold_method="multivariate")
    alone = client.detect_anomalies_online(a, h=6, detection_size=30, freq="MS", model="auto-ets", level=80)
    assert one["anomaly"].tolist() == alone["anomaly"].tolist() and one["anomaly"].any()


def test_detect_anomalies_online_422s_in_the_sdk_exception(client: NixtlaClient, panel: pd.DataFrame, airpassengers: pd.DataFrame) -> None:
    with pytest.raises(ApiError) as error:  # the panel's series differ in length
        client.detect_anomalies_online(panel, h=6, detection_size=12, freq="MS", model="naive", threshold_method="multivariate")
    assert error.value.status_code == 422 and "series.sizes" in str(error.value) and "same length" in str(error.value)
    with pytest.raises(ApiError) as error:  # 144 monthly values, two seasons (24) before the first scored one
        client.detect_anomalies_online(airpassengers, h=6, detection_size=121, freq="MS", model="naive")
    assert error.value.status_code == 422 and "detection_size 121 exceeds what series 0 can score" in str(error.value)
    assert "at most 120 can be scored" in str(error.value)
    with pytest.raises(ApiError) as error:
        client.detect_anomalies_online(airpassengers, h=6, detection_size=12, freq="MS", model="naive", finetune_steps=5)
    assert error.value.status_code == 422 and "finetune_steps" in str(error.value)


def hourly_panel(n_series: int, length: int) -> pd.DataFrame:
    """Hourly series with a daily cycle, a weekly dip and noise (seeded), a few spikes."""
    rng = np.random.default_rng(33)
    ds = pd.date_range("2026-01-05", periods=length, freq="h")
    hour = np.arange(length)
    frames = []
    for k in range(n_series):
        y = 50 + 10 * k + 8 * np.sin(2 * np.pi * (hour + k) / 24) - 4 * (ds.dayofweek >= 5) + rng.normal(0, 1.5, length)
        y[rng.integers(100, length)] += 25
        # eighths: exact in the float32 the SDK sends its values as
        frames.append(pd.DataFrame({"unique_id": f"sensor-{k:02d}", "ds": ds, "y": np.round(y * 8) / 8}))
    return pd.concat(frames, ignore_index=True)


def test_detect_anomalies_30_hourly_series_default_settings_one_request(server) -> None:
    """Issue 33's acceptance: the SDK's defaults (model timegpt-2.1 → "auto", level 99, its 60 s timeout, 6 attempts)
    on 30 hourly series × 336 values: answered by the first request, none retried."""
    df = hourly_panel(30, 336)
    sdk = Counting(base_url=f"{server.url}/nixtla", api_key=server.key)
    started = time.monotonic()
    out = sdk.detect_anomalies(df, freq="h")
    print(f"\n# detect_anomalies, 30 hourly series × 336, SDK defaults: answered in {time.monotonic() - started:.1f} s (the SDK's timeout: 60 s)")
    # the model's metadata (the SDK asks it before every call), then the detection: once, not retried
    assert sdk.requests == ["GET /nixtla/model_params", "POST /nixtla/v2/anomaly_detection"], sdk.requests
    ref = v1_anomalies(server, {"series": v1_series(df, "%Y-%m-%dT%H:%M:%S"), "freq": "H", "model": "auto", "level": 99})
    assert ref["mode"] == "in-sample"
    assert len(out) == sum(len(s["forecast"]) for s in ref["series"]) == 30 * (336 - 48)
    np.testing.assert_array_equal(out["TimeGPT"], np.concatenate([s["forecast"] for s in ref["series"]]))
    assert out["anomaly"].tolist() == [f for s in ref["series"] for f in s["anomaly"]]


def test_jobs_detect_anomalies_is_a_horizon_anomaly_job(client: NixtlaClient, server, panel: pd.DataFrame) -> None:
    """jobs.detect_anomalies() (online, async): POST /v1/anomaly-jobs with detection_size; the result equals the
    synchronous detect_anomalies_online(); the job is readable through /v1; multivariate is refused at submit."""
    job = client.jobs.detect_anomalies(panel, h=6, detection_size=12, freq="MS", model="auto-ets", level=95)
    result = job.wait(poll_interval=0.2)
    pd.testing.assert_frame_equal(result, client.detect_anomalies_online(panel, h=6, detection_size=12, freq="MS", model="auto-ets", level=95))
    assert len(result) == 3 * 12
    view = server.raw("GET", f"/v1/anomaly-jobs/{job.job_id}").json()
    assert view["status"] == "completed" and view["result"]["detection_size"] == 12
    with pytest.raises(ApiError) as finished:
        job.cancel()
    assert finished.value.status_code == 409
    with pytest.raises(ApiError) as error:
        client.jobs.detect_anomalies(panel, h=6, detection_size=12, freq="MS", model="auto-ets", threshold_method="multivariate")
    assert error.value.status_code == 422 and "threshold_method" in str(error.value) and "detect_anomalies_online" in str(error.value)
