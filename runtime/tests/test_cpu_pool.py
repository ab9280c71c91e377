"""Statistical fits on every core (HORIZON_CPU_WORKERS): the same answers, bit for bit, as in one process."""

from __future__ import annotations

import numpy as np
import pytest

from horizon_runtime.cpu_pool import split

from .conftest import start_worker, stop_worker
from .helpers import infer_body, seasonal_series

POOLED = ["auto-ets", "auto-theta", "damped-ets", "dyn-opt-theta", "ces", "mstl"]


def test_split_is_contiguous_and_balanced():
    items = list(range(10))
    chunks = split(items, 4)
    assert [list(c) for c in chunks] == [[0, 1, 2], [3, 4, 5], [6, 7], [8, 9]]
    assert [list(c) for c in split(items[:2], 8)] == [[0], [1]]


@pytest.fixture(scope="module")
def serial_and_pooled():
    serial = start_worker(HORIZON_CPU_WORKERS="1")
    pooled = start_worker(HORIZON_CPU_WORKERS="2")
    yield serial, pooled
    stop_worker(serial)
    stop_worker(pooled)


def _series(count: int, gaps: bool = False) -> list[dict]:
    out = []
    for i in range(count):
        target: list = seasonal_series(30 + 7 * i, 12, seed=i)  # lengths differ: some fall back to non-seasonal
        if gaps and i % 3 == 0:
            target[: 2] = [None, None]
            target[len(target) // 2] = None
        out.append({"target": target})
    return out


@pytest.mark.parametrize("model", POOLED)
def test_pool_answers_equal_one_process(serial_and_pooled, model):
    serial, pooled = serial_and_pooled
    body = infer_body(model, freq="MS", horizon=18, quantiles=[0.05, 0.1, 0.5, 0.9, 0.95], series=_series(11, gaps=True))
    one = serial.infer(**body)
    many = pooled.infer(**body)
    assert one[0] == 200 and many[0] == 200, (one, many)
    assert many[1]["predictions"] == one[1]["predictions"]
    assert many[1]["warnings"] == one[1]["warnings"]


def test_pool_answers_equal_with_backtests(serial_and_pooled):
    serial, pooled = serial_and_pooled
    series = [dict(s, backtest={"window": 6, "origins": 2}) for s in _series(9)]
    body = infer_body("auto-ets", freq="MS", horizon=18, quantiles=[0.1, 0.5, 0.9], series=series)
    one, many = serial.infer(**body), pooled.infer(**body)
    assert one[0] == 200 and many[0] == 200, (one, many)
    assert many[1]["predictions"] == one[1]["predictions"]
    assert all(len(p["backtest"]) == 2 for p in many[1]["predictions"])


def test_a_failing_fit_in_the_pool_fails_its_request_only(serial_and_pooled):
    _, pooled = serial_and_pooled
    # values whose differences overflow: naive's interval is not finite either, so the batch fails (500)
    bad = {"target": [1e308, -1e308] * 20}
    status, body = pooled.infer(**infer_body("auto-ets", freq="MS", horizon=6, series=[bad] + _series(3)))
    assert status == 500, body
    assert body["error"]["code"] == "inference_failed"
    # the pool still works afterwards
    status, body = pooled.infer(**infer_body("auto-ets", freq="MS", horizon=6, series=_series(4)))
    assert status == 200, body
