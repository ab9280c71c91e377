"""Fixtures that run the real worker (python -m horizon_runtime) as a subprocess and talk HTTP to it."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

RUNTIME_DIR = Path(__file__).resolve().parents[1]
REPO_ROOT = RUNTIME_DIR.parent
CATALOG = REPO_ROOT / "catalog" / "models.json"
READY_TIMEOUT_S = 60
# Workers look for weights in the Hugging Face cache too; an empty one keeps what they find to what a
# test gives them, whatever this machine has downloaded.
EMPTY_HF_CACHE = tempfile.TemporaryDirectory(prefix="horizon-empty-hf-cache-")  # removed at exit


@dataclass
class Worker:
    process: subprocess.Popen
    port: int
    ready: dict
    stderr_path: str

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def call(self, method: str, path: str, body=None, raw: bytes | None = None, timeout: float = 120):
        """(status, decoded JSON body) of one HTTP request."""
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    def infer(self, **body):
        return self.call("POST", "/infer", body)

    def stderr(self) -> str:
        return Path(self.stderr_path).read_text()


def start_worker(catalog: Path = CATALOG, **env: str) -> Worker:
    stderr = tempfile.NamedTemporaryFile("w+", prefix="horizon-worker-", suffix=".log", delete=False)
    process = subprocess.Popen(
        [sys.executable, "-m", "horizon_runtime", "--group", "core", "--host", "127.0.0.1", "--port", "0",
         "--catalog", str(catalog)],
        cwd=REPO_ROOT,  # where the control plane starts it
        env={**os.environ, "PYTHONPATH": str(RUNTIME_DIR), "HF_HUB_CACHE": EMPTY_HF_CACHE.name, **env},
        stdout=subprocess.PIPE,
        stderr=stderr,
        text=True,
    )
    deadline = time.monotonic() + READY_TIMEOUT_S
    line = ""
    while not line:
        left = deadline - time.monotonic()
        if left <= 0 or process.poll() is not None:
            process.kill()
            raise RuntimeError(f"worker gave no READY line; stderr:\n{Path(stderr.name).read_text()}")
        if select.select([process.stdout], [], [], min(left, 0.5))[0]:
            line = process.stdout.readline()
    assert line.startswith("READY "), line
    ready = json.loads(line[len("READY "):])
    return Worker(process, ready["port"], ready, stderr.name)


def stop_worker(worker: Worker, timeout: float = 30) -> int:
    if worker.process.poll() is None:
        worker.process.send_signal(signal.SIGTERM)
    try:
        return worker.process.wait(timeout)
    except subprocess.TimeoutExpired:
        worker.process.kill()
        raise


@pytest.fixture(scope="session")
def worker():
    """A worker with the default batching settings, shared by the whole session."""
    started = start_worker()
    yield started
    stop_worker(started)


@pytest.fixture(scope="session")
def chronos_weights(tmp_path_factory) -> Path:
    """Tiny random-weight checkpoints of every Chronos size, as HORIZON_MODEL_DIR."""
    from .fixtures import write_fixtures

    root = tmp_path_factory.mktemp("weights")
    write_fixtures(root)
    return root


@pytest.fixture(scope="session")
def chronos_worker(chronos_weights):
    """A worker with all Chronos fixture weights and a batching window long enough that concurrent
    requests share batches."""
    started = start_worker(HORIZON_MODEL_DIR=str(chronos_weights), HORIZON_BATCH_MAX_WAIT_MS="200", HORIZON_DEVICE="cpu")
    yield started
    stop_worker(started)


@pytest.fixture(scope="session")
def batching_worker():
    """A worker with a long batching window and small batches, so that concurrent requests reliably
    share batches and a request spans several of them."""
    started = start_worker(HORIZON_BATCH_MAX_WAIT_MS="300", HORIZON_BATCH_MAX_SERIES="8")
    yield started
    stop_worker(started)


def write_model_weights(tmp_path_factory, models) -> Path:
    """Tiny checkpoints of `models` (tests.fixtures) in a fresh temporary HORIZON_MODEL_DIR."""
    from .fixtures import write_fixtures

    root = tmp_path_factory.mktemp("weights")
    write_fixtures(root, models=tuple(models))
    return root


def model_worker_fixtures(models: dict[str, str], weights_name: str = "weights"):
    """Module-scoped fixtures for a model test module: tiny checkpoints of `models` and a batching CPU
    worker serving them. Use as `weights, model_worker = model_worker_fixtures(MODELS)`; pytest names
    each fixture after the module attribute it is bound to (`weights_name`: the first one's)."""

    @pytest.fixture(scope="module")
    def weights(tmp_path_factory) -> Path:
        return write_model_weights(tmp_path_factory, models)

    @pytest.fixture(scope="module")
    def worker(request):
        started = start_batching_model_worker(request.getfixturevalue(weights_name))
        yield started
        stop_worker(started)

    return weights, worker


def start_batching_model_worker(weights: Path) -> Worker:
    """A CPU worker on `weights` whose batching window is long enough that concurrent requests share batches."""
    return start_worker(HORIZON_MODEL_DIR=str(weights), HORIZON_BATCH_MAX_WAIT_MS="300", HORIZON_DEVICE="cpu")
