"""Every public method of NixtlaClient 0.9.0 (and of its `jobs`) against Horizon's /nixtla, as one realistic script would
call them (issue 34's acceptance): each gives the numbers of the matching /v1 call, or raises the SDK's own exception with
Horizon's precise reason. test_every_method_is_covered fails when the SDK has a method this module does not exercise."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from nixtla import ApiError, NixtlaClient

from test_sdk import cv_reference, v1, v1_series

pytestmark = pytest.mark.filterwarnings("ignore::FutureWarning")

COVERED = {
    "validate_api_key", "usage", "list_models", "forecast", "cross_validation", "detect_anomalies", "detect_anomalies_online",
    "finetune", "finetuned_models", "finetuned_model", "delete_finetuned_model", "simulate", "explain", "plot", "audit_data",
    "clean_data", "jobs",
}
COVERED_JOBS = {"forecast", "cross_validation", "finetune", "detect_anomalies", "simulate", "explain", "execute_step"}


def public(obj) -> set[str]:
    return {m for m in dir(obj) if not m.startswith("_")}


def test_every_method_is_covered(client: NixtlaClient) -> None:
    assert public(NixtlaClient) == COVERED
    assert public(client.jobs) == COVERED_JOBS


@pytest.fixture(scope="module")
def exog(airpassengers: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """AirPassengers with a known-future column (promo: X_df gives its future) and a historical-only one (trend)."""
    df = airpassengers.assign(promo=(np.arange(144) % 3 == 0).astype(float), trend=np.arange(144, dtype=float))
    future = pd.DataFrame({"unique_id": "AirPassengers", "ds": pd.date_range("1961-01-01", periods=6, freq="MS"), "promo": [1.0, 0, 0, 1, 0, 0]})
    return df, future


def v1_exog_series(df: pd.DataFrame, future: pd.DataFrame | None, columns: list[str]) -> list[dict]:
    series = v1_series(df, {c: "hist" for c in columns})
    if future is not None:
        series[0]["future_variables"] = {c: future[c].tolist() for c in future.columns if c not in ("unique_id", "ds")}
        series[0]["future_variables_index"] = future["ds"].dt.strftime("%Y-%m-%d").tolist()
    return series


def test_validate_api_key_usage_and_list_models(server, client: NixtlaClient, airpassengers: pd.DataFrame) -> None:
    assert client.validate_api_key() is True
    assert NixtlaClient(base_url=f"{server.url}/nixtla", api_key="hzn_wrong").validate_api_key() is False
    served = {m["model_id"] for m in server.raw("GET", "/v1/models").json()["models"] if m["available"] and not m.get("private")}
    assert set(client.list_models()) == served | {"auto"}
    before = client.usage()
    client.forecast(airpassengers, h=3, model="naive")
    assert client.usage()["daily"]["used"] == before["daily"]["used"] + 1  # the /v1 call's one unit


def test_forecast_with_x_df_both_ways(server, client: NixtlaClient, exog) -> None:
    """X_df's future values (promo, a known-future column), and historical columns named in hist_exog_list (trend):
    each alone and together, chronos-2's /v1 forecast with the same variables, value for value."""
    df, future = exog
    cases = [
        (df.drop(columns="trend"), future, None, ["promo"]),
        (df.drop(columns="promo"), None, ["trend"], ["trend"]),
        (df, future, ["trend"], ["promo", "trend"]),
    ]
    for frame, x_df, hist, columns in cases:
        fc = client.forecast(frame, h=6, X_df=x_df, hist_exog_list=hist, model="chronos-2", level=[80])
        body = {"series": v1_exog_series(frame, x_df, columns), "horizon": 6, "freq": "MS", "model": "chronos-2", "quantiles": [0.1, 0.9]}
        ref = v1(server, "/v1/forecast", body)["series"][0][0]["prediction"]
        np.testing.assert_array_equal(fc["TimeGPT"], ref["mean"], err_msg=str(columns))
        np.testing.assert_array_equal(fc["TimeGPT-hi-80"], ref["0.9"], err_msg=str(columns))


