"""The worker's HTTP routes (docs/runtime-protocol.md) on aiohttp."""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
import time
from concurrent.futures import Executor
from dataclasses import replace

import numpy as np
import orjson
from aiohttp import web

from . import explain, metrics
from .adapters.base import Embedding, Prediction, SeriesInput
from .batcher import BatchFailed, BatchKey, MicroBatcher
from .catalog import Catalog
from .hierarchy_api import aggregate_payload, reconcile_payload
from .model_store import ModelStore
from .protocol import (
    ProtocolError, bad_request, encode_embeddings, encode_predictions, json_object, parse_embed_request, parse_infer_request, resolve_model,
)

log = logging.getLogger(__name__)

# Bodies are arrays of up to max_context (100,000) values per series, many series per request.
MAX_BODY_BYTES = 512 * 1024 * 1024
# the fields of a request's log line, filled in as the handler learns them (model, size, series, code)
_LOG_FIELDS = web.RequestKey("log_fields", dict)


def _json(payload: dict, status: int = 200) -> web.Response:
    return web.Response(
        body=orjson.dumps(payload, option=orjson.OPT_SERIALIZE_NUMPY), status=status, content_type="application/json"
    )


def _error(status: int, code: str, detail: str) -> web.Response:
    return _json({"error": {"code": code, "detail": detail}}, status)


def parse_json(raw: bytes):
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise bad_request(f"the body is not valid JSON: {exc}")


async def _json_body(request: web.Request):
    return parse_json(await request.read())


def _check_predictions(predictions: list[Prediction], horizon: int, levels: int) -> None:
    """Holds every adapter to the protocol's promise: horizon finite values in every array."""
    for index, prediction in enumerate(predictions):
        if prediction.mean.shape != (horizon,) or prediction.quantiles.shape != (levels, horizon):
            raise ValueError(
                f"series {index}: adapter returned mean {prediction.mean.shape} and quantiles "
                f"{prediction.quantiles.shape}, expected ({horizon},) and ({levels}, {horizon})"
            )
        if not (np.isfinite(prediction.mean).all() and np.isfinite(prediction.quantiles).all()):
            raise ValueError(f"series {index}: adapter returned non-finite values")
        for mean, quantiles in prediction.backtest:
            if mean.ndim != 1 or quantiles.shape != (levels, mean.size) or not (np.isfinite(mean).all() and np.isfinite(quantiles).all()):
                raise ValueError(f"series {index}: adapter returned a backtest forecast that is not {levels} finite rows")
        if prediction.samples is not None and (prediction.samples.ndim != 2 or prediction.samples.shape[1] != horizon
                                               or not np.isfinite(prediction.samples).all()):
            raise ValueError(f"series {index}: adapter returned sample paths {prediction.samples.shape} that are not finite rows of {horizon}")
        if prediction.in_sample is not None:  # NaN where nothing is fitted, never infinite
            mean, quantiles = prediction.in_sample
            if mean.ndim != 1 or quantiles.shape != (levels, mean.size) or np.isinf(mean).any() or np.isinf(quantiles).any():
                raise ValueError(f"series {index}: adapter returned in-sample values that are not {levels} rows without infinities")


def _check_embeddings(embeddings: list[Embedding], patches: bool) -> None:
    """Holds every adapter to /embed's promise: finite float32 vectors of one dimension, and with patches a row per patch."""
    dimension = embeddings[0].vector.shape[0] if embeddings else 0
    for index, embedding in enumerate(embeddings):
        rows = embedding.patches
        if embedding.vector.shape != (dimension,) or (patches and (rows is None or rows.ndim != 2 or rows.shape[1] != dimension)):
            raise ValueError(f"series {index}: adapter returned vectors that are not {dimension} wide")
        # a patch row is finite, or NaN throughout (a patch without an observed value)
        arrays = [embedding.vector] + ([rows[~np.isnan(rows).all(axis=1)]] if patches else []) + (
            [embedding.summary] if embedding.summary is not None else [])
        if any(array.dtype != np.float32 or not np.isfinite(array).all() for array in arrays):
            raise ValueError(f"series {index}: adapter returned an embedding that is not finite float32 values")


