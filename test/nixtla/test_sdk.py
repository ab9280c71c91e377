"""Nixtla's own SDK (nixtla==0.9.0) against Horizon's /nixtla drop-in: NixtlaClient(base_url=.../nixtla,
api_key=<Horizon key>) with no other change. Each answer is compared with Horizon's own /v1 answer for
the same series and model, value for value."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import zstandard
from nixtla import ApiError, JobStatus, NixtlaClient

pytestmark = pytest.mark.filterwarnings("ignore::FutureWarning")  # detect_anomalies() announces its 1.0 rename


def v1_series(df: pd.DataFrame, exog: dict[str, str] | None = None) -> list[dict]:
    """The frame as /v1 series, in the SDK's order (sorted by unique_id); `exog` maps column → hist|future."""
    out = []
    for _, g in df.sort_values(["unique_id", "ds"]).groupby("unique_id", sort=True):
        s = {"target": g["y"].tolist(), "index": g["ds"].dt.strftime("%Y-%m-%d").tolist()}
        if exog:
            s["hist_variables"] = {c: g[c].tolist() for c in exog}
        out.append(s)
    return out


def v1(server, path: str, body: dict) -> dict:
    res = server.raw("POST", path, body)
    assert res.status_code == 200, res.text
    return res.json()


def by_series(df: pd.DataFrame) -> list[pd.DataFrame]:
    return [g for _, g in df.groupby("unique_id", sort=True)]


def test_forecast_with_levels_equals_v1(client: NixtlaClient, server, panel: pd.DataFrame) -> None:
    fc = client.forecast(panel, h=12, model="auto-ets", level=[80, 95])
    assert list(fc.columns) == ["unique_id", "ds", "TimeGPT", "TimeGPT-hi-80", "TimeGPT-hi-95", "TimeGPT-lo-80", "TimeGPT-lo-95"]
    ref = v1(server, "/v1/forecast", {"series": v1_series(panel), "horizon": 12, "freq": "MS", "model": "auto-ets", "quantiles": [0.025, 0.1, 0.9, 0.975]})
    groups = by_series(fc)
    assert len(groups) == 3
    for g, s in zip(groups, ref["series"]):
        p = s[0]["prediction"]
        np.testing.assert_array_equal(g["TimeGPT"], p["mean"])
        np.testing.assert_array_equal(g["TimeGPT-lo-80"], p["0.1"])
        np.testing.assert_array_equal(g["TimeGPT-hi-80"], p["0.9"])
        np.testing.assert_array_equal(g["TimeGPT-lo-95"], p["0.025"])
        np.testing.assert_array_equal(g["TimeGPT-hi-95"], p["0.975"])
        assert g["ds"].dt.strftime("%Y-%m-%d").tolist() == s[0]["index"]


def test_forecast_with_quantiles_equals_v1(client: NixtlaClient, server, panel: pd.DataFrame) -> None:
    fc = client.forecast(panel, h=6, model="seasonal-naive", quantiles=[0.1, 0.5, 0.9])
    assert list(fc.columns) == ["unique_id", "ds", "TimeGPT", "TimeGPT-q-10", "TimeGPT-q-50", "TimeGPT-q-90"]
    ref = v1(server, "/v1/forecast", {"series": v1_series(panel), "horizon": 6, "freq": "MS", "model": "seasonal-naive", "quantiles": [0.1, 0.9]})
    for g, s in zip(by_series(fc), ref["series"]):
        p = s[0]["prediction"]
        np.testing.assert_array_equal(g["TimeGPT-q-10"], p["0.1"])
        np.testing.assert_array_equal(g["TimeGPT-q-90"], p["0.9"])
        np.testing.assert_array_equal(g["TimeGPT-q-50"], p["mean"])  # the SDK's q-50 is its mean column