def test_forecast_feature_contributions(server, client: NixtlaClient, exog) -> None:
    """feature_contributions=True: the SDK's frame (per series and step: one column per exogenous feature, then
    base_value) holds /v1/forecast explain's Shapley values, and base_value + Σ features = TimeGPT (SHAP's additivity)."""
    df, future = exog
    fc = client.forecast(df, h=6, X_df=future, hist_exog_list=["trend"], model="chronos-2", feature_contributions=True)
    shap_df = client.feature_contributions
    assert list(shap_df.columns) == ["unique_id", "ds", "TimeGPT", "promo", "trend", "base_value"]
    np.testing.assert_array_equal(shap_df["TimeGPT"], fc["TimeGPT"])
    body = {"series": v1_exog_series(df, future, ["promo", "trend"]), "horizon": 6, "freq": "MS", "model": "chronos-2", "quantiles": [], "explain": True}
    ref = v1(server, "/v1/forecast", body)["series"][0][0]
    np.testing.assert_array_equal(shap_df["promo"], ref["contributions"]["features"]["promo"])
    np.testing.assert_array_equal(shap_df["trend"], ref["contributions"]["features"]["trend"])
    np.testing.assert_array_equal(shap_df["base_value"], ref["contributions"]["base"])
    np.testing.assert_allclose(shap_df[["promo", "trend", "base_value"]].sum(axis=1), fc["TimeGPT"], rtol=1e-9)
    # under a TimeGPT name: a model that uses the covariates explains its forecast (chronos-2 here)
    fc = client.forecast(df, h=6, X_df=future, hist_exog_list=["trend"], feature_contributions=True)
    np.testing.assert_array_equal(client.feature_contributions["base_value"], ref["contributions"]["base"])
    # what Horizon does not explain is the SDK's ApiError naming why
    with pytest.raises(ApiError) as error:
        client.forecast(df, h=6, X_df=future, model="chronos-2", feature_contributions=True, feature_contributions_type="granger")
    assert error.value.status_code == 422 and '"granger"' in str(error.value) and "Shapley" in str(error.value)
    with pytest.raises(ApiError) as error:
        client.forecast(df, h=6, X_df=future, model="chronos-2", feature_contributions=True, add_history=True)
    assert error.value.status_code == 422 and "explains forecast() only" in str(error.value)
    with pytest.raises(ApiError) as error:
        client.jobs.forecast(df, h=6, X_df=future, model="chronos-2", feature_contributions=True)
    assert error.value.status_code == 422 and "synchronously only" in str(error.value)


def test_cross_validation_and_its_job(server, client: NixtlaClient, airpassengers: pd.DataFrame) -> None:
    cv = client.cross_validation(airpassengers, h=6, n_windows=2, model="auto-ets", level=[80])
    windows = cv_reference(server, airpassengers, horizon=6, n_windows=2, models=["auto-ets"], quantiles=[0.1, 0.9], refit=True)
    np.testing.assert_array_equal(cv["TimeGPT"], np.concatenate([w["prediction"]["mean"] for w in windows[0]]))
    job = client.jobs.cross_validation(airpassengers, h=6, n_windows=2, model="auto-ets", level=[80])
    pd.testing.assert_frame_equal(job.wait(poll_interval=0.2), cv)


def test_forecast_job(client: NixtlaClient, airpassengers: pd.DataFrame) -> None:
    fc = client.forecast(airpassengers, h=6, model="auto-ets", level=[80])
    pd.testing.assert_frame_equal(client.jobs.forecast(airpassengers, h=6, model="auto-ets", level=[80]).wait(poll_interval=0.2), fc)


def test_detect_anomalies(server, client: NixtlaClient, airpassengers: pd.DataFrame) -> None:
    an = client.detect_anomalies(airpassengers, model="auto-ets", level=99)
    ref = v1(server, "/v1/anomalies", {"series": v1_series(airpassengers), "freq": "MS", "model": "auto-ets", "level": 99})["series"][0]
    np.testing.assert_array_equal(an["TimeGPT"], ref["forecast"])
    np.testing.assert_array_equal(an["anomaly"], ref["anomaly"])


def test_finetune_then_list_get_forecast_delete(server, client: NixtlaClient, airpassengers: pd.DataFrame) -> None:
    model_id = client.finetune(airpassengers, finetune_steps=3, output_model_id="every-method")
    fc = client.forecast(airpassengers, h=6, finetuned_model_id=model_id)
    ref = v1(server, "/v1/forecast", {"series": v1_series(airpassengers), "horizon": 6, "freq": "MS", "model": model_id, "quantiles": []})
    np.testing.assert_array_equal(fc["TimeGPT"], ref["series"][0][0]["prediction"]["mean"])
    assert model_id in [m.id for m in client.finetuned_models()]
    assert client.finetuned_model(model_id).base_model_id == "chronos-2"
    job = client.jobs.finetune(airpassengers, finetune_steps=3)
    second = job.wait(poll_interval=0.2)
    assert second.startswith("ft-") and second in client.finetuned_models(as_df=True)["id"].tolist()
    assert client.delete_finetuned_model(model_id) is True and client.delete_finetuned_model(second) is True
    assert client.delete_finetuned_model(model_id) is False


