"""The worker's Prometheus metrics, served at GET /metrics and merged by the control plane into its
own /metrics (every sample here carries `runtime_group`, so workers of several groups do not collide).

A registry of its own, without the default process/platform collectors: the control plane exposes
its process metrics under the standard names, and two processes' `process_*` in one exposition would
clash. `_created` samples are switched off for the same reason (one family per name)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Histogram,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

disable_created_metrics()

# generate_latest writes the classic text format; prometheus_client 0.26 labels it 1.0.0, the
# control plane (prom-client) 0.0.4: the merged /metrics answer is 0.0.4, so the worker says the same
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

REGISTRY = CollectorRegistry(auto_describe=True)
_LABELS = ("runtime_group", "model", "size")

# powers of two up to the largest batch HORIZON_BATCH_MAX_SERIES allows in practice
BATCH_SERIES = Histogram(
    "horizon_runtime_batch_series", "Series per prediction batch (micro-batching of concurrent requests)",
    _LABELS, buckets=(1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024), registry=REGISTRY,
)
_SECONDS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60)
QUEUE_WAIT = Histogram(
    "horizon_runtime_queue_wait_seconds", "Wait of a request's series from arrival until their batch started predicting",
    _LABELS, buckets=_SECONDS, registry=REGISTRY,
)
INFERENCE = Histogram(
    "horizon_runtime_inference_seconds", "Duration of one prediction batch (the model's forward pass and pre/post-processing)",
    _LABELS, buckets=_SECONDS, registry=REGISTRY,
)
LOAD = Histogram(
    "horizon_runtime_model_load_seconds", "Time to load a model size (weights read, moved to the device)",
    _LABELS, buckets=(0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300), registry=REGISTRY,
)
REQUESTS = Counter(
    "horizon_runtime_infer_requests", "/infer requests answered by this worker, by outcome (ok or the protocol error code)",
    (*_LABELS, "outcome"), registry=REGISTRY,
)


class LoadedModels(Collector):
    """Loaded models and their memory, read from the model store at scrape time."""

    group = ""
    loaded: Callable[[], Iterable[tuple[str, str, int]]] = staticmethod(list)

    def collect(self):
        models = GaugeMetricFamily("horizon_runtime_model_loaded", "1 for every model size resident in this worker", labels=_LABELS)
        memory = GaugeMetricFamily(
            "horizon_runtime_model_memory_bytes", "Memory of a resident model size (its tensors, or the process growth while it loaded)", labels=_LABELS
        )
        for model_id, size, size_bytes in self.loaded():
            models.add_metric([self.group, model_id, size], 1)
            memory.add_metric([self.group, model_id, size], size_bytes)
        yield models
        yield memory

    def describe(self):
        return []


# one per process: the worker points it at its model store (tests build several workers in one process)
LOADED = LoadedModels()
REGISTRY.register(LOADED)


class BatcherWork(Collector):
    """What the micro-batcher holds, read at scrape time (issue 33: a worker with no series waiting and no batch
    running does no work), and its series by outcome: fitted, or dropped because their caller had gone."""

    group = ""
    batcher = None  # the worker's MicroBatcher (Ray Serve's stand-in has no such counts: nothing is exposed)

    def collect(self):
        waiting = GaugeMetricFamily("horizon_runtime_series_waiting", "Series waiting in the micro-batcher for a batch", labels=_LABELS)
        running = GaugeMetricFamily("horizon_runtime_batches_running", "Prediction batches running now", labels=_LABELS)
        series = CounterMetricFamily(
            "horizon_runtime_series",
            "Series by outcome: fitted (a batch ran over them), dropped_waiting (their caller had gone before their batch), "
            "dropped_running (their caller had gone and their batch stopped before their chunk)",
            labels=(*_LABELS, "outcome"),
        )
        work = getattr(self.batcher, "work", None)
        for key, (n_waiting, n_running) in (work() if work else {}).items():
            waiting.add_metric([self.group, key.model, key.size], n_waiting)
            running.add_metric([self.group, key.model, key.size], n_running)
        totals: dict[tuple[str, str, str], int] = {}
        for (key, outcome), n in dict(getattr(self.batcher, "counts", {})).items():
            label = (key.model, key.size, outcome)
            totals[label] = totals.get(label, 0) + n
        for (model, size, outcome), n in totals.items():
            series.add_metric([self.group, model, size, outcome], n)
        yield waiting
        yield running
        yield series

    def describe(self):
        return []


WORK = BatcherWork()
REGISTRY.register(WORK)


def exposition() -> bytes:
    return generate_latest(REGISTRY)
