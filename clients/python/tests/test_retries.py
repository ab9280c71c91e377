"""Retries on a real 429 (an account whose quota is spent) and a real 503 (the model worker killed)."""
from __future__ import annotations

import pandas as pd
import pytest

from horizon_client import Horizon, RateLimitError, RetryPolicy, ServiceUnavailableError

BODY = {"series": [{"target": [float(i % 12 + i) for i in range(36)], "index": [f"{2020 + i // 12}-{i % 12 + 1:02d}-01" for i in range(36)]}],
        "horizon": 3, "freq": "MS", "model": "naive"}


def test_429_waits_what_the_server_asks_then_succeeds(server):
    account = server.control("/account", {"daily": 1, "weekly": 10})
    assert server.raw("POST", "/v1/forecast", BODY, key=account["key"]).status_code == 200
    refused = server.raw("POST", "/v1/forecast", BODY, key=account["key"])
    assert refused.status_code == 429
    asked = float(refused.headers["retry-after"])

    # default policy: a wait of hours (the daily window) is not slept; the typed error says how long
    slept: list[float] = []
    with Horizon(server.url, account["key"], retry=RetryPolicy(sleep=slept.append, max_wait=0)) as c:
        with pytest.raises(RateLimitError) as caught:
            c.forecast_raw(BODY)
    assert slept == [] and caught.value.status == 429 and caught.value.code == "quota_exceeded"
    assert caught.value.retry_after == pytest.approx(asked, abs=5)
    assert caught.value.headers["x-ratelimit-reset"]

    # a policy that waits that long: "sleeping" is where the window resets (the operator raises the quota)
    def sleep(seconds: float) -> None:
        slept.append(seconds)
        server.control("/quota", {"accountId": account["accountId"], "daily": 5})

    retried: list[tuple[int, int]] = []
    policy = RetryPolicy(max_wait=8 * 86400, sleep=sleep, on_retry=lambda attempt, wait, error: retried.append((attempt, error.status)))
    with Horizon(server.url, account["key"], retry=policy) as c:
        answer = c.forecast_raw(BODY)
    assert answer["series"][0][0]["prediction"]["mean"] == [46.0] * 3  # naive: the last value
    assert retried == [(1, 429)] and slept[0] == pytest.approx(asked, abs=5)


def test_429_is_not_retried_for_job_creation_unless_asked(server):
    # a quota of 0 means unlimited: spend a quota of 1 first
    account = server.control("/account", {"daily": 1, "weekly": 10})
    assert server.raw("POST", "/v1/forecast", BODY, key=account["key"]).status_code == 200
    slept: list[float] = []
    with Horizon(server.url, account["key"], retry=RetryPolicy(sleep=slept.append, max_wait=8 * 86400)) as c:
        with pytest.raises(RateLimitError):
            c.create_job(BODY)
        assert slept == []
        with pytest.raises(RateLimitError):
            c.create_job(BODY, retry=True)  # asked: it retries, max_retries times, then raises
        assert len(slept) == 3


def test_503_is_retried_until_the_worker_is_back(server, airpassengers):
    server.wait_worker()
    expected = Horizon(server.url, server.key).forecast(airpassengers, h=12, model="naive")
    server.control("/kill-worker")
    retried: list[tuple[int, float, str]] = []
    policy = RetryPolicy(max_retries=60, on_retry=lambda attempt, wait, error: retried.append((attempt, wait, error.code)))
    try:
        with Horizon(server.url, server.key, retry=policy) as c:
            frame = c.forecast(airpassengers, h=12, model="naive")
    finally:
        server.wait_worker()
    assert retried and retried[0][2] == "no_worker" and retried[0][1] == 2.0  # the server's Retry-After: 2
    pd.testing.assert_frame_equal(frame, expected)


def test_503_without_retries_is_typed(server):
    server.wait_worker()
    server.control("/kill-worker")
    try:
        with Horizon(server.url, server.key, retry=RetryPolicy(max_retries=0)) as c:
            with pytest.raises(ServiceUnavailableError) as caught:
                c.forecast_raw(BODY)
    finally:
        server.wait_worker()
    assert caught.value.status == 503 and caught.value.code == "no_worker" and caught.value.headers["retry-after"] == "2"
