"""MicroBatcher with a trivial predict function (no model, no HTTP)."""

from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from horizon_runtime.adapters.base import Prediction, SeriesInput
from horizon_runtime.batcher import BatchFailed, BatchKey, MicroBatcher

KEY = BatchKey("echo", "default", 2, (0.5,), "D")
OTHER_KEY = BatchKey("echo", "default", 3, (0.5,), "D")


def series(value: float) -> SeriesInput:
    return SeriesInput(np.array([value]), {}, {}, {})


class EchoPredictor:
    """Predicts each series' last value; records every batch it was called with."""

    def __init__(self, delay_s: float = 0.0, fail_on: float | None = None):
        self.batches: list[tuple[BatchKey, list[float]]] = []
        self.delay_s = delay_s
        self.fail_on = fail_on
        self.threads: set[str] = set()
        self.running = 0  # batches inside the call right now
        self.most_running = 0
        self._lock = threading.Lock()

    def __call__(self, key: BatchKey, batch: list[SeriesInput]) -> list[Prediction]:
        self.threads.add(threading.current_thread().name)
        values = [float(s.target[-1]) for s in batch]
        self.batches.append((key, values))
        with self._lock:
            self.running += 1
            self.most_running = max(self.most_running, self.running)
        time.sleep(self.delay_s)
        with self._lock:
            self.running -= 1
        if self.fail_on in values:
            raise ValueError(f"cannot forecast {self.fail_on}")
        return [Prediction(np.full(key.horizon, v), np.full((1, key.horizon), v)) for v in values]


def run(coroutine):
    return asyncio.run(coroutine)


def means(result) -> list[float]:
    return [float(p.mean[0]) for p in result.predictions]


def make_batcher(predictor, max_series=256, max_wait_s=0.05, exclusive=lambda key: False) -> MicroBatcher:
    return MicroBatcher(predictor, ThreadPoolExecutor(2, thread_name_prefix="predict"), max_series, max_wait_s, exclusive)


def test_concurrent_requests_share_one_batch():
    async def scenario():
        predictor = EchoPredictor()
        batcher = make_batcher(predictor)
        results = await asyncio.gather(*(batcher.submit(KEY, [series(i)]) for i in range(5)))
        assert predictor.batches == [(KEY, [0.0, 1.0, 2.0, 3.0, 4.0])]
        assert [means(r) for r in results] == [[0.0], [1.0], [2.0], [3.0], [4.0]]
        assert all(r.batch_series == 5 for r in results)
        assert all(r.queue_ms >= 0 and r.infer_ms >= 0 for r in results)
        assert predictor.threads == {"predict_0"}  # ran in the executor, not on the event loop
        assert not batcher.busy

    run(scenario())


def test_batch_waits_at_most_max_wait():
    async def scenario():
        predictor = EchoPredictor()
        batcher = make_batcher(predictor, max_wait_s=0.2)
        started = time.perf_counter()
        result = await batcher.submit(KEY, [series(1)])
        waited = time.perf_counter() - started
        assert 0.19 <= waited < 1.0
        assert result.queue_ms >= 190

    run(scenario())


def test_full_batch_goes_without_waiting():
    async def scenario():
        predictor = EchoPredictor()
        batcher = make_batcher(predictor, max_series=3, max_wait_s=10)
        results = await asyncio.wait_for(asyncio.gather(*(batcher.submit(KEY, [series(i)]) for i in range(3))), 5)
        assert [means(r) for r in results] == [[0.0], [1.0], [2.0]]

    run(scenario())


def test_a_formed_call_goes_without_waiting_and_takes_what_waits_of_its_key():
    async def scenario():
        predictor = EchoPredictor()
        batcher = make_batcher(predictor, max_wait_s=10)
        waiting = asyncio.ensure_future(batcher.submit(KEY, [series(0)]))  # a plain call: waits up to 10 s for more
        await asyncio.sleep(0.01)
        # the control plane's gate formed this call's batch (x-horizon-batch: formed): it goes at once, with the waiting one
        formed = await asyncio.wait_for(batcher.submit(KEY, [series(1), series(2)], "account-a", formed=True), 5)
        assert means(formed) == [1.0, 2.0]
        assert means(await asyncio.wait_for(waiting, 5)) == [0.0]
        assert predictor.batches == [(KEY, [0.0, 1.0, 2.0])]

    run(scenario())


