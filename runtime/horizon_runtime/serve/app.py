"""The Serve deployment of one runtime group: the local worker's Worker, batched with @serve.batch.

A replica answers POST /<group>/infer, /<group>/embed, /<group>/load and GET /<group>/models, /<group>/health with the
very payloads of the local worker (server.Worker), so the control plane's inference client is the same.
Batching follows the local batcher's rules: a batch holds series of one key (model, size, horizon,
quantiles, freq) only, at most max_series of them (a request with more spans several batches), and
`max_concurrent_batches=1` runs one batch at a time per replica (what the local worker does for the
torch models). Adapters forecast each series independently of its batch mates (the statistical ones
bitwise; a torch network over a batch up to the float32 rounding of batched kernels, as locally), so the
numbers do not depend on how Serve happened to group requests.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor

import orjson
from ray import serve
from starlette.requests import Request
from starlette.responses import Response

from ..adapters.base import SeriesInput
from ..batcher import BatchedResult, BatchFailed, BatchKey
from ..catalog import DEFAULT_CATALOG_PATH, load_catalog
from ..protocol import ProtocolError
from ..server import Worker, parse_json

log = logging.getLogger("horizon_runtime.serve")

# Same defaults as the local worker (python -m horizon_runtime).
DEFAULT_MAX_SERIES = 256
DEFAULT_MAX_WAIT_MS = 2.0


def _json(payload: dict, status: int = 200) -> Response:
    return Response(orjson.dumps(payload, option=orjson.OPT_SERIALIZE_NUMPY), status, media_type="application/json")


def _series_count(items: list[tuple[BatchKey, list[SeriesInput], float]]) -> int:
    return sum(len(series) for _, series, _ in items)


class _ServeBatcher:
    """Stands in for the worker's MicroBatcher: splits a request into chunks of at most max_series and
    hands each to the replica's @serve.batch method."""

    def __init__(self, deployment: "GroupDeployment", max_series: int):
        self._deployment = deployment
        self._max_series = max_series
        self.busy = False

    async def submit(self, key: BatchKey, series: list[SeriesInput], flow: str = "", formed: bool = False) -> BatchedResult:
        # flow (x-horizon-flow) and formed (x-horizon-batch) are not used: @serve.batch keeps its own first-come
        # queue and batching wait (docs/fairness-and-quotas.md)
        arrived = time.perf_counter()
        if key.joint:  # forecast together: one predict call of its own, never split nor batched with others
            try:
                predictions = await asyncio.get_running_loop().run_in_executor(
                    self._deployment._executor, self._deployment.worker._predict, key, series
                )
            except Exception as exc:
                raise BatchFailed(f"{type(exc).__name__}: {exc}") from exc
            return BatchedResult(predictions, 0.0, (time.perf_counter() - arrived) * 1e3, len(series))
        chunks = [series[i : i + self._max_series] for i in range(0, len(series), self._max_series)]
        outcomes = await asyncio.gather(*(self._deployment.predict_batched((key, chunk, arrived)) for chunk in chunks))
        predictions, queue_ms, infer_ms, batch_series = [], 0.0, 0.0, 0
        for outcome in outcomes:
            if isinstance(outcome, str):
                raise BatchFailed(outcome)
            chunk_predictions, chunk_queue_ms, chunk_infer_ms, chunk_series = outcome
            predictions.extend(chunk_predictions)
            queue_ms, infer_ms = max(queue_ms, chunk_queue_ms), max(infer_ms, chunk_infer_ms)
            batch_series = max(batch_series, chunk_series)
        return BatchedResult(predictions, queue_ms, infer_ms, batch_series)


