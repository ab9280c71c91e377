"""Fixtures: a real Horizon server (clients/python/tests/horizon_test_server.py: real PGlite, real Python worker) and KServe's own
pydantic types of its time-series protocol (kserve==0.21.0 in .tools/venv-kserve)."""
from __future__ import annotations

import importlib.util
import json
import sys
import sysconfig
import urllib.error
import urllib.request
from pathlib import Path
from types import ModuleType
from typing import Any, Iterator

import pytest

REPO = Path(__file__).resolve().parents[2]
# the launcher of the Python client's tests, shared (startTestServer plus a control endpoint)
sys.path.insert(0, str(REPO / "clients" / "python" / "tests"))
from horizon_test_server import SHARED_OPTIONS, Launcher  # noqa: E402


def kserve_types() -> ModuleType:
    """kserve/protocol/rest/timeseries/types.py of the installed kserve, loaded alone: the package's __init__ would import
    its whole model server (fastapi, grpc, kubernetes …), which the types do not need."""
    path = Path(sysconfig.get_paths()["purelib"]) / "kserve" / "protocol" / "rest" / "timeseries" / "types.py"
    spec = importlib.util.spec_from_file_location("kserve_timeseries_types", path)
    assert spec and spec.loader, path
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


class Server(Launcher):
    """A running server (horizon_test_server.py: url, key); call() sends JSON and returns (status, headers, parsed body)."""

    def call(self, method: str, path: str, body: Any = None, key: str | None = "") -> tuple[int, dict[str, str], Any]:
        headers = {"content-type": "application/json"} if body is not None else {}
        if key is not None:
            headers["authorization"] = f"Bearer {key or self.key}"
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(f"{self.url}{path}", data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=300) as response:
                return response.status, dict(response.headers), json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), json.loads(error.read())


@pytest.fixture(scope="session")
def server() -> Iterator[Server]:
    s = Server(SHARED_OPTIONS)
    yield s
    s.close()


@pytest.fixture(scope="session")
def types() -> ModuleType:
    return kserve_types()
