"""Starts a worker: python -m horizon_runtime --group core --host 127.0.0.1 --port 0 --catalog PATH.

Prints `READY {"port": N, "pid": P, "group": G}` on stdout once listening; logs go to stderr.
SIGTERM (or SIGINT) stops accepting, lets in-flight requests finish for up to HORIZON_SHUTDOWN_GRACE_S
seconds (default 10), then exits 0. The worker shuts down the same way when the process that started it
dies, so a killed control plane leaves no worker behind.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import signal
from concurrent.futures import ThreadPoolExecutor

from aiohttp import web

from . import logs
from .catalog import DEFAULT_CATALOG_PATH, load_catalog
from .cpu_pool import shutdown_shared_pool
from .server import Worker

log = logging.getLogger("horizon_runtime")

# Predictions run here, off the event loop. More than one thread so that a slow batch (auto-arima on
# long seasonal series takes seconds) does not hold up the batches of other models.
PREDICT_THREADS = 4


def _env_number(name: str, default: float, minimum: float, kind: type) -> float:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = kind(raw)
    except ValueError:
        value = None
    if value is None or value < minimum:
        raise SystemExit(f"{name} must be a {kind.__name__} >= {minimum}, got {raw!r}")
    return value


async def _stop_when_orphaned(parent_pid: int, stop: asyncio.Event) -> None:
    while not stop.is_set():
        await asyncio.sleep(1.0)
        if os.getppid() != parent_pid:
            log.warning("parent process %d is gone", parent_pid)
            stop.set()


async def serve(args: argparse.Namespace, parent_pid: int) -> bool:
    """Runs until SIGTERM/SIGINT or the parent's death; returns whether predictions were still running
    when the grace period ended."""
    max_series = _env_number("HORIZON_BATCH_MAX_SERIES", 256, 1, int)
    max_wait_ms = _env_number("HORIZON_BATCH_MAX_WAIT_MS", 2.0, 0.0, float)
    grace_s = _env_number("HORIZON_SHUTDOWN_GRACE_S", 10.0, 0.0, float)
    budget_mb = _env_number("HORIZON_MODEL_MEMORY_MB", 0.0, 0.0, float)  # 0: half the machine's memory
    one_at_a_time = _env_number("HORIZON_BATCH_ONE_AT_A_TIME", 1, 0, int) != 0  # 0: batches of a model side by side
    executor = ThreadPoolExecutor(max_workers=PREDICT_THREADS, thread_name_prefix="predict")
    worker = Worker(
        load_catalog(args.catalog), args.group, executor, max_series, max_wait_ms / 1e3,
        int(budget_mb * 1e6) if budget_mb else None, one_at_a_time,
    )

    # handler_cancellation: a closed connection cancels its handler, so an /infer call whose caller has gone drops
    # its series still waiting (batcher.py, docs/runtime-protocol.md "Cancellation")
    runner = web.AppRunner(worker.app(), access_log=None, handle_signals=False, shutdown_timeout=grace_s, handler_cancellation=True)
    await runner.setup()
    await web.TCPSite(runner, args.host, args.port).start()
    port = runner.addresses[0][1]

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    orphan_watch = asyncio.create_task(_stop_when_orphaned(parent_pid, stop))

    log.info(
        "group %s listening on %s:%d (models: %s; batches of up to %d series within %g ms)",
        args.group, args.host, port,
        ", ".join(m.id for m in worker.store.servable if worker.store.servable_sizes(m)) or "none", max_series, max_wait_ms,
    )
    print("READY " + json.dumps({"port": port, "pid": os.getpid(), "group": args.group}), flush=True)

    await stop.wait()
    orphan_watch.cancel()
    log.info("shutting down: finishing in-flight requests (at most %g s)", grace_s)
    worker.shutting_down = True
    try:
        # aiohttp waits shutdown_timeout for in-flight handlers, then cancels them and waits as long
        # again for a handler stuck on a prediction; the grace period is bounded here as a whole.
        await asyncio.wait_for(runner.cleanup(), grace_s)
    except asyncio.TimeoutError:
        log.warning("grace period of %g s over with requests still in flight", grace_s)
    still_running = worker.batcher.busy
    executor.shutdown(wait=not still_running, cancel_futures=True)
    shutdown_shared_pool()  # the statistical fits' processes (cpu_pool.py)
    return still_running


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m horizon_runtime", description=__doc__.splitlines()[0])
    parser.add_argument("--group", required=True, help="runtime group to serve (catalog 'group')")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port, printed on the READY line")
    parser.add_argument("--catalog", default=str(DEFAULT_CATALOG_PATH), help="path of catalog/models.json")
    parent_pid = os.getppid()  # before anything slow, so that an early death of the parent is seen
    args = parser.parse_args()
    # at the control plane's level: at warn, no request line is written here only to be dropped there
    logs.configure(args.group, logs.level_from_env(os.environ.get("HORIZON_LOG_LEVEL")))
    abandoned = asyncio.run(serve(args, parent_pid))
    if abandoned:
        # A prediction thread cannot be interrupted; exit without joining it, as the grace period is over.
        log.warning("exiting with predictions still running")
        logging.shutdown()
        os._exit(0)


if __name__ == "__main__":
    main()