class Worker:
    def __init__(
        self, catalog: Catalog, group: str, executor: Executor, max_series: int, max_wait_s: float,
        memory_budget: int | None = None, one_batch_at_a_time: bool = True,
    ):
        self.catalog = catalog
        self.group = group
        self.executor = executor  # also the hierarchy endpoints' pandas work (hierarchy_payload)
        self.store = ModelStore(catalog, group, executor, memory_budget)
        self.batcher = MicroBatcher(
            self._predict, executor, max_series, max_wait_s, self._one_batch_at_a_time if one_batch_at_a_time else (lambda key: False)
        )
        self.shutting_down = False
        self._joint_ids = itertools.count(1)  # BatchKey.joint: each joint request a batch of its own
        metrics.LOADED.group, metrics.LOADED.loaded = group, self.store.loaded_with_bytes
        metrics.WORK.group, metrics.WORK.batcher = group, self.batcher

    def _one_batch_at_a_time(self, key: BatchKey) -> bool:
        try:
            return self.store.adapter(key.model, key.size).one_batch_at_a_time
        except KeyError:  # not loaded (cannot happen while a request holds it): no constraint
            return False

    def _predict(self, key: BatchKey, series: list[SeriesInput]) -> list[Prediction] | list[Embedding]:
        adapter = self.store.adapter(key.model, key.size)
        started = time.perf_counter()
        if key.embed:  # an /embed call's batch
            embeddings = adapter.embed_batch(series, key.embed == "patch")
            metrics.INFERENCE.labels(self.group, key.model, key.size).observe(time.perf_counter() - started)
            metrics.BATCH_SERIES.labels(self.group, key.model, key.size).observe(len(series))
            _check_embeddings(embeddings, key.embed == "patch")
            return embeddings
        predict = adapter.predict_joint if key.joint else adapter.predict_batch
        predictions = predict(series, key.horizon, key.quantiles, key.freq)
        if key.samples:
            paths = adapter.sample_paths(series, key.horizon, key.samples, key.freq, key.seed)
            predictions = [replace(p, samples=np.ascontiguousarray(s, dtype=np.float64)) for p, s in zip(predictions, paths)]
        labels = (self.group, key.model, key.size)
        metrics.INFERENCE.labels(*labels).observe(time.perf_counter() - started)
        metrics.BATCH_SERIES.labels(*labels).observe(len(series))
        _check_predictions(predictions, key.horizon, len(key.quantiles))
        return predictions

    @web.middleware
    async def _request_line(self, request: web.Request, handler) -> web.StreamResponse:
        """One JSON log line per /infer and /load, under the control plane's X-Request-Id, with the same
        fields as its request line (health checks, model lists and scrapes are not logged: they are
        polled every few seconds)."""
        if request.path not in ("/infer", "/embed", "/load"):
            return await handler(request)
        started = time.perf_counter()
        fields: dict = {"request_id": request.headers.get("x-request-id"), "method": request.method, "url": request.path}
        request[_LOG_FIELDS] = fields
        try:
            response = await handler(request)
        except asyncio.CancelledError:
            # the caller closed the connection (the control plane's client had gone, issue 33): the call's series
            # still waiting were dropped (batcher.py); nginx's 499 names it in the line
            fields.update(status=499, duration_ms=round((time.perf_counter() - started) * 1e3, 3))
            log.info("request cancelled", extra={"fields": fields})
            raise
        fields.update(status=response.status, duration_ms=round((time.perf_counter() - started) * 1e3, 3))
        if response.status >= 500:
            log.error("request failed", extra={"fields": fields})
        else:
            log.info("request completed", extra={"fields": fields})
        return response

    @web.middleware
    async def _protocol_errors(self, request: web.Request, handler) -> web.StreamResponse:
        if self.shutting_down:
            return self._failed(request, 503, "shutting_down", f"worker {os.getpid()} of group '{self.group}' is shutting down")
        try:
            return await handler(request)
        except ProtocolError as exc:
            return self._failed(request, exc.status, exc.code, exc.detail)
        except web.HTTPException:
            raise
        except Exception as exc:
            log.exception(
                "unexpected error on %s %s", request.method, request.path,
                extra={"fields": {"request_id": request.headers.get("x-request-id")}},
            )
            return self._failed(request, 500, "inference_failed", f"internal error: {type(exc).__name__}: {exc}")

    def _failed(self, request: web.Request, status: int, code: str, detail: str) -> web.Response:
        fields = request.get(_LOG_FIELDS)
        if fields is not None:
            fields.update(code=code, detail=detail)
            if request.path in ("/infer", "/embed") and "model" in fields:
                metrics.REQUESTS.labels(self.group, fields["model"], fields["size"], code).inc()
        return _error(status, code, detail)

    # The payloads are shared with the Ray Serve deployment (horizon_runtime.serve), which answers the
    # same protocol from a replica: the handlers below only move them in and out of aiohttp.
    async def infer_payload(self, body, fields: dict | None = None, flow: str = "", formed: bool = False) -> dict:
        """fields: the request's log-line fields (filled in here: model, size, series, batch numbers).
        flow: whose call this is (the control plane's x-horizon-flow: an account or a job), for fair batches.
        formed: the control plane's gate formed this batch (x-horizon-batch: formed): no batching wait."""
        body = json_object(body)
        model, size = resolve_model(body, self.catalog, self.group)
        fields = {} if fields is None else fields
        fields.update(model=model.id, size=size, series=len(body.get("series") or []) if isinstance(body.get("series"), list) else 0)
        self.store.check_servable(model, size)
        req = parse_infer_request(body, model, size, self.catalog)
        adapter, loaded_ms, _ = await self.store.load(model, size)
        if not adapter.supports_backtest and any(s.backtest for s in req.series):
            raise bad_request(f"'backtest' on a series: {model.id} forecasts no validation origins; send them as series of their own")
        if not adapter.supports_in_sample and any(s.in_sample for s in req.series):
            raise bad_request(f"'in_sample' on a series: {model.id} is not fitted to the history, it has no in-sample fitted values")
        if req.joint and not adapter.supports_joint:
            raise bad_request(f"'multivariate': {model.id} has no joint (multivariate) forecast")
        if req.samples and not adapter.supports_samples:
            raise bad_request(f"'samples': {model.id} draws no sample paths")
        if req.joint and req.samples:
            raise bad_request("'multivariate' and 'samples' together: no adapter draws joint sample paths")
        key = BatchKey(req.model.id, req.size, req.horizon, req.quantiles, req.freq,
                       next(self._joint_ids) if req.joint else 0, req.samples, req.seed)
        # explain: every coalition of every series' covariates goes in the same call (explain.py)
        sent, spans = explain.expand(req.series) if req.explain else (req.series, None)
        self.store.acquire(model.id, size)  # not evicted while this request's batches run
        try:
            result = await self.batcher.submit(key, sent, flow, formed)
        except BatchFailed as exc:
            raise ProtocolError(500, "inference_failed", f"{req.model.id} ({req.size}): {exc}")
        finally:
            self.store.release(model.id, size)
        contributions = None
        if spans is not None:  # each series' own forecast is its full coalition
            result, contributions = await explain.explained(result, req.series, spans)
            fields["explained_series"] = len(sent)
        metrics.QUEUE_WAIT.labels(self.group, model.id, size).observe(result.queue_ms / 1e3)
        metrics.REQUESTS.labels(self.group, model.id, size, "ok").inc()
        fields.update(batch_series=result.batch_series, queue_ms=round(result.queue_ms, 3), infer_ms=round(result.infer_ms, 3))

        warnings = [f"{kind} covariates ignored: {req.model.id} does not use them" for kind in req.ignored_covariates]
        for index, prediction in enumerate(result.predictions):
            warnings.extend(f"series {index}: {warning}" for warning in prediction.warnings)
        answer: dict = {"model": req.model.id, "size": req.size}
        if req.base64_output:
            answer["predictions"], answer["dtype"] = encode_predictions(
                result.predictions, req.quantile_rows, req.horizon, req.float32_output
            )
            fields["dtype"] = answer["dtype"]
        else:  # arrays: orjson writes numpy
            answer["predictions"] = [
                {"mean": p.mean, "quantiles": {k: p.quantiles[row] for k, row in req.quantile_rows}}
                | ({"backtest": [{"mean": m, "quantiles": {k: q[row] for k, row in req.quantile_rows}} for m, q in p.backtest]}
                   if p.backtest else {})
                # NaN (nothing fitted there) is written as null
                | ({"in_sample": {"mean": p.in_sample[0], "quantiles": {k: p.in_sample[1][row] for k, row in req.quantile_rows}}}
                   if p.in_sample is not None else {})
                | ({"samples": p.samples} if p.samples is not None else {})
                for p in result.predictions
            ]
        for entry, c in zip(answer["predictions"], contributions or []):
            entry["contributions"] = explain.encoded(c) if req.base64_output else explain.plain(c)
        return {
            **answer,
            "warnings": warnings,
            "timing": {
                "queue_ms": round(result.queue_ms, 3),
                "infer_ms": round(result.infer_ms, 3),
                "batch_series": result.batch_series,
                "loaded_ms": round(loaded_ms, 3),
            },
        }

    async def embed_payload(self, body, fields: dict | None = None, flow: str = "", formed: bool = False) -> dict:
        """POST /embed (docs/runtime-protocol.md): the series' encoder embeddings, batched like /infer's forecasts (a batch
        key per model, size and granularity). fields, flow, formed: as infer_payload's."""
        body = json_object(body)
        model, size = resolve_model(body, self.catalog, self.group)
        fields = {} if fields is None else fields
        fields.update(model=model.id, size=size, series=len(body["series"]) if isinstance(body.get("series"), list) else 0)
        self.store.check_servable(model, size)
        req = parse_embed_request(body, model, size)
        adapter, loaded_ms, _ = await self.store.load(model, size)
        if not adapter.supports_embed:
            raise bad_request(f"{model.id} gives no embeddings: its library has no embedding path")
        if req.patches and not adapter.embed_patches:
            raise bad_request(f"'granularity': 'patch': {model.id} gives one embedding per series, none per patch")
        key = BatchKey(model.id, size, 0, (), "", embed="patch" if req.patches else "series")
        self.store.acquire(model.id, size)  # not evicted while this request's batches run
        try:
            result = await self.batcher.submit(key, req.series, flow, formed)
        except BatchFailed as exc:
            raise ProtocolError(500, "inference_failed", f"{model.id} ({size}): {exc}")
        finally:
            self.store.release(model.id, size)
        metrics.QUEUE_WAIT.labels(self.group, model.id, size).observe(result.queue_ms / 1e3)
        metrics.REQUESTS.labels(self.group, model.id, size, "ok").inc()
        timing = {"queue_ms": round(result.queue_ms, 3), "infer_ms": round(result.infer_ms, 3), "batch_series": result.batch_series,
                  "loaded_ms": round(loaded_ms, 3)}
        fields.update(batch_series=result.batch_series, queue_ms=timing["queue_ms"], infer_ms=timing["infer_ms"])
        answer = {
            "model": model.id, "size": size, "dimension": int(result.predictions[0].vector.shape[0]), "patch_size": adapter.embed_patch_size,
            "embeddings": encode_embeddings(result.predictions, req.base64_output), "warnings": [], "timing": timing,
        }
        return answer | ({"dtype": "float32"} if req.base64_output else {})

    async def load_payload(self, body, fields: dict | None = None) -> dict:
        body = json_object(body)
        model, size = resolve_model(body, self.catalog, self.group)
        if fields is not None:
            fields.update(model=model.id, size=size)
        adapter, load_ms, already_loaded = await self.store.load(model, size)
        return {
            "model": model.id,
            "size": size,
            "load_ms": round(load_ms, 3),
            "device": adapter.device,
            "already_loaded": already_loaded,
            "memory_mb": round(self.store.memory_bytes(model.id, size) / 1e6, 3),
        }

    def models_payload(self) -> dict:
        from .private_models import list_private

        self.store.recheck_libraries()
        sizes = {model.id: self.store.servable_sizes(model) for model in self.store.servable}
        servable_adapters = {model.adapter for model in self.store.servable}
        # fine-tuned models on disk whose base adapter this group serves (private_models.py)
        private = [m for m in list_private(self.catalog, self.group) if m.adapter in servable_adapters]
        return {
            "group": self.group,
            "models": [
                {"model": model.id, "sizes": sizes[model.id], "loaded": self.store.loaded_sizes(model.id)}
                for model in self.store.servable
                if sizes[model.id]
            ] + [
                {"model": m.id, "sizes": [m.default_size], "loaded": self.store.loaded_sizes(m.id), "private": True}
                for m in private
            ],
            # library installed, weights not (yet): what `models pull` / auto-pull can make servable
            "missing_weights": [
                {"model": model.id, "sizes": missing}
                for model in self.store.servable
                if (missing := [size for size in model.sizes if size not in sizes[model.id]])
            ],
        }

    def health_payload(self) -> dict:
        loaded = [[model_id, size] for model_id, size in self.store.loaded()]
        return {"status": "ok", "group": self.group, "pid": os.getpid(), "loaded": loaded}

    async def infer(self, request: web.Request) -> web.Response:
        formed = request.headers.get("x-horizon-batch") == "formed"
        return _json(await self.infer_payload(await _json_body(request), request.get(_LOG_FIELDS), request.headers.get("x-horizon-flow", ""), formed))

    async def embed(self, request: web.Request) -> web.Response:
        formed = request.headers.get("x-horizon-batch") == "formed"
        return _json(await self.embed_payload(await _json_body(request), request.get(_LOG_FIELDS), request.headers.get("x-horizon-flow", ""), formed))

    async def load(self, request: web.Request) -> web.Response:
        return _json(await self.load_payload(await _json_body(request), request.get(_LOG_FIELDS)))

    async def models(self, request: web.Request) -> web.Response:
        return _json(self.models_payload())

    async def health(self, request: web.Request) -> web.Response:
        return _json(self.health_payload())

    async def hierarchy_payload(self, operation: str, body) -> dict:
        """POST /hierarchy/aggregate and /hierarchy/reconcile (docs/runtime-protocol.md "Hierarchies"): hierarchicalforecast's
        pandas and numpy work, in the executor like the predictions, so the event loop keeps answering."""
        work = aggregate_payload if operation == "aggregate" else reconcile_payload
        return await asyncio.get_running_loop().run_in_executor(self.executor, work, json_object(body))

    async def hierarchy(self, request: web.Request) -> web.Response:
        return _json(await self.hierarchy_payload(request.match_info["operation"], await _json_body(request)))

    async def metrics(self, request: web.Request) -> web.Response:
        return web.Response(body=metrics.exposition(), headers={"content-type": metrics.CONTENT_TYPE})

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self._request_line, self._protocol_errors], client_max_size=MAX_BODY_BYTES)
        app.router.add_get("/metrics", self.metrics)
        app.router.add_post("/infer", self.infer)
        app.router.add_post("/embed", self.embed)
        app.router.add_post("/load", self.load)
        app.router.add_get("/models", self.models)
        app.router.add_get("/health", self.health)
        app.router.add_post("/hierarchy/{operation:aggregate|reconcile}", self.hierarchy)
        return app
