"""Feature contributions ("explain": true, explain.py) through the real worker on chronos-2's tiny random-weight
checkpoint: SHAP's additivity (base value + Σ contributions = the forecast), the base value is the forecast without
covariates, and the values equal shap's KernelExplainer called directly over the worker's forecast of each coalition."""

from __future__ import annotations

import numpy as np
import pytest
import shap

from .helpers import TOLERANCES, assert_within, gappy_series


def series_with_covariates(n: int = 90, horizon: int = 12) -> dict:
    steps = np.arange(n + horizon)
    price = (10 + np.sin(steps / 3)).round(4).tolist()
    promo = (steps % 5 == 0).astype(float).tolist()
    return {
        "target": gappy_series(n, seed=7),
        "past_covariates": {"price": price[:n], "promo": promo[:n], "weather": (steps[:n] % 3).astype(float).tolist()},
        "future_covariates": {"price": price[n:], "promo": promo[n:]},
        "static_covariates": {"store": 3.0},
    }


def infer(worker, series: list[dict], **extra) -> dict:
    status, answer = worker.infer(model="chronos-2", size="small", freq="D", horizon=12, quantiles=[0.1, 0.9], series=series, **extra)
    assert status == 200, answer
    return answer


def only(series: dict, present: set[str]) -> dict:
    """The series with only the `present` covariates (what a coalition is)."""
    out = {"target": series["target"]}
    for field in ("past_covariates", "future_covariates", "static_covariates"):
        kept = {k: v for k, v in series.get(field, {}).items() if k in present}
        if kept:
            out[field] = kept
    return out


def test_contributions_add_up_to_the_forecast_and_start_from_it_without_covariates(chronos_worker):
    series = series_with_covariates()
    plain_second = {"target": gappy_series(60, seed=3), "past_covariates": {"price": list(np.linspace(1, 2, 60))}}
    answer = infer(chronos_worker, [series, plain_second], explain=True)
    for one, prediction in zip([series, plain_second], answer["predictions"]):
        c = prediction["contributions"]
        features = list(one["past_covariates"]) + list(one.get("static_covariates", {}))
        assert list(c["features"]) == features
        total = np.sum([c["features"][name] for name in features], axis=0) + np.asarray(c["base"])
        np.testing.assert_allclose(total, prediction["mean"], rtol=1e-9, atol=1e-9)  # SHAP's additivity, exact enumeration
    # the forecast is the plain call's, the base value the forecast without covariates
    alone_answer = infer(chronos_worker, [series])
    alone = alone_answer["predictions"][0]
    bare = infer(chronos_worker, [{"target": series["target"]}])["predictions"][0]
    tolerance = TOLERANCES["chronos-2"]["batch"]
    assert_within(answer["predictions"][0]["mean"], alone["mean"], tolerance, "mean")
    assert_within(answer["predictions"][0]["quantiles"]["0.1"], alone["quantiles"]["0.1"], tolerance, "0.1")
    assert_within(answer["predictions"][0]["contributions"]["base"], bare["mean"], tolerance, "base")
    assert answer["warnings"] == alone_answer["warnings"]  # the static covariate's warning once, for the series itself


def test_contributions_equal_shap_kernel_explainer_called_directly(chronos_worker):
    """The reference: shap's KernelExplainer (a different algorithm: weighted regression over coalitions, exact when
    it may enumerate them all) over the model's forecast function, each coalition forecast by the worker itself."""
    series = series_with_covariates()
    features = ["price", "promo", "weather", "store"]

    def forecast(rows: np.ndarray) -> np.ndarray:
        coalitions = [only(series, {f for f, on in zip(features, row) if on}) for row in np.asarray(rows)]
        return np.array([p["mean"] for p in infer(chronos_worker, coalitions)["predictions"]])

    explainer = shap.KernelExplainer(forecast, np.zeros((1, len(features))))
    values = explainer.shap_values(np.ones((1, len(features))), nsamples=2 ** len(features), silent=True)
    worker = infer(chronos_worker, [series], explain=True)["predictions"][0]["contributions"]
    tolerance = {"rel": 1e-5, "floor": 1}  # the worker's coalitions share one batch (padding: chronos-2's batch tolerance)
    for k, name in enumerate(features):
        assert_within(worker["features"][name], np.asarray(values)[0, k, :], tolerance, name)
    assert_within(worker["base"], np.atleast_1d(explainer.expected_value), tolerance, "base")


@pytest.mark.parametrize("body,detail", [
    ({"model": "chronos-bolt", "size": "tiny"}, "uses no covariates"),
    ({"multivariate": True}, "'explain' with 'multivariate'"),
])
def test_explain_needs_a_model_with_covariates_alone(chronos_worker, body, detail):
    request = {"model": "chronos-2", "size": "small", "freq": "D", "horizon": 12, "quantiles": [0.5],
               "series": [series_with_covariates()], "explain": True, **body}
    status, answer = chronos_worker.infer(**request)
    assert status == 400 and detail in answer["error"]["detail"], answer
