"""Micro-batching through the real worker: concurrent requests share batches without cross-learning."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from .helpers import infer_body, seasonal_series

MAX_SERIES = 8  # the batching_worker's HORIZON_BATCH_MAX_SERIES


def series_body(target: list[float], model: str = "auto-ets") -> dict:
    return infer_body(model, target=target, horizon=8, quantiles=[0.1, 0.5, 0.9])


def test_forecast_is_identical_alone_and_in_a_batch_of_concurrent_requests(batching_worker):
    targets = [seasonal_series(36 + i, 4, seed=100 + i) for i in range(12)]
    status, alone = batching_worker.infer(**series_body(targets[5]))
    assert status == 200, alone
    assert alone["timing"]["batch_series"] == 1

    with ThreadPoolExecutor(len(targets)) as pool:
        responses = list(pool.map(lambda target: batching_worker.infer(**series_body(target)), targets))
    assert all(status == 200 for status, _ in responses), responses
    sizes = [body["timing"]["batch_series"] for _, body in responses]
    assert max(sizes) > 1, f"no batch formed: {sizes}"
    assert max(sizes) <= MAX_SERIES
    assert responses[5][1]["timing"]["batch_series"] > 1
    assert responses[5][1]["predictions"] == alone["predictions"]


def test_request_larger_than_a_batch_is_split_and_unchanged(batching_worker):
    targets = [seasonal_series(30 + 2 * i, 4, seed=200 + i) for i in range(20)]
    status, together = batching_worker.infer(**{**series_body(targets[0]), "series": [{"target": t} for t in targets]})
    assert status == 200, together
    assert together["timing"]["batch_series"] == MAX_SERIES
    assert len(together["predictions"]) == 20
    for index in (0, 9, 19):  # one from each of the three batches
        status, alone = batching_worker.infer(**series_body(targets[index]))
        assert status == 200, alone
        assert together["predictions"][index] == alone["predictions"][0]


def test_failing_batch_fails_only_its_requests(batching_worker):
    bad = infer_body("naive", target=[1e308, -1e308, 1e308], horizon=8)
    good = infer_body("naive", target=[1.0, 2.0, 3.0], horizon=8, freq="D")  # another batch key (freq)
    with ThreadPoolExecutor(2) as pool:
        (bad_status, bad_body), (good_status, good_body) = pool.map(lambda b: batching_worker.infer(**b), [bad, good])
    assert bad_status == 500 and bad_body["error"]["code"] == "inference_failed"
    assert good_status == 200 and good_body["predictions"][0]["mean"] == [3.0] * 8