def cv_reference(server, panel: pd.DataFrame, **fields) -> list[list[dict]]:
    """Per series, /v1/cross-validation's windows, earliest first (`series`: instead of the panel's, e.g. with covariates)."""
    ref = v1(server, "/v1/cross-validation", {"series": v1_series(panel), "freq": "MS", **fields})
    return [sorted(s["windows"], key=lambda w: w["cutoff"]) for s in ref["models"][0]["series"]]


@pytest.mark.parametrize("refit", [True, False])
def test_cross_validation_equals_v1(client: NixtlaClient, server, panel: pd.DataFrame, refit: bool) -> None:
    cv = client.cross_validation(panel, h=6, n_windows=3, model="auto-ets", level=[80], refit=refit)
    windows = cv_reference(server, panel, horizon=6, n_windows=3, models=["auto-ets"], quantiles=[0.1, 0.9], refit=refit)
    for g, (_, series) in zip(by_series(cv), panel.sort_values(["unique_id", "ds"]).groupby("unique_id", sort=True)):
        ws = windows.pop(0)
        assert len(ws) == 3 and len(g) == 18
        dates = series["ds"].reset_index(drop=True)
        for k, w in enumerate(ws):
            rows = g.iloc[6 * k: 6 * (k + 1)]
            np.testing.assert_array_equal(rows["TimeGPT"], w["prediction"]["mean"])
            np.testing.assert_array_equal(rows["TimeGPT-lo-80"], w["prediction"]["0.1"])
            np.testing.assert_array_equal(rows["TimeGPT-hi-80"], w["prediction"]["0.9"])
            np.testing.assert_array_equal(rows["y"], w["actual"])
            assert (rows["cutoff"] == dates[w["cutoff"] - 1]).all()  # the last date before the window
            assert rows["ds"].dt.strftime("%Y-%m-%d").tolist() == w["index"]


def test_cross_validation_step_size(client: NixtlaClient, server, panel: pd.DataFrame) -> None:
    cv = client.cross_validation(panel, h=4, n_windows=3, step_size=2, model="seasonal-naive")
    windows = cv_reference(server, panel, horizon=4, n_windows=3, step=2, models=["seasonal-naive"], quantiles=[])
    for g, ws in zip(by_series(cv), windows):
        np.testing.assert_array_equal(g["TimeGPT"], np.concatenate([w["prediction"]["mean"] for w in ws]))
        assert g["cutoff"].nunique() == 3


def test_detect_anomalies_equals_v1(client: NixtlaClient, server, airpassengers: pd.DataFrame) -> None:
    df = airpassengers.copy()
    df.loc[65, "y"] = 900.0  # a spike in 1954-06
    out = client.detect_anomalies(df, model="seasonal-naive", level=99)
    ref = v1(server, "/v1/anomalies", {"series": v1_series(df), "freq": "MS", "model": "seasonal-naive", "level": 99})["series"][0]
    assert list(out.columns) == ["unique_id", "ds", "y", "TimeGPT", "TimeGPT-hi-99", "TimeGPT-lo-99", "anomaly"]
    assert len(out) == 144 - ref["scored_from"]
    np.testing.assert_array_equal(out["TimeGPT"], ref["forecast"])
    np.testing.assert_array_equal(out["TimeGPT-lo-99"], ref["lo"])
    np.testing.assert_array_equal(out["TimeGPT-hi-99"], ref["hi"])
    assert out["anomaly"].tolist() == ref["anomaly"]
    assert out.loc[out["anomaly"], "ds"].dt.strftime("%Y-%m").tolist()[0] == "1954-06"


