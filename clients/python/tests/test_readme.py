"""clients/python/README.md's example runs as written on the real AirPassengers file (Month, #Passengers),
and a frame without the columns asked for is a ValueError that names them and the arguments."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from horizon_client import Horizon

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
# the file as published (classic-Mac line endings and all); the repository's sample is the same data
SHARED = REPO.parent / "shared" / "datasets" / "airpassengers" / "AirPassengers.csv"
AIRPASSENGERS = SHARED if SHARED.exists() else REPO / "web" / "samples" / "airpassengers.csv"


def readme_example() -> str:
    text = (HERE.parent / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks, "clients/python/README.md has a ```python block"
    return blocks[0]


def test_readme_example_runs_as_written(server, tmp_path):
    shutil.copy(AIRPASSENGERS, tmp_path / "AirPassengers.csv")
    env = {**os.environ, "HORIZON_URL": server.url, "HORIZON_API_KEY": server.key}
    out = subprocess.run([sys.executable, "-c", readme_example()], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    header = out.stdout.splitlines()[0].split()
    assert header[:2] == ["unique_id", "Month"] and "mean" in header, out.stdout
    assert "AirPassengers" in out.stdout and "1961-01-01" in out.stdout, out.stdout


def test_missing_columns_name_the_arguments():
    c = Horizon("http://127.0.0.1:9", "hzn_x")  # never reached: the frame is refused first
    raw = pd.read_csv(AIRPASSENGERS)
    with pytest.raises(ValueError) as caught:
        c.forecast(raw, h=24)
    message = str(caught.value)
    for part in ("'unique_id' (id_col", "'ds' (time_col", "'y' (target_col", "'Month'", "'#Passengers'", "id_col=, time_col=, target_col="):
        assert part in message, message
    with pytest.raises(ValueError, match=r"'y' \(target_col") as caught:
        c.forecast(raw.assign(unique_id="a"), h=24, time_col="Month")
    assert "id_col" not in str(caught.value).split(";")[0], "only the missing column is named"


def test_repository_readme_python_example_runs_as_written(server):
    """The front door's Python forecast, from the repository root (it reads web/samples/airpassengers.csv)."""
    text = (REPO / "README.md").read_text()
    code = re.findall(r"```python\n(.*?)```", text, re.S)[0]
    env = {**os.environ, "HORIZON_URL": server.url, "HORIZON_API_KEY": server.key}
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[0].split()[:2] == ["unique_id", "Month"], out.stdout
    assert "1961-01-01" in out.stdout, out.stdout
