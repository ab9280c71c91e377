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

A batch that may be stopped (its callers gone, cancel.py; every batch of the worker's micro-batcher) hands a
chunk over only when a process is free for it (none waits in the pool's queue, where it could not be withdrawn),
each sized to about STOP_CHUNK_S of fitting (a slow fit goes alone, cheap ones in chunks as large as above), and
hands none over once it is stopped: what still runs then is at most one such chunk per process.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Callable, Sequence, TypeVar

from .cancel import BatchStopped, current_stop
from .orphan_guard import exit_with

log = logging.getLogger(__name__)

T = TypeVar("T")
R = TypeVar("R")

# imported by the forkserver once, so each child starts with it (statsforecast and its C++ library)
PRELOAD = ["horizon_runtime.adapters.statistical"]
# chunks per process: smaller chunks balance uneven series (one long seasonal fit among short ones)
CHUNKS_PER_WORKER = 4
# how often a stoppable batch looks at its stop event while its chunks run, and the seconds of fitting its
# chunks aim at: about what may still run in each process once it is stopped
STOP_POLL_S = 0.05
STOP_CHUNK_S = 0.25


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
        # one per process: a stoppable batch's chunk is handed over only when a process is free for it
        self._slots = threading.Semaphore(workers)

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
        stop = current_stop()
        try:
            if stop is not None:
                return self._map_stoppable(executor, fn, items, stop)
            futures: list[Future] = [executor.submit(fn, chunk) for chunk in chunks]
            out: list[R] = []
            for future in futures:
                out.extend(future.result())
            return out
        except BrokenProcessPool:
            log.error("a CPU pool process died; the pool is replaced for the next call")
            self._discard(executor)
            raise

    def _map_stoppable(self, executor: ProcessPoolExecutor, fn: Callable[[Sequence[T]], list[R]],
                       items: Sequence[T], stop: threading.Event) -> list[R]:
        """map_chunks with a chunk handed over only when a process is free for it (the pool's slots, shared by
        the batches running side by side: none waits in the pool's queue), each sized to about STOP_CHUNK_S of
        fitting (timed on the chunks before it; the first is one series, none larger than map_chunks' own).
        Once `stop` is set no further chunk is handed over, the ones in the processes finish, and BatchStopped
        says how many series were never fitted."""
        largest = max(1, -(-len(items) // (self.workers * CHUNKS_PER_WORKER)))
        per_series: float | None = None  # seconds, from the last chunk that finished
        results: dict[int, list[R]] = {}  # by the chunk's first item
        running: dict[Future, tuple[int, int, float]] = {}  # first item, count, handed over at
        following = 0
        while True:
            while following < len(items) and len(running) < self.workers and not stop.is_set():
                # a free process, or (none of this batch's chunks running) a short wait for one
                if not self._slots.acquire(timeout=STOP_POLL_S if not running else 0):
                    break
                count = 1 if per_series is None else max(1, min(largest, int(STOP_CHUNK_S / max(per_series, 1e-6))))
                chunk = items[following : following + count]
                try:
                    future = executor.submit(fn, chunk)
                except BaseException:
                    self._slots.release()
                    raise
                future.add_done_callback(self._free_slot)
                running[future] = (following, len(chunk), time.perf_counter())
                following += len(chunk)
            if not running:
                if following >= len(items) or stop.is_set():
                    break
                continue  # every process busy with other batches' chunks: wait again
            # woken by a finished chunk, or every STOP_POLL_S to look at the stop event
            done, _ = wait(running, timeout=STOP_POLL_S, return_when=FIRST_COMPLETED)
            for future in done:
                first, count, handed = running.pop(future)
                results[first] = future.result()
                per_series = (time.perf_counter() - handed) / count
        fitted = sum(len(r) for r in results.values())
        if fitted < len(items):
            raise BatchStopped(len(items) - fitted)
        return [one for first in sorted(results) for one in results[first]]

    def _free_slot(self, _future: Future) -> None:
        self._slots.release()

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
