"""Micro-batching of concurrent /infer requests that share a key (model, size, horizon, quantiles, freq), and of
/embed requests that share one (model, size, granularity).

Series collect per key until `max_series` are waiting or `max_wait_s` has passed since the first of
them arrived; then one `predict(key, series)` runs in the thread executor (the event loop keeps
accepting requests) and the predictions go back to the requests they came from. A request with more
series than `max_series` spans several batches. A failing batch fails exactly the requests that had
series in it.

Keys that `exclusive(key)` marks (the worker marks every model whose adapter says
`one_batch_at_a_time`: the torch models) run one batch at a time: series that arrive while a batch
of their key predicts keep collecting, and go as the next batch (up to `max_series`) as soon as it
finishes. One network on one device gains nothing from two of its batches side by side (they contend
for the same cores or GPU and, on a GPU, for the GIL that launches the kernels), while one larger batch
uses it better: continuous batching under concurrent load.

A joint request (issue 34: "multivariate", its series forecast together) has a key of its own (BatchKey.joint): its
series go as one batch, at once, however many, and never with another request's.

Fair between flows (issue 24): each request names its flow (the control plane sends the account, or the
job, as `x-horizon-flow`). When an exclusive key has collected more than one batch, the next batch takes
series round robin over the waiting flows, so one account's backlog of 10,000 series does not put another
account's one series behind all of it; within a flow, and with one flow, arrival order is kept.

A request whose caller has gone (its connection closed: the handler's task is cancelled, issue 33) leaves at
once: its series still waiting are dropped, and a running batch whose requests have all gone is stopped at
its next chunk (cancel.py). Counts of series fitted and dropped, by key, are kept for the worker's metrics.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import deque
from concurrent.futures import Executor
from dataclasses import dataclass, field
from functools import partial
from typing import Callable, NamedTuple

from .adapters.base import Embedding, Prediction, SeriesInput
from .cancel import BatchStopped, stoppable


class BatchKey(NamedTuple):
    model: str
    size: str
    horizon: int
    quantiles: tuple[float, ...]
    freq: str
    # a request forecast jointly ("multivariate"): a number of its own, so its series are one batch of their own,
    # whatever their count, and no other request's series join it; 0: batched with others as usual
    joint: int = 0
    # sample paths per series asked for (0: none): a batch draws one number of paths
    samples: int = 0
    seed: int | None = None  # the request's sample-path seed
    # an /embed call's granularity ("series" or "patch"): the batch embeds instead of forecasting (horizon 0, no
    # quantiles, no freq); "": a forecast
    embed: str = ""


class BatchFailed(Exception):
    """predict raised (or returned the wrong number of predictions) for a batch holding the request."""


@dataclass(frozen=True)
class BatchedResult:
    predictions: list[Prediction] | list[Embedding]  # in the request's series order (an /embed call's: Embeddings)
    # Over the batches that served the request (one unless it was split):
    queue_ms: float  # longest wait from arrival until its batch started predicting
    infer_ms: float  # longest predict call
    batch_series: int  # series in the largest of those batches


@dataclass(eq=False)
class _Request:
    future: asyncio.Future
    arrived: float
    predictions: list
    remaining: int
    queue_s: float = 0.0
    infer_s: float = 0.0
    batch_series: int = 0
    gone: bool = False  # its caller has gone (cancelled): its series are not wanted any more


_Item = tuple[_Request, int, SeriesInput, str]  # request, series index in it, series, flow


@dataclass(eq=False)
class _Pending:
    items: list[_Item] = field(default_factory=list)
    timer: asyncio.TimerHandle | None = None
    ready: bool = False  # due (window over or full) but held back: a batch of its exclusive key is running


PredictFn = Callable[[BatchKey, list[SeriesInput]], list[Prediction] | list[Embedding]]


class MicroBatcher:
    def __init__(
        self, predict: PredictFn, executor: Executor, max_series: int, max_wait_s: float,
        exclusive: Callable[[BatchKey], bool] = lambda key: False,
    ):
        if max_series < 1:
            raise ValueError("max_series must be at least 1")
        self._predict = predict
        self._exclusive = exclusive
        self._predicting: set[BatchKey] = set()  # exclusive keys with a batch in the executor
        self._executor = executor
        self._max_series = max_series
        self._max_wait_s = max_wait_s
        self._pending: dict[BatchKey, _Pending] = {}
        self._running: set[asyncio.Future] = set()
        # the running batches' items and stop events (set when all their requests have gone)
        self._batches: dict[asyncio.Future, tuple[BatchKey, list[_Item], threading.Event]] = {}
        # series per key: fitted (a batch ran over them, even one stopped partway), dropped while waiting,
        # dropped from a stopped batch before their chunk started (metrics.py)
        self.counts: dict[tuple[BatchKey, str], int] = {}

    @property
    def busy(self) -> bool:
        """Whether any series is waiting or being predicted."""
        return bool(self._pending or self._running)

    async def submit(self, key: BatchKey, series: list[SeriesInput], flow: str = "", formed: bool = False) -> BatchedResult:
        """formed: the caller gathered this call's batch already (the control plane's fair gate): it goes at
        once with what else of its key is waiting, instead of waiting `max_wait_s` for more."""
        loop = asyncio.get_running_loop()
        request = _Request(loop.create_future(), time.perf_counter(), [None] * len(series), len(series))
        for index, one in enumerate(series):
            pending = self._pending.get(key)
            if pending is None:
                pending = self._pending[key] = _Pending()
                pending.timer = loop.call_later(self._max_wait_s, self._dispatch, key)
            pending.items.append((request, index, one, flow))
            if len(pending.items) >= self._max_series and not key.joint:
                self._dispatch(key)
        if formed or key.joint:
            self._dispatch(key)
        try:
            return await request.future
        except asyncio.CancelledError:
            self._withdraw(key, request)
            raise

    def work(self) -> dict[BatchKey, tuple[int, int]]:
        """Per key: series waiting and batches running (metrics: a worker with neither does no work)."""
        out: dict[BatchKey, tuple[int, int]] = {key: (len(p.items), 0) for key, p in self._pending.items()}
        for key, _, _ in self._batches.values():
            waiting, running = out.get(key, (0, 0))
            out[key] = (waiting, running + 1)
        return out

    def _count(self, key: BatchKey, outcome: str, n: int) -> None:
        if n:
            self.counts[(key, outcome)] = self.counts.get((key, outcome), 0) + n

    def _withdraw(self, key: BatchKey, request: _Request) -> None:
        """The request's caller has gone: its waiting series leave, and a running batch left with no caller stops."""
        request.gone = True
        pending = self._pending.get(key)
        if pending is not None:
            kept = [item for item in pending.items if item[0] is not request]
            self._count(key, "dropped_waiting", len(pending.items) - len(kept))
            if kept:
                pending.items = kept
            else:
                if pending.timer is not None:
                    pending.timer.cancel()
                del self._pending[key]
        for _, items, stop in self._batches.values():
            if not stop.is_set() and all(item[0].gone for item in items):
                stop.set()

    def _dispatch(self, key: BatchKey) -> None:
        pending = self._pending.get(key)
        if pending is None:
            return
        if pending.timer is not None:
            pending.timer.cancel()
            pending.timer = None
        exclusive = self._exclusive(key)
        if exclusive and key in self._predicting:
            pending.ready = True  # goes when the running batch of this key completes
            return
        items, rest = (pending.items, []) if key.joint else _take_fairly(pending.items, self._max_series)
        if rest:  # only exclusive keys collect more than max_series while they wait
            self._pending[key] = _Pending(rest, None, True)
        else:
            del self._pending[key]
        if exclusive:
            self._predicting.add(key)
        batch = [one for _, _, one, _ in items]
        stop = threading.Event()
        future = asyncio.get_running_loop().run_in_executor(self._executor, self._timed_predict, key, batch, stop)
        self._running.add(future)
        self._batches[future] = (key, items, stop)
        future.add_done_callback(partial(self._complete, key, items))

    def _timed_predict(self, key: BatchKey, batch: list[SeriesInput], stop: threading.Event | None = None):
        started = time.perf_counter()
        with stoppable(stop or threading.Event()):
            predictions = self._predict(key, batch)
        return started, time.perf_counter(), predictions

    def _complete(self, key: BatchKey, items: list[_Item], future: asyncio.Future) -> None:
        self._running.discard(future)
        self._batches.pop(future, None)
        stopped = future.exception() if not future.cancelled() else None
        unfitted = stopped.unfitted if isinstance(stopped, BatchStopped) else 0
        self._count(key, "fitted", len(items) - unfitted)
        self._count(key, "dropped_running", unfitted)
        if key in self._predicting:
            self._predicting.discard(key)
            waiting = self._pending.get(key)
            if waiting is not None and waiting.ready:
                self._dispatch(key)
        requests = list({id(request): request for request, _, _, _ in items}.values())
        try:
            started, finished, predictions = future.result()
            if len(predictions) != len(items):
                raise RuntimeError(f"predict_batch returned {len(predictions)} predictions for {len(items)} series")
        except Exception as exc:
            for request in requests:
                if not request.future.done():
                    request.future.set_exception(BatchFailed(f"{type(exc).__name__}: {exc}"))
            return
        for (request, index, _, _), prediction in zip(items, predictions):
            request.predictions[index] = prediction
            request.remaining -= 1
        for request in requests:
            request.queue_s = max(request.queue_s, started - request.arrived)
            request.infer_s = max(request.infer_s, finished - started)
            request.batch_series = max(request.batch_series, len(items))
            if request.remaining == 0 and not request.future.done():
                request.future.set_result(
                    BatchedResult(
                        request.predictions, request.queue_s * 1e3, request.infer_s * 1e3, request.batch_series
                    )
                )


def _take_fairly(items: list[_Item], n: int) -> tuple[list[_Item], list[_Item]]:
    """The next batch of at most n items and the rest: round robin over the flows in the order each first
    arrived, arrival order within a flow; the rest keep their arrival order."""
    if len(items) <= n:
        return items, []
    by_flow: dict[str, deque[_Item]] = {}
    for item in items:
        by_flow.setdefault(item[3], deque()).append(item)
    if len(by_flow) == 1:
        return items[:n], items[n:]
    taken: list[_Item] = []
    queues = list(by_flow.values())
    while len(taken) < n:
        for queue in queues:
            if queue and len(taken) < n:
                taken.append(queue.popleft())
    chosen = {id(item) for item in taken}
    return taken, [item for item in items if id(item) not in chosen]