@serve.deployment(max_ongoing_requests=64, health_check_period_s=5)
class GroupDeployment:
    def __init__(self, group: str, catalog: str = str(DEFAULT_CATALOG_PATH), max_series: int = DEFAULT_MAX_SERIES,
                 max_wait_ms: float = DEFAULT_MAX_WAIT_MS, memory_budget_mb: float = 0.0):
        logging.basicConfig(level=logging.INFO)
        # predictions run off the replica's event loop, so health checks and new requests keep flowing
        self._executor = ThreadPoolExecutor(max_workers=2, thread_name_prefix="predict")
        self.worker = Worker(
            load_catalog(catalog), group, self._executor, max_series, max_wait_ms / 1e3,
            int(memory_budget_mb * 1e6) if memory_budget_mb else None,
        )
        self.worker.batcher = _ServeBatcher(self, max_series)
        self.predict_batched.set_max_batch_size(max_series)  # counted in series (batch_size_fn)
        self.predict_batched.set_batch_wait_timeout_s(max_wait_ms / 1e3)
        log.info("group %s replica ready in pid %d (models: %s)", group, os.getpid(),
                 ", ".join(m["model"] for m in self.worker.models_payload()["models"]) or "none")

    @serve.batch(max_batch_size=DEFAULT_MAX_SERIES, batch_wait_timeout_s=DEFAULT_MAX_WAIT_MS / 1e3,
                 max_concurrent_batches=1, batch_size_fn=_series_count)
    async def predict_batched(self, items: list[tuple[BatchKey, list[SeriesInput], float]]) -> list:
        """One Serve batch: its items grouped by key, one predict call per key (the local batcher never
        mixes keys either). An item's outcome is (predictions, queue_ms, infer_ms, batch_series) or the
        failure's message."""
        by_key: dict[BatchKey, list[int]] = defaultdict(list)
        for position, (key, _, _) in enumerate(items):
            by_key[key].append(position)
        outcomes: list = [None] * len(items)
        loop = asyncio.get_running_loop()
        for key, positions in by_key.items():
            batch = [one for position in positions for one in items[position][1]]
            started = time.perf_counter()
            try:
                predictions = await loop.run_in_executor(self._executor, self.worker._predict, key, batch)
                if len(predictions) != len(batch):
                    raise RuntimeError(f"predict_batch returned {len(predictions)} predictions for {len(batch)} series")
            except Exception as exc:  # fails exactly the requests with series in this batch
                for position in positions:
                    outcomes[position] = f"{type(exc).__name__}: {exc}"
                continue
            infer_ms = (time.perf_counter() - started) * 1e3
            offset = 0
            for position in positions:
                _, series, arrived = items[position]
                outcomes[position] = (
                    predictions[offset : offset + len(series)], (started - arrived) * 1e3, infer_ms, len(batch),
                )
                offset += len(series)
        return outcomes

    async def __call__(self, request: Request) -> Response:
        operation = request.url.path.rstrip("/").rsplit("/", 1)[-1]
        try:
            if request.method == "POST" and operation == "infer":
                return _json(await self.worker.infer_payload(parse_json(await request.body()), None, request.headers.get("x-horizon-flow", "")))
            if request.method == "POST" and operation == "embed":
                return _json(await self.worker.embed_payload(parse_json(await request.body()), None, request.headers.get("x-horizon-flow", "")))
            if request.method == "POST" and operation == "load":
                return _json(await self.worker.load_payload(parse_json(await request.body())))
            if request.method == "GET" and operation == "models":
                return _json(self.worker.models_payload())
            if request.method == "GET" and operation == "health":
                return _json({**self.worker.health_payload(), "node": _node_id()})
            if request.method == "POST" and operation in ("aggregate", "reconcile") and request.url.path.rstrip("/").endswith(f"/hierarchy/{operation}"):
                return _json(await self.worker.hierarchy_payload(operation, parse_json(await request.body())))
            return _json({"error": {"code": "not_found", "detail": f"no route {request.method} {request.url.path}"}}, 404)
        except ProtocolError as exc:
            return _json({"error": {"code": exc.code, "detail": exc.detail}}, exc.status)
        except Exception as exc:
            log.exception("unexpected error on %s %s", request.method, request.url.path)
            return _json({"error": {"code": "inference_failed", "detail": f"internal error: {type(exc).__name__}: {exc}"}}, 500)


def _node_id() -> str | None:
    try:
        import ray

        return ray.get_runtime_context().get_node_id()
    except Exception:  # outside a Ray worker (never in a replica)
        return None


def build(args: dict) -> serve.Application:
    """Application builder for Serve config files (import_path horizon_runtime.serve.app:build); args:
    group (required), catalog, max_series, max_wait_ms, memory_budget_mb."""
    return GroupDeployment.bind(
        args["group"], args.get("catalog", str(DEFAULT_CATALOG_PATH)), int(args.get("max_series", DEFAULT_MAX_SERIES)),
        float(args.get("max_wait_ms", DEFAULT_MAX_WAIT_MS)), float(args.get("memory_budget_mb", 0.0)),
    )
