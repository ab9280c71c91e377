"""Every call of the sync client against the real server; DataFrame results equal the raw HTTP answers."""
from __future__ import annotations

import uuid
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from horizon_client import (
    AuthenticationError, ConflictError, Horizon, HorizonError, JobFailedError, NotFoundError, ValidationError,
)

QUANTILES = ["0.1", "0.5", "0.9"]


def assert_equals_raw(frame: pd.DataFrame, ids: list, raw: dict) -> None:
    """frame holds exactly the raw answer's numbers and dates, series by series, in input order."""
    assert list(frame.columns[:3]) == ["unique_id", "ds", "mean"]
    for uid, [prediction] in zip(ids, raw["series"]):
        rows = frame[frame["unique_id"] == uid]
        assert [d.strftime("%Y-%m-%d") for d in rows["ds"]] == [i[:10] for i in prediction["index"]]
        for key, values in prediction["prediction"].items():
            assert rows[key].tolist() == values, f"{uid} {key}"


def airpassengers_body(df: pd.DataFrame, **extra) -> dict:
    """Hand-built request (dates straight from the CSV's months), not through the client's conversion."""
    return {"series": [{"target": df["y"].tolist(), "index": [d.strftime("%Y-%m-01") for d in df["ds"]]}],
            "horizon": 24, "freq": "MS", "model": "auto-ets", "quantiles": [0.1, 0.5, 0.9], **extra}


def test_models_is_what_the_server_sends(server, client):
    # an earlier test loaded models: the `loaded` lists may refresh between two calls
    models, before, after = server.raw_around("/v1/models", client.models)
    assert models in (before, after)
    ids = [m["model_id"] for m in models["models"]]
    assert "auto-ets" in ids and "chronos-2" in ids and models["default_model"]


def test_warmup_and_status(client):
    warm = client.warmup("auto-ets")
    assert warm["model"] == "auto-ets" and warm["status"] == "warm"
    assert client.status()["status"] in ("ok", "degraded")


def test_airpassengers_round_trip_equals_raw_http(server, client, airpassengers):
    frame = client.forecast(airpassengers, h=24)  # freq inferred: MS
    raw = server.raw("POST", "/v1/forecast", airpassengers_body(airpassengers))
    assert raw.status_code == 200, raw.text
    assert list(frame.columns) == ["unique_id", "ds", "mean", *QUANTILES]
    assert len(frame) == 24 and frame["ds"].iloc[0] == pd.Timestamp("1961-01-01")
    assert_equals_raw(frame, ["AirPassengers"], raw.json())
    assert frame.attrs["model"] == "auto-ets" and frame.attrs["requests"] == 1
    # the plain-dict call gives the same answer as plain HTTP
    assert client.forecast_raw(airpassengers_body(airpassengers))["series"] == raw.json()["series"]


def test_month_end_dates_and_pandas_aliases(server, client, airpassengers):
    month_end = airpassengers.assign(ds=airpassengers["ds"] + pd.offsets.MonthEnd(0))
    frame = client.forecast(month_end, h=6, freq="ME")
    raw = server.raw("POST", "/v1/forecast", {**airpassengers_body(airpassengers), "horizon": 6,
                                              "series": [{"target": month_end["y"].tolist(), "index": [d.strftime("%Y-%m-%d") for d in month_end["ds"]]}]}).json()
    assert [d.strftime("%Y-%m-%d") for d in frame["ds"]] == raw["series"][0][0]["index"]
    assert frame["mean"].tolist() == raw["series"][0][0]["prediction"]["mean"]


def test_hourly_series_inferred(server, client):
    ett = pd.read_csv(Path(__file__).resolve().parents[3] / "web" / "samples" / "etth1-first-14-days.csv")
    df = pd.DataFrame({"unique_id": "OT", "ds": pd.to_datetime(ett["date"]), "y": ett["OT"]})
    frame = client.forecast(df, h=12, model="seasonal-naive")
    raw = server.raw("POST", "/v1/forecast", {"series": [{"target": df["y"].tolist(), "index": [d.strftime("%Y-%m-%dT%H:%M:%S") for d in df["ds"]]}],
                                             "horizon": 12, "freq": "H", "model": "seasonal-naive", "quantiles": [0.1, 0.5, 0.9]})
    assert raw.status_code == 200, raw.text
    prediction = raw.json()["series"][0][0]
    assert frame["ds"].tolist() == [pd.Timestamp(i.rstrip("Z")) for i in prediction["index"]]
    assert frame["0.9"].tolist() == prediction["prediction"]["0.9"]


