"""The CPU pool's processes (forkserver, pool children, resource tracker) exit with their worker, however
it dies (issue 24): real workers, real signals, real processes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .conftest import RUNTIME_DIR, Worker, start_worker, stop_worker
from .helpers import infer_body, seasonal_series

EXIT_WITHIN_S = 10


def _series(count: int) -> list[dict]:
    return [{"target": seasonal_series(40 + 3 * i, 12, seed=i)} for i in range(count)]


def _forecast(worker: Worker) -> tuple[int, dict]:
    return worker.infer(**infer_body("auto-ets", freq="MS", horizon=6, series=_series(8)))


def _children(pid: int) -> list[int]:
    out: list[int] = []
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            out += [int(child) for child in Path(f"/proc/{pid}/task/{task}/children").read_text().split()]
    except (FileNotFoundError, ProcessLookupError):
        pass
    return out


def _descendants(pid: int) -> list[int]:
    out = []
    for child in _children(pid):
        out += [child, *_descendants(child)]
    return out


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " ")
    except (FileNotFoundError, ProcessLookupError):
        return ""


def _running(pid: int) -> bool:
    """Whether pid is alive and not a zombie (init reaps an orphan's zombie in its own time)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError):
        return False


def _pool_processes(worker: Worker) -> dict[str, list[int]]:
    """The worker's forkserver, pool children and resource tracker, each asserted to exist."""
    forkservers = [p for p in _children(worker.process.pid) if "multiprocessing.forkserver" in _cmdline(p)]
    trackers = [p for p in _children(worker.process.pid) if "multiprocessing.resource_tracker" in _cmdline(p)]
    assert len(forkservers) == 1 and len(trackers) == 1, {p: _cmdline(p) for p in _descendants(worker.process.pid)}
    children = _descendants(forkservers[0])
    assert children, "the pool has no process"
    return {"forkserver": forkservers, "pool children": children, "resource tracker": trackers}


def _assert_all_exit(processes: dict[str, list[int]]) -> None:
    pids = [pid for group in processes.values() for pid in group]
    deadline = time.monotonic() + EXIT_WITHIN_S
    try:
        while any(_running(pid) for pid in pids):
            if time.monotonic() > deadline:
                survivors = {name: [p for p in group if _running(p)] for name, group in processes.items()}
                raise AssertionError(f"still running {EXIT_WITHIN_S} s after their worker died: {survivors}")
            time.sleep(0.1)
    finally:  # a failure must not leave orphans behind on this machine
        for pid in pids:
            if _running(pid) and "multiprocessing" in _cmdline(pid):
                os.kill(pid, signal.SIGKILL)


def test_pool_processes_exit_when_their_worker_is_killed():
    worker = start_worker(HORIZON_CPU_WORKERS="2")
    try:
        status, body = _forecast(worker)
        assert status == 200, body
        processes = _pool_processes(worker)
    except BaseException:
        worker.process.kill()
        raise
    worker.process.send_signal(signal.SIGKILL)
    worker.process.wait(10)
    _assert_all_exit(processes)


def test_a_replaced_broken_pool_exits_with_its_worker_too():
    worker = start_worker(HORIZON_CPU_WORKERS="2")
    try:
        assert _forecast(worker)[0] == 200
        first = _pool_processes(worker)
        os.kill(first["pool children"][0], signal.SIGKILL)  # breaks the pool (the OOM killer, say)
        deadline = time.monotonic() + 30
        while (answer := _forecast(worker))[0] != 200:  # the call that sees the broken pool fails, the next works
            assert answer[0] == 500 and answer[1]["error"]["code"] == "inference_failed", answer
            assert time.monotonic() < deadline, "the broken pool was not replaced"
        assert "the pool is replaced for the next call" in worker.stderr()
        second = _pool_processes(worker)
        assert second["forkserver"] == first["forkserver"]  # the new pool's children come from the same one
        assert set(second["pool children"]) - set(first["pool children"]), "no new pool process"
    except BaseException:
        worker.process.kill()
        raise
    worker.process.send_signal(signal.SIGKILL)
    worker.process.wait(10)
    _assert_all_exit({**second, "old pool children": first["pool children"]})


def test_pool_processes_exit_when_their_worker_stops_normally():
    worker = start_worker(HORIZON_CPU_WORKERS="2")
    try:
        assert _forecast(worker)[0] == 200
        processes = _pool_processes(worker)
    except BaseException:
        worker.process.kill()
        raise
    assert stop_worker(worker) == 0
    _assert_all_exit(processes)


@pytest.mark.parametrize("pidfd", [True, False], ids=["pidfd", "polling"])
def test_the_guard_ends_its_process_when_the_owner_exits(pidfd):
    owner = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    drop = "" if pidfd else "del os.pidfd_open; "  # as on a system without pidfd_open
    guarded = subprocess.Popen(
        [sys.executable, "-c", f"import os, sys, time; {drop}from horizon_runtime.orphan_guard import exit_with; "
         f"exit_with({owner.pid}); print('up', flush=True); time.sleep(60)"],
        env={**os.environ, "PYTHONPATH": str(RUNTIME_DIR)}, stdout=subprocess.PIPE, text=True,
    )
    try:
        assert guarded.stdout.readline() == "up\n"
        time.sleep(0.5)
        assert guarded.poll() is None, "the guard ended its process while the owner lives"
        owner.kill()
        owner.wait()
        assert guarded.wait(EXIT_WITHIN_S) == 0
    finally:
        owner.kill()
        guarded.kill()
