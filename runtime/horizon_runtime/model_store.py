"""The models this worker serves: which catalog ids and sizes it can serve, and their loaded adapters.

An id is servable when its adapter's library is importable; a size of an adapter that loads a
checkpoint, when weights.find_weights finds one (path checks only, so this runs on every call).

Loaded models are kept in least-recently-used order within a memory budget
(HORIZON_MODEL_MEMORY_MB, default half the machine's memory): after a load, the least recently used
models that no request is using are dropped until the loaded ones fit (the newest always stays). A
model's size is what its torch modules hold (parameters and buffers), else the process' resident
memory growth while it loaded; models without weights count as nothing.
"""

from __future__ import annotations

import asyncio
import gc
import importlib
import logging
import os
import time
from collections import OrderedDict
from concurrent.futures import Executor
from functools import partial

from . import metrics
from .adapters.base import Adapter
from .catalog import Catalog, CatalogModel
from .protocol import ProtocolError
from .registry import adapter_class, unavailable_reason, weights_layout
from .weights import find_weights, weights_directory

log = logging.getLogger(__name__)


def default_memory_budget() -> int:
    """Half the machine's physical memory, in bytes."""
    return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2


def _resident_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def torch_module_bytes(root: object, depth: int = 4) -> int:
    """Bytes of the parameters and buffers of the torch modules reachable from `root` through object
    attributes (adapters hold a pipeline that holds the model), each tensor storage counted once."""
    try:
        import torch
    except ImportError:
        return 0
    seen_objects: set[int] = set()
    storages: dict[int, int] = {}

    def walk(obj: object, level: int) -> None:
        if id(obj) in seen_objects or level > depth:
            return
        seen_objects.add(id(obj))
        if isinstance(obj, torch.nn.Module):
            for tensor in list(obj.parameters()) + list(obj.buffers()):
                storage = tensor.untyped_storage()
                storages[storage.data_ptr()] = storage.nbytes()
            return
        children = vars(obj).values() if hasattr(obj, "__dict__") else ()
        if isinstance(obj, (list, tuple)):
            children = obj
        elif isinstance(obj, dict):
            children = obj.values()
        for child in children:
            if not isinstance(child, (str, bytes, int, float, bool, type(None))):
                walk(child, level + 1)

    walk(root, 0)
    return sum(storages.values())


