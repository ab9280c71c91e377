"""Loaded models stay within HORIZON_MODEL_MEMORY_MB: least recently used ones are unloaded first,
models in use and models without weights are never counted out, and an unloaded model loads again."""

from __future__ import annotations

import pytest

from .conftest import start_worker, stop_worker

SERIES = [{"target": [float(v % 12) + 10.0 for v in range(48)]}]


@pytest.fixture(scope="module")
def small_budget_worker(chronos_weights):
    # the chronos-bolt/tiny and chronos-2/small fixtures hold 0.147 and 0.106 MB: 0.2 MB fits one, not both
    started = start_worker(HORIZON_MODEL_DIR=str(chronos_weights), HORIZON_DEVICE="cpu", HORIZON_MODEL_MEMORY_MB="0.2")
    yield started
    stop_worker(started)


def load(worker, model: str, size: str) -> dict:
    status, body = worker.call("POST", "/load", {"model": model, "size": size})
    assert status == 200, body
    return body


def loaded(worker) -> list[list[str]]:
    status, body = worker.call("GET", "/health")
    assert status == 200, body
    return body["loaded"]


def test_loading_past_the_budget_unloads_the_least_recently_used(small_budget_worker):
    bolt = load(small_budget_worker, "chronos-bolt", "tiny")
    assert 0 < bolt["memory_mb"] < 0.2, bolt
    status, body = small_budget_worker.infer(model="naive", size="default", horizon=3, series=SERIES, freq="MS", quantiles=[0.1, 0.9])  # no weights: not counted
    assert status == 200, body
    second = load(small_budget_worker, "chronos-2", "small")
    assert bolt["memory_mb"] + second["memory_mb"] > 0.2, (bolt, second)
    assert ["chronos-bolt", "tiny"] not in loaded(small_budget_worker)
    assert ["chronos-2", "small"] in loaded(small_budget_worker)
    assert ["naive", "default"] in loaded(small_budget_worker)
    # the unloaded model loads again on its next use, and the other one makes way
    again = load(small_budget_worker, "chronos-bolt", "tiny")
    assert again["already_loaded"] is False
    status, body = small_budget_worker.infer(model="chronos-bolt", size="tiny", horizon=3, series=SERIES, freq="MS", quantiles=[0.1, 0.9])
    assert status == 200, body
    assert body["timing"]["loaded_ms"] == 0  # loaded by /load just before: the forecast itself did not load
    assert ["chronos-2", "small"] not in loaded(small_budget_worker)


def test_a_warm_model_forecasts_without_loading(chronos_worker):
    load(chronos_worker, "chronos-bolt", "mini")
    status, body = chronos_worker.infer(model="chronos-bolt", size="mini", horizon=3, series=SERIES, freq="MS", quantiles=[0.1, 0.9])
    assert status == 200, body
    assert body["timing"]["loaded_ms"] == 0