def test_forecast_job_wait_get_list(server, client, airpassengers):
    sync = client.forecast(airpassengers, h=24)
    via_job = client.forecast_job(airpassengers, h=24)
    pd.testing.assert_frame_equal(via_job, sync)
    job = client.create_job(airpassengers_body(airpassengers))
    assert job["status"] == "queued"
    done = client.wait_for_job(job["job_id"], timeout=120)
    assert done["status"] == "completed" and done["series"] == server.raw("GET", f"/v1/forecast-jobs/{job['job_id']}").json()["series"]
    assert client.get_job(job["job_id"])["status"] == "completed"
    listed = list(client.list_jobs(page_size=1))  # one job per page: the iterator follows the cursor
    assert job["job_id"] in [j["job_id"] for j in listed] and len(listed) >= 2
    assert [j["job_id"] for j in client.list_jobs(status="completed")] == [j["job_id"] for j in listed if j["status"] == "completed"]
    # a finished job cannot be cancelled: 409
    with pytest.raises(ConflictError) as caught:
        client.cancel_job(job["job_id"])
    assert caught.value.status == 409 and caught.value.code == "job_not_cancellable"


def test_anomaly_job_equals_the_sync_answer(server, client):
    n = 48
    target = [100 + 10 * float(np.sin(2 * np.pi * i / 12)) + (i * 7 % 5) + (60 if i == 40 else 0) for i in range(n)]
    body = {"series": [{"target": target, "index": [d.strftime("%Y-%m-01") for d in pd.date_range("2018-01-01", periods=n, freq="MS")]}],
            "freq": "MS", "model": "seasonal-naive"}
    job = client.create_anomaly_job(body)
    assert (job["status"], job["model"], job["mode"]) == ("queued", "seasonal-naive", "in-sample")
    done = client.wait_for_anomaly_job(job["job_id"], timeout=120)
    assert done["result"] == server.raw("POST", "/v1/anomalies", body).json(), "the job's result is the synchronous answer"
    assert 40 in done["result"]["series"][0]["anomalies"]
    assert client.get_anomaly_job(job["job_id"])["status"] == "completed"
    with pytest.raises(ConflictError) as caught:
        client.cancel_anomaly_job(job["job_id"])
    assert caught.value.code == "job_not_cancellable"


def test_cancel_job_and_failed_wait(server, client):
    # a slow auto-arima job queued behind others; cancel it whichever state it is in
    index = pd.date_range("2020-01-01", periods=600, freq="h")
    values = (50 + 20 * np.sin(np.arange(600) * 2 * np.pi / 24) + (np.arange(600) * 7919 % 13)).tolist()
    body = {"series": [{"target": values, "index": [d.strftime("%Y-%m-%dT%H:%M") for d in index]}] * 4, "horizon": 48, "freq": "H", "model": "auto-arima"}
    job = client.create_job(body)
    try:
        cancelled = client.cancel_job(job["job_id"])
    except ConflictError:  # it finished before the DELETE arrived
        assert client.get_job(job["job_id"])["status"] == "completed"
        return
    assert cancelled["status"] == "cancelled"
    with pytest.raises(JobFailedError) as caught:
        client.wait_for_job(job["job_id"])
    assert caught.value.job["status"] == "cancelled" and "cancelled" in str(caught.value)


def test_api_keys_and_typed_errors(server, client):
    name = f"py-{uuid.uuid4().hex[:8]}"
    created = client.create_api_key(name)
    assert created["key"].startswith("hzn_")
    assert name in [k["name"] for k in client.list_api_keys()]
    with pytest.raises(ConflictError) as duplicate:
        client.create_api_key(name)
    assert duplicate.value.status == 409 and duplicate.value.code == "duplicate_key_name" and duplicate.value.request_id
    with Horizon(server.url, created["key"]) as other:
        assert other.models()["models"]
        client.revoke_api_key(created["id"])
        with pytest.raises(AuthenticationError) as unauthorized:
            other.models()
    assert unauthorized.value.status == 401 and unauthorized.value.code == "unauthorized" and unauthorized.value.detail

    with pytest.raises(NotFoundError) as missing:
        client.get_job("00000000-0000-0000-0000-000000000000")
    assert missing.value.status == 404 and isinstance(missing.value, HorizonError)

    with pytest.raises(ValidationError) as invalid:
        client.forecast_raw({"series": [{"target": [1, 2], "index": ["2020-01-01"]}], "horizon": 2, "freq": "M"})
    assert invalid.value.status == 422 and invalid.value.code == "validation_failed"
    assert any(e["field"] == "freq" for e in invalid.value.errors)


