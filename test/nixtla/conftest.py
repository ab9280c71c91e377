"""Fixtures: a real Horizon server (clients/python/tests/horizon_test_server.py: real PGlite, real Python worker) and
Nixtla's own SDK (nixtla==0.9.0, .tools/venv-nixtla) pointed at its /nixtla drop-in."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Iterator

import httpx
import pandas as pd
import pytest
from nixtla import NixtlaClient

REPO = Path(__file__).resolve().parents[2]
# the launcher of the Python client's tests (startTestServer plus a control endpoint: new accounts, quotas), shared
sys.path.insert(0, str(REPO / "clients" / "python" / "tests"))
from horizon_test_server import SHARED_OPTIONS, Launcher  # noqa: E402


class Server(Launcher):
    """A running server (horizon_test_server.py: url, key, control calls) and plain HTTP calls."""

    def raw(self, method: str, path: str, body: Any = None, key: str | None = None, headers: dict[str, str] | None = None, **kwargs: Any) -> httpx.Response:
        """A plain HTTP call: Horizon's own /v1 answers, which the SDK's results are compared with."""
        headers = {"authorization": f"Bearer {key or self.key}", **(headers or {})}
        return httpx.request(method, f"{self.url}{path}", json=body, headers=headers, timeout=300, **kwargs)


@pytest.fixture(scope="session")
def server() -> Iterator[Server]:
    # chronos-2's tiny random-weight checkpoint: a model with covariates that needs no download
    s = Server(SHARED_OPTIONS)
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