def test_jobs_flow(client: NixtlaClient, server, panel: pd.DataFrame) -> None:
    job = client.jobs.forecast(panel, h=6, model="seasonal-naive", level=[80])
    result = job.wait(poll_interval=0.2)
    assert job.status == JobStatus.SUCCEEDED
    pd.testing.assert_frame_equal(result, client.forecast(panel, h=6, model="seasonal-naive", level=[80]))
    # the job is Horizon's own: readable through /v1 too
    assert server.raw("GET", f"/v1/forecast-jobs/{job.job_id}").json()["status"] == "completed"
    with pytest.raises(ApiError) as finished:
        job.cancel()
    assert finished.value.status_code == 409

    cv_job = client.jobs.cross_validation(panel, h=6, n_windows=2, model="seasonal-naive")
    pd.testing.assert_frame_equal(cv_job.wait(poll_interval=0.2), client.cross_validation(panel, h=6, n_windows=2, model="seasonal-naive"))
    assert server.raw("GET", f"/v1/cross-validation-jobs/{cv_job.job_id}").json()["status"] == "completed"


def test_wrong_key_is_401(server, airpassengers: pd.DataFrame) -> None:
    wrong = NixtlaClient(base_url=f"{server.url}/nixtla", api_key="hzn_AAAAAAAAAAAA_" + "a" * 43)
    assert wrong.validate_api_key() is False
    with pytest.raises(ApiError) as error:
        wrong.forecast(airpassengers, h=3, model="naive")
    assert error.value.status_code == 401
    assert "API key is not valid" in str(error.value)


def test_zstd_body(server, airpassengers: pd.DataFrame) -> None:
    """A payload over 1 MiB, which the SDK sends zstd-compressed: the same forecast as /v1's."""

    class Spy(NixtlaClient):
        encodings: list[str | None] = []

        def _encode_payload(self, payload, multithreaded_compress, *, task):
            content, headers = super()._encode_payload(payload, multithreaded_compress, task=task)
            self.encodings.append(headers.get("content-encoding"))
            return content, headers

    rng = np.random.default_rng(7)
    dates = pd.date_range("2020-01-01", periods=400, freq="D")
    df = pd.DataFrame({"unique_id": np.repeat([f"s{i:03d}" for i in range(600)], 400), "ds": np.tile(dates, 600),
                       "y": np.round(rng.normal(100, 10, 600 * 400), 2)})
    spy = Spy(base_url=f"{server.url}/nixtla", api_key=server.key)
    fc = spy.forecast(df, h=7, model="naive")
    assert spy.encodings == ["zstd"]
    ref = v1(server, "/v1/forecast", {"series": v1_series(df), "horizon": 7, "freq": "D", "model": "naive", "quantiles": []})
    np.testing.assert_array_equal(fc["TimeGPT"], np.concatenate([s[0]["prediction"]["mean"] for s in ref["series"]]))


def test_zstd_bomb_is_413(server) -> None:
    bomb = zstandard.ZstdCompressor(level=19).compress(b" " * (30 << 20))
    res = server.raw("POST", "/nixtla/v2/forecast", content=bomb, headers={"content-type": "application/json", "content-encoding": "zstd"})
    assert res.status_code == 413, res.text
    assert res.json()["code"] == "payload_too_large"


def test_unsupported_parameters_are_422_in_the_sdk_exception(client: NixtlaClient, airpassengers: pd.DataFrame) -> None:
    with pytest.raises(ApiError) as error:
        client.forecast(airpassengers, h=6, model="auto-ets", finetune_steps=5)
    assert error.value.status_code == 422
    # finetune_steps reaches /v1/forecast's inline fine-tuning, which names what it can fine-tune
    assert "finetune_steps: auto-ets cannot be fine-tuned" in str(error.value) and "fine-tunable: chronos-2" in str(error.value)
    with pytest.raises(ApiError) as error:
        client.cross_validation(airpassengers, h=6, model="auto-ets", multivariate=True)
    assert error.value.status_code == 422 and "multivariate" in str(error.value)
    # TimeGPT's depth scale has two equivalents (1: LoRA, 5: full); its losses none: refused, naming why
    with pytest.raises(ApiError) as error:
        client.forecast(airpassengers, h=6, model="chronos-2", finetune_steps=5, finetune_depth=3)
    assert error.value.status_code == 422 and "finetune_depth: 3" in str(error.value) and "LoRA adapter (finetune_depth=1)" in str(error.value)
    with pytest.raises(ApiError) as error:
        client.finetune(airpassengers, finetune_loss="mae")
    assert error.value.status_code == 422 and "finetune_loss" in str(error.value) and "quantile loss" in str(error.value)