def test_dataframe_422_names_the_field(client, airpassengers):
    with pytest.raises(ValidationError) as caught:
        client.forecast(airpassengers, h=24, model="no-such-model")
    assert caught.value.errors and caught.value.errors[0]["field"] == "model"
    assert "auto-ets" in caught.value.detail  # the 422 lists the valid ids


def test_covariates_via_x_df(server, client):
    n, h = 48, 6
    dates = pd.date_range("2020-01-01", periods=n + h, freq="D")
    price = (10 + np.sin(np.arange(n + h) / 3)).round(3)
    promo = (np.arange(n + h) % 7 == 0).astype(float)
    y = 100 + 5 * np.sin(np.arange(n) * 2 * np.pi / 7) - 3 * price[:n] + 8 * promo[:n]
    df = pd.DataFrame({"unique_id": "shop", "ds": dates[:n], "y": y, "price": price[:n], "promo": promo[:n]})
    X_df = pd.DataFrame({"unique_id": "shop", "ds": dates[n:], "price": price[n:], "promo": promo[n:]})
    static_df = pd.DataFrame({"unique_id": ["shop"], "size": [3.0]})
    kwargs = dict(h=h, model="chronos-2", model_size="small")
    frame = client.forecast(df, X_df=X_df, static_df=static_df, **kwargs)
    raw = server.raw("POST", "/v1/forecast", {
        "series": [{"target": y.tolist(), "index": [d.strftime("%Y-%m-%d") for d in dates[:n]],
                    "hist_variables": {"price": price[:n].tolist(), "promo": promo[:n].tolist()},
                    "future_variables": {"price": price[n:].tolist(), "promo": promo[n:].tolist()},
                    "future_variables_index": [d.strftime("%Y-%m-%d") for d in dates[n:]],
                    "static_variables": {"size": 3.0}}],
        "horizon": h, "freq": "D", "model": "chronos-2", "model_size": "small", "quantiles": [0.1, 0.5, 0.9]})
    assert raw.status_code == 200, raw.text
    assert_equals_raw(frame, ["shop"], raw.json())
    assert frame.attrs["warnings"] == raw.json()["warnings"]
    # the covariates reach the model: without them the forecast is another one
    plain = client.forecast(df[["unique_id", "ds", "y"]], **kwargs)
    assert plain["mean"].tolist() != frame["mean"].tolist()


def many_series(airpassengers: pd.DataFrame, n: int) -> pd.DataFrame:
    return pd.concat([airpassengers.assign(unique_id=f"s{i:02d}", y=airpassengers["y"] * (1 + i / 10)) for i in range(n)], ignore_index=True)


def one_request(server, df: pd.DataFrame) -> dict:
    ids = list(dict.fromkeys(df["unique_id"]))
    body = {"series": [{"target": df[df["unique_id"] == uid]["y"].tolist(), "index": [d.strftime("%Y-%m-%d") for d in df[df["unique_id"] == uid]["ds"]]} for uid in ids],
            "horizon": 12, "freq": "MS", "model": "auto-ets", "quantiles": [0.1, 0.5, 0.9]}
    raw = server.raw("POST", "/v1/forecast", body)
    assert raw.status_code == 200, raw.text
    return raw.json()


def test_split_by_client_limit_equals_one_request(server, airpassengers):
    df = many_series(airpassengers, 10)
    with Horizon(server.url, server.key, max_request_bytes=6000) as small:
        frame = small.forecast(df, h=12)
    assert frame.attrs["requests"] >= 3
    assert_equals_raw(frame, [f"s{i:02d}" for i in range(10)], one_request(server, df))


def test_split_learnt_from_the_servers_413_equals_one_request(server, small_server, airpassengers):
    df = many_series(airpassengers, 10)
    with Horizon(small_server.url, small_server.key) as c:
        frame = c.forecast(df, h=12)
        assert c.max_request_bytes <= 6000  # narrowed after the server's 413s
        assert frame.attrs["requests"] >= 3
        jobs = c.forecast_job(df, h=12)
    expected = one_request(server, df)  # the whole set in one request, to the server with the default limit
    assert_equals_raw(frame, [f"s{i:02d}" for i in range(10)], expected)
    pd.testing.assert_frame_equal(jobs, frame)


def test_warnings_name_positions_in_df(server, client, airpassengers):
    # series 1 has a gap: its warning must name position 1 of df, also when each series goes alone
    gappy = airpassengers.drop(index=[10]).assign(unique_id="gappy")
    df = pd.concat([airpassengers, gappy], ignore_index=True)
    with Horizon(server.url, server.key, max_request_bytes=4500) as small:
        frame = small.forecast(df, h=3, freq="MS")
    assert frame.attrs["requests"] == 2
    assert [w["series"] for w in frame.attrs["warnings"]] == [1]
