"""Ends a pool process once the worker that owns it has exited, however it exited (issue 24).

A CPU pool child (cpu_pool.py) is forked by the multiprocessing forkserver, so it is not the worker's
child and dies with nothing when the worker is killed with SIGKILL: it blocks for ever on the pool's
call queue, whose pipe never reaches EOF because every child holds the queue's write end too. The
children also hold the forkserver's "alive" pipe and the resource tracker's pipe, so those two (which
exit on EOF of their pipe) survive as well. `exit_with` runs in each child as the pool's initializer:
a daemon thread waits for the owner to exit and ends the child with os._exit(0); the forkserver and the
resource tracker then see EOF and exit by themselves.
"""

from __future__ import annotations

import os
import select
import threading
import time

POLL_S = 1.0  # where pidfd_open is missing: how often the owner is probed


def exit_with(owner_pid: int) -> None:
    """Starts a daemon thread that ends this process (os._exit(0)) once process owner_pid has exited."""
    try:
        pidfd: int | None = os.pidfd_open(owner_pid)
    except ProcessLookupError:  # the owner is already gone
        os._exit(0)
    except (AttributeError, OSError):  # no pidfd_open (Python on another OS, Linux before 5.3): poll
        pidfd = None
    threading.Thread(target=_watch, args=(owner_pid, pidfd), name="horizon-orphan-guard", daemon=True).start()


def _watch(owner_pid: int, pidfd: int | None) -> None:
    if pidfd is not None:
        select.select([pidfd], [], [])  # a pidfd becomes readable when its process exits
    else:
        while _alive(owner_pid):
            time.sleep(POLL_S)
    # This thread needs the GIL for the call below, so a child whose main thread is in C code that holds
    # the GIL exits when that call returns. os._exit, not sys.exit: no clean-up that could wait on the
    # main thread (a fit that is running, a queue lock it holds); the results would go to the owner, which
    # is gone.
    os._exit(0)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, another user's (the pid was reused, so the owner is gone)
        return False
    return True  # a zombie owner counts as alive until its parent reaps it