def test_timegpt_names_run_the_default_model(client: NixtlaClient, server, panel: pd.DataFrame) -> None:
    fc = client.forecast(panel, h=6)  # the SDK's default model, timegpt-2.1
    ref = v1(server, "/v1/forecast", {"series": v1_series(panel), "horizon": 6, "freq": "MS", "model": "auto", "quantiles": []})
    np.testing.assert_array_equal(fc["TimeGPT"], np.concatenate([s[0]["prediction"]["mean"] for s in ref["series"]]))
    res = server.raw("GET", "/nixtla/model_params", params={"model": "timegpt-1", "freq": "MS"})
    assert res.headers["x-horizon-model"] == "auto"


def test_models_usage_and_key(server, airpassengers: pd.DataFrame) -> None:
    account = server.control("/account", {"daily": 50, "weekly": 100})
    client = NixtlaClient(base_url=f"{server.url}/nixtla", api_key=account["key"])
    assert client.validate_api_key() is True
    models = client.list_models()
    assert {"auto", "auto-ets", "seasonal-naive", "chronos-2"} <= set(models)
    before = client.usage()
    assert before["daily"]["limit"] == 50 and before["weekly"]["limit"] == 100
    client.forecast(airpassengers, h=3, model="naive")
    client.cross_validation(airpassengers, h=3, n_windows=2, model="naive")
    after = client.usage()
    assert after["daily"]["used"] == before["daily"]["used"] + 2  # one unit per call, like /v1
    assert after["daily"]["remaining"] == before["daily"]["remaining"] - 2


def test_exogenous_features_equal_v1(client: NixtlaClient, server, airpassengers: pd.DataFrame) -> None:
    df = airpassengers.assign(promo=np.arange(144) % 3 == 0, trend=np.arange(144, dtype=float)).astype({"promo": float})
    future = pd.DataFrame({"unique_id": "AirPassengers", "ds": pd.date_range("1961-01-01", periods=6, freq="MS"), "promo": [1.0, 0, 0, 1, 0, 0]})
    fc = client.forecast(df, h=6, X_df=future, hist_exog_list=["trend"], model="chronos-2", level=[80])
    series = v1_series(df, {"promo": "future", "trend": "hist"})
    series[0]["future_variables"] = {"promo": future["promo"].tolist()}
    series[0]["future_variables_index"] = future["ds"].dt.strftime("%Y-%m-%d").tolist()
    ref = v1(server, "/v1/forecast", {"series": series, "horizon": 6, "freq": "MS", "model": "chronos-2", "quantiles": [0.1, 0.9]})["series"][0][0]["prediction"]
    np.testing.assert_array_equal(fc["TimeGPT"], ref["mean"])
    np.testing.assert_array_equal(fc["TimeGPT-lo-80"], ref["0.1"])
    # a model without covariates: a 422 naming them, never silently dropped
    with pytest.raises(ApiError) as error:
        client.forecast(df, h=6, X_df=future, hist_exog_list=["trend"], model="auto-ets")
    assert error.value.status_code == 422 and "does not use known-future covariates" in str(error.value)


