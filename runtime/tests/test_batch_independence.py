"""Batch independence for every model id the core group serves: a series forecast alone equals the same series
inside a full batch of other series (one request filling HORIZON_BATCH_MAX_SERIES) and inside a batch the worker
forms from concurrent requests (other callers' series), within the model's measured batch tolerance
(parity-tolerances.json, shown in docs/models.md). Foundation models on their tiny checkpoints, default sizes.
TimesFM 1.0 (group timesfm1) is checked in test/models.timesfm1.test.ts."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from horizon_runtime.catalog import load_catalog
from .fixtures import FAMILIES

from .conftest import CATALOG, start_worker, stop_worker, write_model_weights
from .helpers import TOLERANCES, assert_prediction_within, gappy_series

FULL = 8  # the worker's HORIZON_BATCH_MAX_SERIES here: a full batch
HORIZON = 12
LEVELS = [0.1, 0.5, 0.9]
CORE = {m.id: m for m in load_catalog(CATALOG).models.values() if m.group == "core"}
FOUNDATION = sorted(m for m in CORE if m in FAMILIES)
MODELS = sorted(CORE)


@pytest.fixture(scope="module")
def full_batch_worker(tmp_path_factory):
    weights = write_model_weights(tmp_path_factory, FOUNDATION)
    started = start_worker(
        HORIZON_MODEL_DIR=str(weights), HORIZON_BATCH_MAX_SERIES=str(FULL), HORIZON_BATCH_MAX_WAIT_MS="500", HORIZON_DEVICE="cpu",
        OMP_NUM_THREADS="1", MKL_NUM_THREADS="1",  # tabpfn-ts fits one series at a time; the machine is shared
    )
    yield started
    stop_worker(started)


def infer(worker, model: str, series: list[dict]) -> dict:
    body = {"model": model, "size": CORE[model].default_size, "freq": "D", "horizon": HORIZON, "quantiles": LEVELS, "series": series}
    status, answer = worker.call("POST", "/infer", body, timeout=600)
    assert status == 200, answer
    return answer


def test_every_core_model_is_covered():
    assert set(TOLERANCES) >= set(MODELS), set(MODELS) - set(TOLERANCES)
    assert "prism" not in MODELS  # the ensemble runs in the control plane, over its members


@pytest.mark.parametrize("model", MODELS)
def test_a_series_alone_equals_it_in_a_full_batch_and_among_concurrent_requests(full_batch_worker, model):
    one = {"target": gappy_series(80, seed=1)}
    # other callers' series: other lengths (across patch and padding boundaries), with and without gaps
    others = [{"target": gappy_series(20 + 37 * i, seed=10 + i, gaps=i % 2 == 0)} for i in range(FULL - 1)]
    tolerance = TOLERANCES[model]["batch"]

    alone = infer(full_batch_worker, model, [one])
    assert alone["timing"]["batch_series"] == 1
    expected = alone["predictions"][0]

    full = infer(full_batch_worker, model, others[:3] + [one] + others[3:])
    assert full["timing"]["batch_series"] == FULL
    assert_prediction_within(full["predictions"][3], expected, tolerance, f"{model} in a full batch")

    with ThreadPoolExecutor(FULL) as pool:
        answers = list(pool.map(lambda series: infer(full_batch_worker, model, [series]), [one, *others]))
    assert answers[0]["timing"]["batch_series"] > 1, [a["timing"] for a in answers]
    assert_prediction_within(answers[0]["predictions"][0], expected, tolerance, f"{model} among concurrent requests")
