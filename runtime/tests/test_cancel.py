"""A call whose caller has gone (issue 33): its waiting series are dropped, a running batch left with no caller
stops at its next chunk, and a real worker whose /infer connection closes mid-batch becomes idle without fitting
the rest (observed in its /metrics: series by outcome, batches running, series waiting)."""

from __future__ import annotations

import asyncio
import re
import socket
import threading
import time
import urllib.request

import orjson

from horizon_runtime.adapters.base import Prediction
from horizon_runtime.batcher import BatchKey
from horizon_runtime.cancel import BatchStopped, current_stop

from .conftest import start_worker, stop_worker
from .helpers import seasonal_series
from .test_batcher import KEY, EchoPredictor, make_batcher, run, series


class StoppablePredictor(EchoPredictor):
    """Predicts series one by one (0.05 s each), stopping before the next when its batch's stop event is set."""

    def __call__(self, key: BatchKey, batch):
        self.batches.append((key, [float(s.target[-1]) for s in batch]))
        stop = current_stop()
        out = []
        for done, one in enumerate(batch):
            if stop is not None and stop.is_set():
                raise BatchStopped(len(batch) - done)
            time.sleep(0.05)
            out.append(Prediction(one.target[-1:].repeat(key.horizon), one.target[-1:].repeat(key.horizon).reshape(1, -1)))
        return out


def test_a_gone_callers_waiting_series_are_dropped_and_never_predicted():
    async def scenario():
        predictor = EchoPredictor(delay_s=0.3)
        batcher = make_batcher(predictor, max_wait_s=0.01, exclusive=lambda key: key == KEY)
        first = asyncio.create_task(batcher.submit(KEY, [series(0)]))
        await asyncio.sleep(0.1)  # the first batch predicts; these two wait for it
        gone = asyncio.create_task(batcher.submit(KEY, [series(1), series(2)]))
        kept = asyncio.create_task(batcher.submit(KEY, [series(3)]))
        await asyncio.sleep(0.05)
        gone.cancel()
        results = await asyncio.gather(first, kept)
        assert gone.cancelled()
        assert [values for _, values in predictor.batches] == [[0.0], [3.0]]
        assert [float(r.predictions[0].mean[0]) for r in results] == [0.0, 3.0]
        assert batcher.counts[(KEY, "dropped_waiting")] == 2
        assert not batcher.busy and batcher.work() == {}

    run(scenario())


def test_a_running_batch_stops_when_all_its_callers_have_gone_and_not_before():
    async def scenario():
        predictor = StoppablePredictor()
        batcher = make_batcher(predictor, max_wait_s=0.01)
        alone = asyncio.create_task(batcher.submit(KEY, [series(v) for v in range(40)], formed=True))
        await asyncio.sleep(0.2)  # a few series fitted
        assert batcher.work() == {KEY: (0, 1)}
        alone.cancel()
        while batcher.busy:
            await asyncio.sleep(0.01)
        fitted, dropped = batcher.counts[(KEY, "fitted")], batcher.counts[(KEY, "dropped_running")]
        assert fitted + dropped == 40 and 0 < fitted < 40, batcher.counts

        # two callers in one batch: one going leaves the batch running for the other
        both = [asyncio.create_task(batcher.submit(KEY, [series(v) for v in range(5)])) for _ in range(2)]
        await asyncio.sleep(0.05)
        both[0].cancel()
        result = await both[1]
        assert len(result.predictions) == 5
        assert batcher.counts[(KEY, "fitted")] == fitted + 10

    run(scenario())


def _metrics(url: str) -> dict[str, float]:
    with urllib.request.urlopen(url + "/metrics", timeout=30) as response:
        text = response.read().decode()
    out: dict[str, float] = {}
    for line in text.splitlines():
        m = re.match(r'(horizon_runtime_(?:series_total|batches_running|series_waiting))\{(.*)\} (\S+)', line)
        if m and 'model="auto-ets"' in m.group(2):
            outcome = re.search(r'outcome="(\w+)"', m.group(2))
            out[m.group(1) + (f":{outcome.group(1)}" if outcome else "")] = float(m.group(3))
    return out


def _poll(what: str, read, done, timeout_s: float = 120.0):
    deadline = time.monotonic() + timeout_s
    while True:
        value = read()
        if done(value):
            return value
        assert time.monotonic() < deadline, f"{what}: still {value}"
        time.sleep(0.05)


def test_a_closed_infer_connection_leaves_the_worker_idle_without_fitting_the_rest():
    worker = start_worker(HORIZON_CPU_WORKERS="2")
    try:
        n = 30
        series_ = [{"target": seasonal_series(336, 24, seed=i)} for i in range(n)]
        # the pool's processes started and warm (a first fit compiles statsforecast's numba code)
        status, _ = worker.infer(model="auto-ets", size="default", freq="H", horizon=24, quantiles=[0.5], series=series_[:4])
        assert status == 200
        before = _metrics(worker.url).get("horizon_runtime_series_total:fitted", 0)
        body = orjson.dumps({"model": "auto-ets", "size": "default", "freq": "H", "horizon": 24, "quantiles": [0.01, 0.5, 0.99],
                             "series": series_})
        sock = socket.create_connection(("127.0.0.1", worker.port))
        sock.sendall(b"POST /infer HTTP/1.1\r\nHost: worker\r\nContent-Type: application/json\r\nX-Request-Id: gone-1\r\n"
                     + f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
        _poll("a batch running", lambda: _metrics(worker.url), lambda m: m.get("horizon_runtime_batches_running", 0) >= 1)
        sock.close()
        closed = time.monotonic()
        after = _poll("the worker idle", lambda: _metrics(worker.url),
                      lambda m: m.get("horizon_runtime_batches_running", 0) == 0 and m.get("horizon_runtime_series_waiting", 0) == 0)
        print(f"idle {time.monotonic() - closed:.2f} s after the connection closed; {after}")
        fitted, dropped = after.get("horizon_runtime_series_total:fitted", 0) - before, after.get("horizon_runtime_series_total:dropped_running", 0)
        assert fitted + dropped == n and dropped > 0, after
        assert re.search(r'"request_id":\s*"gone-1".*"status":\s*499.*"request cancelled"', worker.stderr()), worker.stderr()[-2000:]
        # the worker serves the next call as usual
        status, answer = worker.infer(model="auto-ets", size="default", freq="H", horizon=24, quantiles=[0.5], series=series_[:3])
        assert status == 200 and len(answer["predictions"]) == 3
    finally:
        stop_worker(worker)