def test_timegpt_name_with_covariates_runs_a_model_that_uses_them(client: NixtlaClient, server, airpassengers: pd.DataFrame) -> None:
    """Issue 34: under the SDK's default model name, X_df and hist_exog_list go to a model that uses them (auto's
    candidates restricted to those: chronos-2 here), never dropped: the numbers are chronos-2's with the covariates."""
    df = airpassengers.assign(promo=np.arange(144) % 3 == 0, trend=np.arange(144, dtype=float)).astype({"promo": float})
    future = pd.DataFrame({"unique_id": "AirPassengers", "ds": pd.date_range("1961-01-01", periods=6, freq="MS"), "promo": [1.0, 0, 0, 1, 0, 0]})
    fc = client.forecast(df, h=6, X_df=future, hist_exog_list=["trend"], level=[80])  # model: the SDK's default, timegpt-2.1
    series = v1_series(df, {"promo": "future", "trend": "hist"})
    series[0]["future_variables"] = {"promo": future["promo"].tolist()}
    series[0]["future_variables_index"] = future["ds"].dt.strftime("%Y-%m-%d").tolist()
    body = {"series": series, "horizon": 6, "freq": "MS", "model": "chronos-2", "quantiles": [0.1, 0.9]}
    ref = v1(server, "/v1/forecast", body)["series"][0][0]["prediction"]
    np.testing.assert_array_equal(fc["TimeGPT"], ref["mean"])
    np.testing.assert_array_equal(fc["TimeGPT-hi-80"], ref["0.9"])
    plain = client.forecast(airpassengers, h=6, level=[80])
    assert not np.array_equal(fc["TimeGPT"], plain["TimeGPT"]), "the covariates changed the forecast"

    # cross-validation runs one model: with covariates, one of auto's candidates that uses them
    cv = client.cross_validation(df, h=6, n_windows=2, hist_exog_list=["trend"])
    windows = cv_reference(server, df.assign(unique_id="AirPassengers"), horizon=6, n_windows=2, models=["chronos-2"], quantiles=[], refit=True,
                           series=[{**s, "future_variables": {"promo": []}} for s in v1_series(df, {"promo": "future", "trend": "hist"})])
    np.testing.assert_array_equal(cv["TimeGPT"], np.concatenate([w["prediction"]["mean"] for w in windows[0]]))


def test_add_history(client: NixtlaClient, airpassengers: pd.DataFrame) -> None:
    out = client.forecast(airpassengers, h=6, model="auto-ets", add_history=True, level=[80])
    future = out[out["ds"] > airpassengers["ds"].max()]
    history = out[out["ds"] <= airpassengers["ds"].max()]
    assert len(future) == 6
    assert len(history) > 100  # fitted values over most of the history
    assert history["ds"].is_monotonic_increasing and history["ds"].max() == airpassengers["ds"].max()
    assert history["TimeGPT"].notna().all()


def test_finetune_then_use_list_get_and_delete_the_model(client: NixtlaClient, server, airpassengers: pd.DataFrame) -> None:
    """Issue 34: finetune() is a Horizon fine-tuning job of chronos-2 (the TimeGPT name's fine-tunable base) whose private
    model finetuned_model_id then runs: the same numbers as /v1 with that model; the account's models are listed, read
    and deleted through the SDK's own calls."""
    model_id = client.finetune(airpassengers, finetune_steps=5, output_model_id="air-lora")
    assert model_id == "air-lora"
    fc = client.forecast(airpassengers, h=6, finetuned_model_id=model_id, level=[80])
    ref = v1(server, "/v1/forecast", {"series": v1_series(airpassengers), "horizon": 6, "freq": "MS", "model": model_id, "quantiles": [0.1, 0.9]})
    np.testing.assert_array_equal(fc["TimeGPT"], ref["series"][0][0]["prediction"]["mean"])
    np.testing.assert_array_equal(fc["TimeGPT-lo-80"], ref["series"][0][0]["prediction"]["0.1"])
    cv = client.cross_validation(airpassengers, h=6, n_windows=2, finetuned_model_id=model_id)
    windows = cv_reference(server, airpassengers, horizon=6, n_windows=2, models=[model_id], quantiles=[], refit=True)
    np.testing.assert_array_equal(cv["TimeGPT"], np.concatenate([w["prediction"]["mean"] for w in windows[0]]))

    listed = {m.id: m for m in client.finetuned_models()}
    one = client.finetuned_model(model_id)
    assert listed[model_id] == one
    assert (one.base_model_id, one.model, one.steps, one.depth, one.loss, one.freq) == ("chronos-2", "chronos-2", 5, 1, "default", "MS")
    assert one.horizon_model_id.startswith("ft-")  # Horizon's own id, beside the name the SDK uses
    assert model_id in client.finetuned_models(as_df=True)["id"].tolist()
    private = [m for m in server.raw("GET", "/v1/models").json()["models"] if m.get("private")]
    assert one.horizon_model_id in [m["model_id"] for m in private]

    assert client.delete_finetuned_model(model_id) is True
    assert client.delete_finetuned_model(model_id) is False
    with pytest.raises(ApiError) as error:
        client.finetuned_model(model_id)
    assert error.value.status_code == 404
    with pytest.raises(ApiError) as error:
        client.forecast(airpassengers, h=6, finetuned_model_id=model_id)
    assert error.value.status_code == 422 and "is not a known model id" in str(error.value)


