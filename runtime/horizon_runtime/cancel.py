"""Stopping a running batch whose callers have all gone (issue 33).

A caller goes when its /infer connection closes (the control plane aborts the call once its own client has
disconnected): aiohttp cancels the handler, and the micro-batcher drops the call's series still waiting
(batcher.py). A batch already predicting runs in a thread and cannot be interrupted, but the statistical
adapters fit it in chunks in the CPU pool (cpu_pool.py): when every request with series in the batch has
gone, the batcher sets the batch's stop event, and the pool starts no further chunk; the chunks already in
its processes finish (a process cannot be interrupted mid-fit), and the batch ends with BatchStopped.

The event reaches the pool through a context variable that the batcher sets around the predict call in its
thread, so the adapters' predict_batch signature stays as it is.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator


class BatchStopped(Exception):
    """A batch stopped before all its series were fitted: every caller with series in it had gone."""

    def __init__(self, unfitted: int):
        super().__init__(f"stopped: its callers have gone ({unfitted} series not fitted)")
        self.unfitted = unfitted


_stop: ContextVar[threading.Event | None] = ContextVar("horizon_batch_stop", default=None)


def current_stop() -> threading.Event | None:
    """The stop event of the batch predicting in this thread (None outside a batcher's batch)."""
    return _stop.get()


@contextmanager
def stoppable(event: threading.Event) -> Iterator[None]:
    """Runs the enclosed predict call with `event` as its batch's stop event."""
    token = _stop.set(event)
    try:
        yield
    finally:
        _stop.reset(token)