class ModelStore:
    def __init__(self, catalog: Catalog, group: str, executor: Executor, memory_budget: int | None = None):
        self._catalog = catalog
        self._executor = executor
        self.group = group
        self._group_models = [model for model in catalog.models.values() if model.group == group]
        self._unavailable = {model.id: unavailable_reason(model.adapter) for model in self._group_models}
        self.servable = [model for model in self._group_models if self._unavailable[model.id] is None]
        self.memory_budget = default_memory_budget() if memory_budget is None else memory_budget
        self._adapters: OrderedDict[tuple[str, str], Adapter] = OrderedDict()  # least recently used first
        self._bytes: dict[tuple[str, str], int] = {}
        self._in_use: dict[tuple[str, str], int] = {}
        self._loading: dict[tuple[str, str], asyncio.Future] = {}

    def recheck_libraries(self) -> None:
        """Looks again for the libraries of the models not servable yet: scripts/run.sh starts the worker
        once the statistical models' libraries are in the venv and installs the foundation models' ones
        while it serves (runtime/setup.sh --first). Only finds, never imports: cheap enough for every GET /models."""
        if len(self.servable) == len(self._group_models):
            return
        importlib.invalidate_caches()  # a package unpacked since the last look is seen
        self._unavailable = {model.id: unavailable_reason(model.adapter) for model in self._group_models}
        self.servable = [model for model in self._group_models if self._unavailable[model.id] is None]

    def loaded(self) -> list[tuple[str, str]]:
        return list(self._adapters)

    def loaded_with_bytes(self) -> list[tuple[str, str, int]]:
        return [(model_id, size, self._bytes.get((model_id, size), 0)) for model_id, size in self._adapters]

    def memory_bytes(self, model_id: str, size: str) -> int:
        return self._bytes.get((model_id, size), 0)

    def acquire(self, model_id: str, size: str) -> None:
        """Marks a loaded model as used by a request until `release`: it is not evicted meanwhile."""
        self._in_use[(model_id, size)] = self._in_use.get((model_id, size), 0) + 1

    def release(self, model_id: str, size: str) -> None:
        key = (model_id, size)
        self._in_use[key] -= 1
        if not self._in_use[key]:
            del self._in_use[key]

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
        return [size for size, caps in model.sizes.items() if find_weights(model.id, size, caps.checkpoint, layout, caps.revision).directory]

    def check_servable(self, model: CatalogModel, size: str) -> None:
        """409 model_unavailable without the library, 424 weights_missing without the weights."""
        reason = self._unavailable.get(model.id)
        if reason is not None:
            raise ProtocolError(409, "model_unavailable", f"model '{model.id}': {reason}")
        layout = weights_layout(model.adapter)
        if layout is not None and (model.id, size) not in self._adapters:
            weights_directory(model.id, size, model.sizes[size].checkpoint, layout, model.sizes[size].revision)

    async def load(self, model: CatalogModel, size: str) -> tuple[Adapter, float, bool]:
        """The loaded adapter, the milliseconds this call waited for loading, and whether it was loaded
        before the call. Concurrent calls share one load; a failed load is retried by the next call."""
        key = (model.id, size)
        adapter = self._adapters.get(key)
        if adapter is not None:
            self._adapters.move_to_end(key)
            return adapter, 0.0, True
        self.check_servable(model, size)
        started = time.perf_counter()
        loading = self._loading.get(key)
        if loading is None:
            loading = asyncio.get_running_loop().run_in_executor(self._executor, self._load_blocking, model, size)
            self._loading[key] = loading
            loading.add_done_callback(partial(self._loaded, key))
        adapter, _ = await asyncio.shield(loading)
        return adapter, (time.perf_counter() - started) * 1e3, False

    def _loaded(self, key: tuple[str, str], loading: asyncio.Future) -> None:
        del self._loading[key]
        if not loading.cancelled() and loading.exception() is None:
            adapter, size_bytes = loading.result()
            self._adapters[key] = adapter
            self._bytes[key] = size_bytes
            self._evict(keep=key)

    def _evict(self, keep: tuple[str, str]) -> None:
        """Drops least recently used models, except `keep` and those in use, until the rest fit the budget."""
        evicted = False
        for key in list(self._adapters):
            if sum(self._bytes.values()) <= self.memory_budget:
                break
            if key == keep or key in self._in_use or not self._bytes.get(key):
                continue
            del self._adapters[key]
            evicted = True
            freed = self._bytes.pop(key)
            log.info(
                "unloaded %s/%s (%.1f MB, least recently used) to stay within the model memory budget of %.1f MB",
                key[0], key[1], freed / 1e6, self.memory_budget / 1e6,
            )
        if not evicted:
            return
        gc.unfreeze()  # frozen objects (see _load_blocking) are never collected: thaw, collect, freeze again
        gc.collect()
        gc.freeze()
        try:
            import torch

            if torch.cuda.is_available():
                torch.cuda.empty_cache()
        except ImportError:
            pass

    def _load_blocking(self, model: CatalogModel, size: str) -> tuple[Adapter, int]:
        started = time.perf_counter()
        resident = _resident_bytes()
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
        # Everything loaded so far (libraries, weights) goes to the permanent generation: some libraries
        # call gc.collect() on every prediction (timesfm3 does), which otherwise walks all of it while
        # holding the GIL (~0.6 s per call with the worker's imports, ~0.04 s frozen).
        gc.collect()
        gc.freeze()
        size_bytes = 0
        if weights_layout(model.adapter) is not None:
            size_bytes = torch_module_bytes(adapter) or max(_resident_bytes() - resident, 0)
        load_s = time.perf_counter() - started
        metrics.LOAD.labels(self.group, model.id, size).observe(load_s)
        log.info(
            "loaded %s/%s on %s in %.0f ms (%.1f MB)",
            model.id, size, adapter.device, load_s * 1e3, size_bytes / 1e6,
            extra={"fields": {"model": model.id, "size": size, "load_ms": round(load_s * 1e3, 3), "memory_bytes": size_bytes}},
        )
        return adapter, size_bytes