def test_large_request_is_split_into_batches_and_reassembled_in_order():
    async def scenario():
        predictor = EchoPredictor()
        batcher = make_batcher(predictor, max_series=4, max_wait_s=0.01)
        result = await batcher.submit(KEY, [series(i) for i in range(10)])
        assert [values for _, values in predictor.batches] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]
        assert means(result) == list(range(10))
        assert result.batch_series == 4

    run(scenario())


def test_keys_never_share_a_batch():
    async def scenario():
        predictor = EchoPredictor()
        batcher = make_batcher(predictor)
        a, b = await asyncio.gather(batcher.submit(KEY, [series(1)]), batcher.submit(OTHER_KEY, [series(2)]))
        assert sorted(predictor.batches) == sorted([(KEY, [1.0]), (OTHER_KEY, [2.0])])
        assert a.predictions[0].mean.shape == (2,) and b.predictions[0].mean.shape == (3,)

    run(scenario())


def test_a_failing_batch_fails_only_its_requests():
    async def scenario():
        predictor = EchoPredictor(fail_on=13.0)
        batcher = make_batcher(predictor, max_series=2, max_wait_s=0.01)
        outcomes = await asyncio.gather(
            batcher.submit(KEY, [series(12)]),
            batcher.submit(KEY, [series(13)]),  # shares the first batch with 12
            batcher.submit(KEY, [series(14)]),  # second batch
            batcher.submit(OTHER_KEY, [series(13)]),  # another key, same bad value: fails on its own
            return_exceptions=True,
        )
        assert isinstance(outcomes[0], BatchFailed) and isinstance(outcomes[1], BatchFailed)
        assert "ValueError: cannot forecast 13.0" in str(outcomes[0])
        assert means(outcomes[2]) == [14.0]
        assert isinstance(outcomes[3], BatchFailed)
        assert means(await batcher.submit(KEY, [series(15)])) == [15.0]  # the batcher still works

    run(scenario())


def test_a_request_split_across_batches_fails_if_any_of_them_fails():
    async def scenario():
        predictor = EchoPredictor(fail_on=5.0)
        batcher = make_batcher(predictor, max_series=4, max_wait_s=0.01)
        with pytest.raises(BatchFailed):
            await batcher.submit(KEY, [series(i) for i in range(8)])

    run(scenario())


def test_wrong_number_of_predictions_fails_the_batch():
    async def scenario():
        batcher = make_batcher(lambda key, batch: [], max_wait_s=0.01)
        with pytest.raises(BatchFailed, match="0 predictions for 1 series"):
            await batcher.submit(KEY, [series(1)])

    run(scenario())


def test_event_loop_keeps_running_while_a_batch_predicts():
    async def scenario():
        predictor = EchoPredictor(delay_s=0.3)
        batcher = make_batcher(predictor, max_wait_s=0.0)
        ticks = 0

        async def tick():
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        ticker = asyncio.create_task(tick())
        await batcher.submit(KEY, [series(1)])
        ticker.cancel()
        assert ticks >= 10

    run(scenario())


def test_max_series_must_be_positive():
    with pytest.raises(ValueError):
        MicroBatcher(EchoPredictor(), None, 0, 0.001)


def test_an_exclusive_key_runs_one_batch_at_a_time_and_collects_the_next_meanwhile():
    async def scenario():
        predictor = EchoPredictor(delay_s=0.3)
        batcher = make_batcher(predictor, max_wait_s=0.01, exclusive=lambda key: key == KEY)
        first = asyncio.create_task(batcher.submit(KEY, [series(0)]))
        await asyncio.sleep(0.1)  # the first batch is predicting; these arrive during it, apart
        later = []
        for i in (1, 2, 3):
            later.append(asyncio.create_task(batcher.submit(KEY, [series(i)])))
            await asyncio.sleep(0.03)  # longer than max_wait: without exclusivity, three more batches
        results = await asyncio.gather(first, *later)
        assert [values for _, values in predictor.batches] == [[0.0], [1.0, 2.0, 3.0]]
        assert predictor.most_running == 1
        assert [means(r) for r in results] == [[0.0], [1.0], [2.0], [3.0]]
        assert results[1].queue_ms > 100  # waited for the running batch
        assert not batcher.busy

    run(scenario())


