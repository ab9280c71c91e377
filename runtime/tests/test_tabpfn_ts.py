"""TabPFN-TS through the real worker on a tiny random-weight v3.5 checkpoint: the numbers are the
official pipeline's called plainly (tabpfn_ts_reference.py, parity-tolerances.json), a series' forecast is the same alone and inside a batch
of concurrent requests, known-future covariates reach the model, and missing weights answer 424.

Slow: every series is a TabPFN fit on the CPU. Few, short series; one thread per worker (the machine
is shared), generous timeouts."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from .conftest import start_worker, stop_worker
from .helpers import TOLERANCES, assert_parity, assert_prediction_within, seasonal_series
from .tabpfn_ts_reference import reference

MODEL = "tabpfn-ts"
LEVELS = [0.05, 0.1, 0.37, 0.5, 0.9]  # any level: TabPFN computes each from its predicted distribution
HORIZON = 12
N = 60
TIMEOUT = 600
THREADS = {"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


@pytest.fixture(scope="module")
def tabpfn_weights(tmp_path_factory):
    from .fixtures import write_fixtures

    root = tmp_path_factory.mktemp("tabpfn-weights")
    write_fixtures(root, models=(MODEL,))
    return root


@pytest.fixture(scope="module")
def tabpfn_worker(tabpfn_weights):
    started = start_worker(
        HORIZON_MODEL_DIR=str(tabpfn_weights), HORIZON_BATCH_MAX_WAIT_MS="500", HORIZON_DEVICE="cpu", **THREADS
    )
    yield started
    stop_worker(started)


def target(seed: int) -> list:
    values: list = seasonal_series(N, 12, seed=seed)
    values[0] = None
    values[N // 2] = None
    return values


PROMO = [float(i % 4 == 0) for i in range(N + HORIZON)]


def covariate_series(seed: int, future_promo=None) -> dict:
    return {
        "target": target(seed),
        "past_covariates": {"promo": PROMO[:N]},
        "future_covariates": {"promo": future_promo or PROMO[N:]},
    }


def body(series: list[dict], quantiles=LEVELS) -> dict:
    return {"model": MODEL, "size": "default", "freq": "MS", "horizon": HORIZON, "quantiles": quantiles, "series": series}


def infer(worker, series: list[dict], quantiles=LEVELS) -> dict:
    status, answer = worker.call("POST", "/infer", body(series, quantiles), timeout=TIMEOUT)
    assert status == 200, answer
    return answer


def assert_monotone(prediction: dict) -> None:
    rows = np.array([prediction["quantiles"][key] for key in sorted(prediction["quantiles"], key=float)])
    assert rows.shape == (len(LEVELS), HORIZON) and len(prediction["mean"]) == HORIZON
    assert np.isfinite(rows).all() and np.isfinite(prediction["mean"]).all()
    assert (np.diff(rows, axis=0) >= 0).all()


MONTHS = [f"{2019 + m // 12}-{m % 12 + 1:02d}-01T00:00:00Z" for m in range(N + HORIZON)]


def dated(series: dict) -> dict:
    """The series with its dates, as the control plane sends them (monthly from 2019-01) and the reference needs them."""
    return {**series, "index": MONTHS[:N], "forecast_index": MONTHS[N:]}


def test_forecast_equals_the_official_pipeline(tabpfn_worker, tabpfn_weights):
    series = [dated({"target": target(0)}), dated(covariate_series(1))]
    answer = infer(tabpfn_worker, series)
    assert answer["warnings"] == []
    weights = str(tabpfn_weights / MODEL / "default" / "tabpfn-v3.5-20260909.safetensors")
    wanted = reference([{"weights": weights, "horizon": HORIZON, "quantiles": LEVELS, "series": series}])[0]
    for prediction, expected in zip(answer["predictions"], wanted):
        assert_monotone(prediction)
        assert_parity(prediction, expected, MODEL)
        # mean is TabPFN's median
        assert prediction["mean"] == prediction["quantiles"]["0.5"]


def test_a_series_alone_equals_the_same_series_in_a_batch(tabpfn_worker):
    requests = [[{"target": target(2)}], [covariate_series(3)], [{"target": target(4)}, covariate_series(5)]]
    with ThreadPoolExecutor(len(requests)) as pool:
        together = list(pool.map(lambda series: infer(tabpfn_worker, series), requests))
    assert max(answer["timing"]["batch_series"] for answer in together) > 1, "no shared batch"
    for series, answer in zip(requests, together):
        for one, prediction in zip(series, answer["predictions"]):
            alone = infer(tabpfn_worker, [one])["predictions"][0]
            assert_prediction_within(prediction, alone, TOLERANCES[MODEL]["batch"], MODEL)


def test_a_known_future_covariate_changes_the_forecast(tabpfn_worker):
    base = infer(tabpfn_worker, [covariate_series(6)])["predictions"][0]
    changed = infer(tabpfn_worker, [covariate_series(6, [5.0] * HORIZON)])["predictions"][0]
    assert not np.allclose(base["mean"], changed["mean"])


def test_missing_weights_answer_424(tmp_path):
    worker = start_worker(HORIZON_MODEL_DIR=str(tmp_path), HORIZON_DEVICE="cpu", **THREADS)
    try:
        status, answer = worker.call("POST", "/infer", body([{"target": target(0)}]), timeout=TIMEOUT)
        assert status == 424 and answer["error"]["code"] == "weights_missing", answer
        detail = answer["error"]["detail"]
        assert f"{tmp_path}/tabpfn-ts/default/ (HORIZON_MODEL_DIR)" in detail
        assert "Prior-Labs/tabpfn_3_5" in detail and "*.safetensors or *.ckpt" in detail
    finally:
        stop_worker(worker)