def test_jobs_finetune_full_depth_and_inline_finetune_steps(client: NixtlaClient, server, airpassengers: pd.DataFrame) -> None:
    job = client.jobs.finetune(airpassengers, finetune_steps=5, finetune_depth=5)
    model_id = job.wait(poll_interval=0.2)
    assert job.status == JobStatus.SUCCEEDED and model_id.startswith("ft-")
    assert client.finetuned_model(model_id).depth == 5  # every weight trained: Horizon's mode "full"
    assert server.raw("GET", f"/v1/fine-tuning-jobs/{job.job_id}").json()["summary"]["mode"] == "full"
    assert client.delete_finetuned_model(model_id) is True

    # finetune_steps under the TimeGPT name: chronos-2 fine-tuned on the call's series (LoRA at depth 1), nothing kept
    fc = client.forecast(airpassengers, h=6, finetune_steps=5)
    assert len(fc) == 6 and fc["TimeGPT"].notna().all()
    payload = {"series": {"y": airpassengers["y"].tolist(), "sizes": [144], "start_datetime": ["1949-01-01"]}, "model": "timegpt-2.1", "h": 6,
               "freq": "MS", "finetune_steps": 5}
    raw = server.raw("POST", "/nixtla/v2/forecast", payload).json()
    assert raw["model"] == "chronos-2"
    assert any("fine-tuned on this request's series for 5 steps" in w["message"] for w in raw["warnings"])
    assert [m for m in server.raw("GET", "/v1/models").json()["models"] if m.get("private")] == []


def test_cross_validation_with_finetune_steps_fine_tunes_each_window(client: NixtlaClient, server, airpassengers: pd.DataFrame) -> None:
    """Under a TimeGPT name, cross_validation(finetune_steps=N) fine-tunes chronos-2 on each window's history (LoRA at
    depth 1) and forecasts the window: /v1/forecast's inline fine-tuning on the series cut at each cutoff, value for value."""
    cv = client.cross_validation(airpassengers, h=6, n_windows=2, finetune_steps=5, level=[80])
    assert len(cv) == 12
    for k, cutoff in enumerate([144 - 12, 144 - 6]):
        head = airpassengers.iloc[:cutoff]
        body = {"series": v1_series(head), "horizon": 6, "freq": "MS", "model": "chronos-2", "quantiles": [0.1, 0.9],
                "finetune_steps": 5, "finetune_mode": "lora"}
        ref = v1(server, "/v1/forecast", body)["series"][0][0]["prediction"]
        rows = cv.iloc[6 * k: 6 * (k + 1)]
        np.testing.assert_array_equal(rows["TimeGPT"], ref["mean"])
        np.testing.assert_array_equal(rows["TimeGPT-hi-80"], ref["0.9"])
        assert (rows["cutoff"] == head["ds"].iloc[-1]).all()
    with pytest.raises(ApiError) as error:
        client.cross_validation(airpassengers, h=6, n_windows=2, finetune_steps=5, refit=False)
    assert error.value.status_code == 422 and "finetuned_model_id" in str(error.value)