def test_other_keys_and_non_exclusive_keys_still_run_side_by_side():
    async def scenario():
        predictor = EchoPredictor(delay_s=0.3)
        batcher = make_batcher(predictor, max_wait_s=0.01, exclusive=lambda key: key == KEY)
        first = asyncio.create_task(batcher.submit(OTHER_KEY, [series(0)]))  # not exclusive
        await asyncio.sleep(0.1)
        await asyncio.gather(first, batcher.submit(OTHER_KEY, [series(1)]), batcher.submit(KEY, [series(2)]))
        assert sorted(values for _, values in predictor.batches) == [[0.0], [1.0], [2.0]]
        assert predictor.most_running >= 2  # the executor has two threads

    run(scenario())


def test_an_exclusive_key_collecting_more_than_max_series_goes_in_full_batches_in_order():
    async def scenario():
        predictor = EchoPredictor(delay_s=0.2)
        batcher = make_batcher(predictor, max_series=2, max_wait_s=0.01, exclusive=lambda key: True)
        first = asyncio.create_task(batcher.submit(KEY, [series(0), series(1)]))  # full: goes at once
        await asyncio.sleep(0.05)
        result = await batcher.submit(KEY, [series(v) for v in (2, 3, 4, 5, 6)])
        await first
        assert [values for _, values in predictor.batches] == [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0], [6.0]]
        assert predictor.most_running == 1
        assert means(result) == [2.0, 3.0, 4.0, 5.0, 6.0]

    run(scenario())


def test_a_failing_exclusive_batch_releases_its_key():
    async def scenario():
        predictor = EchoPredictor(delay_s=0.2, fail_on=0.0)
        batcher = make_batcher(predictor, max_wait_s=0.01, exclusive=lambda key: True)
        first = asyncio.create_task(batcher.submit(KEY, [series(0)]))
        await asyncio.sleep(0.05)
        second = asyncio.create_task(batcher.submit(KEY, [series(1)]))
        with pytest.raises(BatchFailed):
            await first
        assert means(await asyncio.wait_for(second, 5)) == [1.0]
        assert not batcher.busy

    run(scenario())


def test_a_backlog_of_one_flow_does_not_hold_back_another_flows_series():
    """Flow A queues five batches' worth on an exclusive key; flow B's one series arriving later goes in the
    next batch (round robin over the waiting flows), not after all of A's; A's keep their order."""

    async def scenario():
        predictor = EchoPredictor(delay_s=0.2)
        batcher = make_batcher(predictor, max_series=2, max_wait_s=0.01, exclusive=lambda key: True)
        first = asyncio.create_task(batcher.submit(KEY, [series(0), series(1)], "account-a"))  # full: goes at once
        await asyncio.sleep(0.05)
        backlog = asyncio.create_task(batcher.submit(KEY, [series(v) for v in (2, 3, 4, 5, 6, 7, 8, 9)], "account-a"))
        await asyncio.sleep(0.01)
        small = await batcher.submit(KEY, [series(100)], "account-b")
        assert means(small) == [100.0]
        await asyncio.gather(first, backlog)
        batches = [values for _, values in predictor.batches]
        assert batches[1] == [2.0, 100.0], batches
        assert [v for b in batches for v in b if v != 100.0] == [float(v) for v in range(10)]
        assert predictor.most_running == 1

    run(scenario())


def test_one_flow_keeps_arrival_order_across_requests():
    async def scenario():
        predictor = EchoPredictor(delay_s=0.1)
        batcher = make_batcher(predictor, max_series=2, max_wait_s=0.01, exclusive=lambda key: True)
        first = asyncio.create_task(batcher.submit(KEY, [series(0), series(1)], "a"))
        await asyncio.sleep(0.03)
        later = [asyncio.create_task(batcher.submit(KEY, [series(v)], "a")) for v in (2, 3, 4)]
        await asyncio.gather(first, *later)
        assert [values for _, values in predictor.batches] == [[0.0, 1.0], [2.0, 3.0], [4.0]]

    run(scenario())
