"""The models this worker serves: which catalog ids and sizes it can serve, and their loaded adapters.

An id is servable when its adapter's library is importable; a size of an adapter that loads a
checkpoint, when weights.find_weights finds one (path checks only, so this runs on every call).
"""

from __future__ import annotations

import asyncio
import logging
import time
from concurrent.futures import Executor
from functools import partial

from .adapters.base import Adapter
from .catalog import Catalog, CatalogModel
from .protocol import ProtocolError
from .registry import adapter_class, unavailable_reason, weights_layout
from .weights import find_weights, weights_directory

log = logging.getLogger(__name__)


class ModelStore:
    def __init__(self, catalog: Catalog, group: str, executor: Executor):
        self._catalog = catalog
        self._executor = executor
        group_models = [model for model in catalog.models.values() if model.group == group]
        self._unavailable = {model.id: unavailable_reason(model.adapter) for model in group_models}
        self.servable = [model for model in group_models if self._unavailable[model.id] is None]
        self._adapters: dict[tuple[str, str], Adapter] = {}
        self._loading: dict[tuple[str, str], asyncio.Future] = {}

    def loaded(self) -> list[tuple[str, str]]:
        return list(self._adapters)

    def loaded_sizes(self, model_id: str) -> list[str]:
        return [size for loaded_id, size in self._adapters if loaded_id == model_id]

    def adapter(self, model_id: str, size: str) -> Adapter:
        """The adapter of a loaded model (the batcher's predict runs only after `load`)."""
        return self._adapters[(model_id, size)]

    def servable_sizes(self, model: CatalogModel) -> list[str]:
        """The sizes of a servable model that have weights here (all of them for models without weights)."""
        layout = weights_layout(model.adapter)
        if layout is None:
            return list(model.sizes)
        return [size for size, caps in model.sizes.items() if find_weights(model.id, size, caps.checkpoint, layout).directory]

    def check_servable(self, model: CatalogModel, size: str) -> None:
        """409 model_unavailable without the library, 424 weights_missing without the weights."""
        reason = self._unavailable.get(model.id)
        if reason is not None:
            raise ProtocolError(409, "model_unavailable", f"model '{model.id}': {reason}")
        layout = weights_layout(model.adapter)
        if layout is not None and (model.id, size) not in self._adapters:
            weights_directory(model.id, size, model.sizes[size].checkpoint, layout)

    async def load(self, model: CatalogModel, size: str) -> tuple[Adapter, float, bool]:
        """The loaded adapter, the milliseconds this call waited for loading, and whether it was loaded
        before the call. Concurrent calls share one load; a failed load is retried by the next call."""
        key = (model.id, size)
        adapter = self._adapters.get(key)
        if adapter is not None:
            return adapter, 0.0, True
        self.check_servable(model, size)
        started = time.perf_counter()
        loading = self._loading.get(key)
        if loading is None:
            loading = asyncio.get_running_loop().run_in_executor(self._executor, self._load_blocking, model, size)
            self._loading[key] = loading
            loading.add_done_callback(partial(self._loaded, key))
        adapter = await asyncio.shield(loading)
        return adapter, (time.perf_counter() - started) * 1e3, False

    def _loaded(self, key: tuple[str, str], loading: asyncio.Future) -> None:
        del self._loading[key]
        if not loading.cancelled() and loading.exception() is None:
            self._adapters[key] = loading.result()

    def _load_blocking(self, model: CatalogModel, size: str) -> Adapter:
        started = time.perf_counter()
        try:
            adapter = adapter_class(model.adapter)(model, size, self._catalog)
        except ImportError as exc:
            raise ProtocolError(409, "model_unavailable", f"model '{model.id}': importing its adapter failed: {exc}")
        try:
            adapter.load()
        except ProtocolError:
            raise
        except Exception as exc:
            raise ProtocolError(
                500, "inference_failed", f"loading '{model.id}' size '{size}' failed: {type(exc).__name__}: {exc}"
            )
        log.info("loaded %s/%s on %s in %.0f ms", model.id, size, adapter.device, (time.perf_counter() - started) * 1e3)
        return adapter