def test_explain_and_execute_step_are_precise_501s(client: NixtlaClient, exog) -> None:
    df, _ = exog
    with pytest.raises(ApiError) as error:
        client.explain(df, features=["promo", "trend"], poll_timeout=30)
    assert error.value.status_code == 501 and "feature_contributions=True" in str(error.value)
    with pytest.raises(ApiError) as error:
        client.jobs.explain(df, features=["promo"])
    assert error.value.status_code == 501
    with pytest.raises(ApiError) as error:
        client.jobs.execute_step("forecast", {"h": 3})
    assert error.value.status_code == 501 and "no Horizon equivalent" in str(error.value)


def test_client_side_methods(client: NixtlaClient, airpassengers: pd.DataFrame) -> None:
    """audit_data, clean_data and plot work on the frame itself (no request)."""
    passed, failures, cases = client.audit_data(airpassengers, freq="MS")
    assert passed and not failures
    cleaned, clean, _, _ = client.clean_data(airpassengers, fail_dict=failures, case_specific_dict=cases, freq="MS")
    assert clean and len(cleaned) == len(airpassengers)
    # plot() draws client-side (no request) with matplotlib, which .tools/venv-nixtla does not install: the SDK says so
    try:
        import matplotlib
    except ImportError:
        with pytest.raises(ImportError, match="matplotlib"):
            client.plot(airpassengers)
    else:
        matplotlib.use("Agg")  # no display needed
        assert client.plot(airpassengers) is not None


# Written last: other helpers built these calls at the same time (issue 33 part 3: online anomalies, bd02947; issue 34
# parts 3 and 5: multivariate and simulate).

def test_detect_anomalies_online(server, client: NixtlaClient, airpassengers: pd.DataFrame) -> None:
    an = client.detect_anomalies_online(airpassengers, h=1, detection_size=12, model="auto-ets", level=99, threshold_method="univariate")
    body = {"series": v1_series(airpassengers), "freq": "MS", "model": "auto-ets", "level": 99, "detection_size": 12}
    ref = v1(server, "/v1/anomalies", body)["series"][0]
    assert len(an) == 12
    np.testing.assert_array_equal(an["TimeGPT"], ref["forecast"])
    job = client.jobs.detect_anomalies(airpassengers, h=1, detection_size=12, model="auto-ets", level=99)
    pd.testing.assert_frame_equal(job.wait(poll_interval=0.2), an)


def test_multivariate(server, client: NixtlaClient, panel: pd.DataFrame) -> None:
    fc = client.forecast(panel, h=6, model="chronos-2", multivariate=True)
    ref = v1(server, "/v1/forecast", {"series": v1_series(panel), "horizon": 6, "freq": "MS", "model": "chronos-2", "quantiles": [], "multivariate": True})
    np.testing.assert_array_equal(fc["TimeGPT"], np.concatenate([s[0]["prediction"]["mean"] for s in ref["series"]]))


def test_simulate(server, client: NixtlaClient, airpassengers: pd.DataFrame) -> None:
    # sample paths are the library's own draws: auto-ets (statsforecast's simulate), as POST /v1/forecast with samples
    paths = client.simulate(airpassengers, h=6, n_paths=10, model="auto-ets")
    assert len(paths) == 60
    ref = v1(server, "/v1/forecast", {"series": v1_series(airpassengers), "horizon": 6, "freq": "MS", "model": "auto-ets", "quantiles": [], "samples": 10})
    np.testing.assert_array_equal(paths["TimeGPT"], np.concatenate(ref["series"][0][0]["samples"]))
    pd.testing.assert_frame_equal(client.jobs.simulate(airpassengers, h=6, n_paths=10, model="auto-ets").wait(poll_interval=0.2), paths)
    with pytest.raises(ApiError) as error:  # chronos-2 predicts quantiles: it draws no paths
        client.simulate(airpassengers, h=6, n_paths=10, model="chronos-2")
    assert error.value.status_code == 422
