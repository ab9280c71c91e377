"""The worker's JSON-lines logs (request_id from X-Request-Id) and its Prometheus /metrics."""

from __future__ import annotations

import json
import urllib.request

from prometheus_client.parser import text_string_to_metric_families

from .helpers import infer_body


def _scrape(worker) -> dict[tuple[str, tuple], float]:
    with urllib.request.urlopen(worker.url + "/metrics", timeout=30) as response:
        assert response.headers["content-type"].startswith("text/plain; version=0.0.4")
        text = response.read().decode()
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text) for s in family.samples
    }


def _infer(worker, body: dict, request_id: str) -> int:
    request = urllib.request.Request(worker.url + "/infer", data=json.dumps(body).encode(), method="POST")
    request.add_header("Content-Type", "application/json")
    request.add_header("X-Request-Id", request_id)
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def test_request_lines_are_json_with_the_callers_request_id(worker):
    assert _infer(worker, infer_body("seasonal-naive"), "rid-ok-1") == 200
    assert _infer(worker, {**infer_body("naive"), "horizon": 0}, "rid-bad-1") == 400
    lines = [json.loads(line) for line in worker.stderr().splitlines() if line.startswith("{")]
    assert all({"level", "time", "msg", "runtime_group"} <= set(line) for line in lines)
    ok = [line for line in lines if line.get("request_id") == "rid-ok-1"]
    assert len(ok) == 1, ok
    assert {k: ok[0][k] for k in ("url", "model", "size", "series", "status", "level")} == {
        "url": "/infer", "model": "seasonal-naive", "size": "default", "series": 1, "status": 200, "level": 30,
    }
    bad = [line for line in lines if line.get("request_id") == "rid-bad-1"]
    assert len(bad) == 1 and bad[0]["status"] == 400 and bad[0]["code"] == "bad_request", bad


def test_metrics_count_requests_batches_and_loads(worker):
    labels = lambda **extra: tuple(sorted({"runtime_group": "core", "model": "auto-theta", "size": "default", **extra}.items()))
    before = _scrape(worker)
    for i in range(2):
        assert _infer(worker, infer_body("auto-theta"), f"rid-metrics-{i}") == 200
    after = _scrape(worker)
    moved = lambda name, key: after.get((name, key), 0) - before.get((name, key), 0)
    assert moved("horizon_runtime_infer_requests_total", labels(outcome="ok")) == 2
    assert moved("horizon_runtime_batch_series_count", labels()) == 2
    assert moved("horizon_runtime_inference_seconds_count", labels()) == 2
    assert moved("horizon_runtime_queue_wait_seconds_count", labels()) == 2
    assert after[("horizon_runtime_model_loaded", labels())] == 1
    assert ("horizon_runtime_model_memory_bytes", labels()) in after
    assert after.get(("horizon_runtime_model_load_seconds_count", labels()), 0) == 1


def test_the_worker_logs_at_the_control_planes_level():
    from horizon_runtime.logs import level_from_env
    import logging

    assert [level_from_env(v) for v in (None, "", "info", "WARN", "error", "debug", "trace", "nonsense")] == [
        logging.INFO, logging.INFO, logging.INFO, logging.WARNING, logging.ERROR, logging.DEBUG, logging.DEBUG, logging.INFO,
    ]
    from .conftest import start_worker, stop_worker

    quiet = start_worker(HORIZON_LOG_LEVEL="warn")
    try:
        assert _infer(quiet, infer_body("naive"), "rid-quiet-1") == 200
        lines = [json.loads(line) for line in quiet.stderr().splitlines() if line.startswith("{")]
        assert not [line for line in lines if line.get("request_id") == "rid-quiet-1"], lines
        assert all(line["level"] >= 40 for line in lines), lines
    finally:
        stop_worker(quiet)
