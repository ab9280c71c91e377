"""Start-up and shutdown of the real worker process, and the 503 while shutting down."""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import signal
import subprocess
import sys
import threading
import time

import pytest
from aiohttp.test_utils import TestClient, TestServer

from horizon_runtime.catalog import load_catalog
from horizon_runtime.server import Worker

from .conftest import CATALOG, RUNTIME_DIR, start_worker, stop_worker
from .helpers import infer_body, seasonal_series


def test_sigterm_on_an_idle_worker_exits_0():
    worker = start_worker()
    started = time.monotonic()
    assert stop_worker(worker, timeout=15) == 0
    assert time.monotonic() - started < 10
    assert "shutting down" in worker.stderr()


def test_sigterm_finishes_in_flight_requests_then_exits_0():
    # A long batching window keeps the request in flight while SIGTERM arrives.
    worker = start_worker(HORIZON_BATCH_MAX_WAIT_MS="1500")
    assert worker.call("POST", "/load", {"model": "naive", "size": "default"})[0] == 200
    result = {}
    request = threading.Thread(target=lambda: result.update(response=worker.infer(**infer_body())))
    request.start()
    time.sleep(0.5)
    worker.process.send_signal(signal.SIGTERM)
    request.join(30)
    assert worker.process.wait(30) == 0
    status, body = result["response"]
    assert status == 200, body
    assert body["timing"]["queue_ms"] >= 1000


def test_shutdown_grace_is_bounded_when_a_prediction_runs_on():
    worker = start_worker(HORIZON_SHUTDOWN_GRACE_S="1")
    assert worker.call("POST", "/load", {"model": "auto-arima", "size": "default"})[0] == 200
    # Seasonal AutoARIMA on 700 hourly points runs for tens of seconds.
    body = infer_body("auto-arima", target=seasonal_series(700, 24), freq="H", horizon=48)
    request = threading.Thread(target=lambda: _ignore_errors(lambda: worker.infer(**body)), daemon=True)
    request.start()
    time.sleep(1.0)
    started = time.monotonic()
    worker.process.send_signal(signal.SIGTERM)
    assert worker.process.wait(15) == 0
    assert time.monotonic() - started < 6
    assert "grace period of 1 s over" in worker.stderr()


def _ignore_errors(call):
    try:
        call()
    except OSError:  # the worker closes the connection when the grace period ends
        pass


def test_worker_exits_when_its_parent_dies(tmp_path):
    # bash starts the worker in the background, outlives its start-up, then exits without stopping it.
    ready_file = tmp_path / "ready"
    command = (
        f"{shlex.quote(sys.executable)} -m horizon_runtime --group core --port 0 --catalog {shlex.quote(str(CATALOG))}"
        f" > {shlex.quote(str(ready_file))} 2>/dev/null & echo $!; sleep 3"
    )
    parent = subprocess.run(
        ["bash", "-c", command], cwd=RUNTIME_DIR.parent, capture_output=True, text=True, timeout=30,
        env={**os.environ, "PYTHONPATH": str(RUNTIME_DIR)},
    )
    worker_pid = int(parent.stdout.split()[0])
    assert ready_file.read_text().startswith("READY "), "the worker was not up before its parent exited"
    deadline = time.monotonic() + 15
    while _running(worker_pid):
        assert time.monotonic() < deadline, f"worker {worker_pid} outlived its parent"
        time.sleep(0.2)


def _running(pid: int) -> bool:
    """Whether pid is alive and not a zombie (an orphan's new parent may be slow to reap it)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def test_bad_batching_settings_stop_the_worker():
    with pytest.raises(RuntimeError, match="HORIZON_BATCH_MAX_SERIES"):
        start_worker(HORIZON_BATCH_MAX_SERIES="0")


def test_requests_while_shutting_down_get_503():
    async def scenario():
        worker = Worker(load_catalog(CATALOG), "core", executor=None, max_series=4, max_wait_s=0.001)
        async with TestClient(TestServer(worker.app())) as client:
            assert (await client.get("/health")).status == 200
            worker.shutting_down = True
            for method, path in [("GET", "/health"), ("POST", "/infer"), ("POST", "/load"), ("GET", "/models")]:
                response = await client.request(method, path, data=json.dumps(infer_body()))
                assert response.status == 503
                assert (await response.json())["error"]["code"] == "shutting_down"

    asyncio.run(scenario())
