"""A process pool for CPU-bound model fits (the statistical adapters): every core, not one GIL.

Sized by HORIZON_CPU_WORKERS (default: the cores this process may run on; 1 = no pool, fits run in the
calling thread). The processes come from a forkserver that has imported the statistical module before
any torch model or thread exists in the worker, so a child never inherits a lock held by another thread
(plain fork of a threaded worker can deadlock) and starts with statsforecast already imported. The
children run the very function the worker would run in-process, on the same float64 inputs, so the
answers are the same bit for bit (runtime/tests/test_cpu_pool.py).

A broken pool (a child killed by the OOM killer, say) is replaced on the next call; the call that saw it
fails with BrokenProcessPool, which fails exactly the batch that was running (batcher.py).

Every process of the pool exits soon (about a second) after the worker that owns it, however the worker
dies (SIGKILL, the OOM killer, a killed Ray Serve replica): each child watches the owner's pid from a
thread (orphan_guard.py, the pool's initializer) and exits when it has gone; once no child is left, the
forkserver and the resource tracker see their pipes close and exit by themselves (issue 24).
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Callable, Sequence, TypeVar

from .orphan_guard import exit_with

log = logging.getLogger(__name__)

T = TypeVar("T")
R = TypeVar("R")

# imported by the forkserver once, so each child starts with it (statsforecast and its C++ library)
PRELOAD = ["horizon_runtime.adapters.statistical"]
# chunks per process: smaller chunks balance uneven series (one long seasonal fit among short ones)
CHUNKS_PER_WORKER = 4


def cpu_workers() -> int:
    raw = os.environ.get("HORIZON_CPU_WORKERS", "")
    if raw.strip():
        try:
            value = int(raw)
        except ValueError:
            value = 0
        if value < 1:
            raise ValueError(f"HORIZON_CPU_WORKERS must be an integer >= 1, got {raw!r}")
        return value
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


class CpuPool:
    def __init__(self, workers: int):
        self.workers = workers
        self._executor: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()

    def _pool(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._executor is None:
                context = multiprocessing.get_context("forkserver")
                context.set_forkserver_preload(PRELOAD)
                # The children are the forkserver's, not this process's: without the guard they would
                # outlive a killed worker, and keep the forkserver and the resource tracker alive too.
                self._executor = ProcessPoolExecutor(
                    max_workers=self.workers, mp_context=context, initializer=exit_with, initargs=(os.getpid(),))
            return self._executor

    def _discard(self, executor: ProcessPoolExecutor) -> None:
        with self._lock:
            if self._executor is executor:
                self._executor = None
        executor.shutdown(wait=False, cancel_futures=True)

    def map_chunks(self, fn: Callable[[Sequence[T]], list[R]], items: Sequence[T]) -> list[R]:
        """fn over contiguous chunks of items, in the pool; the results concatenated in items' order."""
        chunks = split(items, self.workers * CHUNKS_PER_WORKER)
        executor = self._pool()
        try:
            futures: list[Future] = [executor.submit(fn, chunk) for chunk in chunks]
            out: list[R] = []
            for future in futures:
                out.extend(future.result())
            return out
        except BrokenProcessPool:
            log.error("a CPU pool process died; the pool is replaced for the next call")
            self._discard(executor)
            raise

    def shutdown(self) -> None:
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)


def split(items: Sequence[T], parts: int) -> list[Sequence[T]]:
    """At most `parts` contiguous, non-empty chunks of nearly equal size."""
    parts = max(1, min(parts, len(items)))
    size, extra = divmod(len(items), parts)
    chunks, start = [], 0
    for index in range(parts):
        end = start + size + (1 if index < extra else 0)
        chunks.append(items[start:end])
        start = end
    return chunks


_shared: CpuPool | None = None
_shared_lock = threading.Lock()


def shared_pool() -> CpuPool | None:
    """The worker's one pool, or None when HORIZON_CPU_WORKERS is 1 (fits run in the calling thread)."""
    global _shared
    with _shared_lock:
        if _shared is None:
            workers = cpu_workers()
            if workers <= 1:
                return None
            _shared = CpuPool(workers)
        return _shared


def shutdown_shared_pool() -> None:
    global _shared
    with _shared_lock:
        pool, _shared = _shared, None
    if pool is not None:
        pool.shutdown()
