"""Fixtures: the real Horizon server (horizon_test_server.py: tests/server.ts, real PGlite, real Python worker) for the client."""
from __future__ import annotations

import time
from typing import Any, Iterator

import httpx
import pandas as pd
import pytest

from horizon_client import Horizon
from horizon_test_server import REPO, SHARED_OPTIONS, Launcher


class Server(Launcher):
    """A running server (horizon_test_server.py: url, key, control calls) and the plain HTTP calls the tests compare with."""

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


@pytest.fixture(scope="session")
def server() -> Iterator[Server]:
    # chronos-2's tiny random-weight checkpoints: a model with covariates that needs no download
    s = Server(SHARED_OPTIONS)
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
