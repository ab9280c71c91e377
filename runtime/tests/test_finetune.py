"""Fine-tuning (horizon_runtime.finetune) on the tiny random-weight chronos-2 checkpoint: the loss goes
down on held-out windows, the installed model is the trained one (the worker's adapter loading it
forecasts exactly what the pipeline `fit` returned forecasts), the install is atomic with a manifest
of hashes, a cancel leaves nothing, the process entry point speaks JSON lines, and a worker serves the
private model by id (also after a restart)."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from horizon_runtime import finetune
from horizon_runtime.catalog import load_catalog

from .conftest import RUNTIME_DIR, start_worker, stop_worker

HORIZON = 8


def _series(n_series: int = 6, length: int = 96) -> list[dict]:
    """Seasonal series with a level per series: easy to learn, hard for random weights."""
    rng = np.random.default_rng(7)
    t = np.arange(length)
    out = []
    for i in range(n_series):
        values = 50 + 10 * i + 8 * np.sin(2 * np.pi * t / 12 + i) + rng.normal(0, 0.5, length)
        out.append({"target": [round(float(v), 4) for v in values]})
    return out


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory) -> Path:
    import torch

    from .fixtures import write_fixtures

    root = tmp_path_factory.mktemp("ft-weights")
    torch.manual_seed(0)
    write_fixtures(root, models=("chronos-2",))
    return root


def _spec(model_dir: Path, model_id: str, steps: int = 60, **extra) -> dict:
    return {
        "model": "chronos-2", "size": "small", "model_dir": str(model_dir), "model_id": model_id, "device": "cpu",
        "horizon": HORIZON, "steps": steps, "learning_rate": 1e-3, "mode": "full", "batch_size": 32,
        "series": _series(), **extra,
    }


@pytest.fixture(scope="module")
def tuned(model_dir):
    # set for this module only: a later module's worker must not inherit it (test_tirex_yug asserts it is unset)
    with pytest.MonkeyPatch.context() as env:
        env.setenv("HORIZON_MODEL_DIR", str(model_dir))
        events: list[dict] = []
        summary, pipeline = finetune.run(_spec(model_dir, "ft-0123456789ab"), events.append)
        yield summary, pipeline, events


def test_validation_wql_goes_down_and_progress_is_reported(tuned):
    summary, _, events = tuned
    assert summary["validation_wql_after"] < summary["validation_wql_before"], summary
    progress = [e for e in events if e["event"] == "progress"]
    assert progress and progress[-1]["step"] == 60
    assert any(e["loss"] is not None for e in progress)
    assert any(e["validation_loss"] is not None for e in progress)


def test_install_is_atomic_with_a_manifest_of_hashes(tuned, model_dir):
    directory = model_dir / "private" / "ft-0123456789ab"
    manifest = json.loads((directory / finetune.MANIFEST).read_text())
    assert manifest["base"]["model"] == "chronos-2" and manifest["base"]["size"] == "small"
    assert manifest["training"]["validation_wql_after"] == tuned[0]["validation_wql_after"]
    names = {f["path"] for f in manifest["files"]}
    assert {"config.json", "model.safetensors"} <= names
    for f in manifest["files"]:
        assert hashlib.sha256((directory / f["path"]).read_bytes()).hexdigest() == f["sha256"]
    assert not [p for p in (model_dir / "private").iterdir() if p.name.startswith(".tmp-")]


def test_the_installed_model_forecasts_exactly_what_the_fitted_pipeline_does(tuned, model_dir, monkeypatch):
    """The worker's own loading code (Chronos2Adapter through the private catalog entry) against the
    pipeline `fit` returned, same adapter code for the prediction: equal bit for bit."""
    from horizon_runtime.adapters.base import SeriesInput
    from horizon_runtime.private_models import find_private
    from horizon_runtime.registry import adapter_class

    _, pipeline, _ = tuned
    catalog = load_catalog()
    entry = find_private("ft-0123456789ab", catalog)
    assert entry is not None and entry.adapter == "chronos-2"
    monkeypatch.setenv("HORIZON_DEVICE", "cpu")
    loaded = adapter_class(entry.adapter)(entry, "small", catalog)
    loaded.load()
    fitted = adapter_class(entry.adapter)(entry, "small", catalog)
    fitted.pipeline = pipeline
    inputs = [SeriesInput(np.asarray(s["target"], dtype=np.float64), {}, {}, {}) for s in _series()]
    a = loaded.predict_batch(inputs, HORIZON, (0.1, 0.5, 0.9), "MS")
    b = fitted.predict_batch(inputs, HORIZON, (0.1, 0.5, 0.9), "MS")
    base = adapter_class("chronos-2")(catalog.models["chronos-2"], "small", catalog)
    base.load()
    c = base.predict_batch(inputs, HORIZON, (0.1, 0.5, 0.9), "MS")
    for x, y, z in zip(a, b, c):
        assert np.array_equal(x.mean, y.mean) and np.array_equal(x.quantiles, y.quantiles)
        assert not np.array_equal(x.mean, z.mean)  # and it is not the base model


def test_cancel_stops_and_leaves_no_model(model_dir, monkeypatch):
    monkeypatch.setenv("HORIZON_MODEL_DIR", str(model_dir))
    cancelled = threading.Event()

    def emit(event):
        if event["event"] == "progress":
            cancelled.set()

    with pytest.raises(finetune.Cancelled):
        finetune.run(_spec(model_dir, "ft-cccccccccccc", steps=10_000), emit, cancelled)
    assert not (model_dir / "private" / "ft-cccccccccccc").exists()
    assert not [p for p in (model_dir / "private").iterdir() if p.name.startswith(".tmp-")]


def test_process_entry_point_json_lines_and_worker_serves_it_after_restart(tmp_path, model_dir):
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(_spec(model_dir, "ft-aaaaaaaaaaaa", steps=5)))
    env = {**os.environ, "PYTHONPATH": str(RUNTIME_DIR), "HORIZON_MODEL_DIR": str(model_dir)}
    done = subprocess.run([sys.executable, "-m", "horizon_runtime.finetune", str(spec)], env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    events = [json.loads(line) for line in done.stdout.splitlines()]
    assert events[0]["event"] == "started" and events[-1]["event"] == "done"
    assert events[-1]["summary"]["steps"] == 5
    for attempt in range(2):  # a worker, then a fresh one: both find it on disk
        worker = start_worker(HORIZON_MODEL_DIR=str(model_dir), HORIZON_DEVICE="cpu")
        try:
            status, models = worker.call("GET", "/models")
            assert {"model": "ft-aaaaaaaaaaaa", "sizes": ["small"], "loaded": [], "private": True} in models["models"]
            status, answer = worker.infer(model="ft-aaaaaaaaaaaa", size="small", freq="MS", horizon=HORIZON, quantiles=[0.5], series=[{"target": _series()[0]["target"]}])
            assert status == 200 and len(answer["predictions"][0]["mean"]) == HORIZON, answer
            status, unknown = worker.infer(model="ft-ffffffffffff", size="small", freq="MS", horizon=HORIZON, quantiles=[0.5], series=[{"target": [1.0, 2.0]}])
            assert status == 404 and unknown["error"]["code"] == "unknown_model"
        finally:
            stop_worker(worker)


def test_inline_run_forecasts_and_installs_nothing(model_dir, monkeypatch):
    """install: false (finetune_steps on /v1/forecast): all of each series trains, nothing validates, the
    trained pipeline forecasts through the adapter's predict_batch, and no directory is left."""
    monkeypatch.setenv("HORIZON_MODEL_DIR", str(model_dir))
    before = sorted(p.name for p in (model_dir / "private").iterdir()) if (model_dir / "private").exists() else []
    summary, pipeline = finetune.run(_spec(model_dir, "ft-bbbbbbbbbbbb", steps=10, validation_windows=0, install=False, forecast_quantiles=[0.1, 0.5, 0.9]))
    assert summary["validation_wql_before"] is None and summary["validation_wql_after"] is None
    predictions = summary["predictions"]
    assert len(predictions) == len(_series())
    assert all(len(p["mean"]) == HORIZON and len(p["quantiles"]) == 3 for p in predictions)
    after = sorted(p.name for p in (model_dir / "private").iterdir())
    assert after == before


def _running(pid: int) -> bool:
    """Alive and not a zombie (an orphan's new parent may reap it late)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            return not any(line.startswith("State:") and "Z" in line.split()[1] for line in status)
    except FileNotFoundError:
        return False


def test_a_process_whose_control_plane_died_stops_and_leaves_nothing(tmp_path, model_dir):
    """kill -9 of the control plane: the orphaned fine-tuning process notices (its parent changed), stops at
    its next step and removes its temporary directory; the job is delivered again by the queue."""
    import time

    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(_spec(model_dir, "ft-dddddddddddd", steps=100_000)))
    out = tmp_path / "events"
    env = {**os.environ, "PYTHONPATH": str(RUNTIME_DIR), "HORIZON_MODEL_DIR": str(model_dir)}
    parent = subprocess.Popen(["bash", "-c", f'"{sys.executable}" -m horizon_runtime.finetune "{spec}" > "{out}" & echo $!; wait'],
                              env=env, stdout=subprocess.PIPE, text=True)
    child = int(parent.stdout.readline())
    while '"progress"' not in (out.read_text() if out.exists() else ""):
        assert _running(child), out.read_text()
        time.sleep(0.2)
    parent.kill()
    parent.wait()
    while _running(child):
        time.sleep(0.2)
    assert '"cancelled"' in out.read_text().splitlines()[-1]
    assert not (model_dir / "private" / "ft-dddddddddddd").exists()
    assert not [p for p in (model_dir / "private").iterdir() if p.name.startswith(".tmp-ft-dddddddddddd")]


def test_lora_trains_an_adapter_and_installs_it_merged_into_a_checkpoint_of_its_own(model_dir, monkeypatch):
    """mode "lora" (peft, pinned in core.txt): only the adapter trains, the validation WQL still goes down, and
    the installed model is the adapter merged into the base weights — no adapter file naming the base's path —
    which the worker's loading code serves with exactly the fitted (merged) pipeline's forecasts."""
    from horizon_runtime.adapters.base import SeriesInput
    from horizon_runtime.private_models import find_private
    from horizon_runtime.registry import adapter_class

    monkeypatch.setenv("HORIZON_MODEL_DIR", str(model_dir))
    monkeypatch.setenv("HORIZON_DEVICE", "cpu")
    base_files = {p: p.read_bytes() for p in (model_dir / "chronos-2").rglob("*.safetensors")}
    summary, pipeline = finetune.run(_spec(model_dir, "ft-a0aa00000001", steps=40, mode="lora", learning_rate=1e-2))
    assert summary["mode"] == "lora"
    assert summary["validation_wql_after"] < summary["validation_wql_before"], summary
    assert type(pipeline.model).__name__ == "Chronos2Model"  # merged: no peft wrapper left
    directory = model_dir / "private" / "ft-a0aa00000001"
    assert (directory / "model.safetensors").exists() and not (directory / "adapter_config.json").exists()
    assert {p: p.read_bytes() for p in base_files} == base_files  # the base stays as pulled

    catalog = load_catalog()
    entry = find_private("ft-a0aa00000001", catalog)
    loaded = adapter_class(entry.adapter)(entry, "small", catalog)
    loaded.load()
    fitted = adapter_class(entry.adapter)(entry, "small", catalog)
    fitted.pipeline = pipeline
    inputs = [SeriesInput(np.asarray(s["target"], dtype=np.float64), {}, {}, {}) for s in _series()]
    for x, y in zip(loaded.predict_batch(inputs, HORIZON, (0.1, 0.5, 0.9), "MS"), fitted.predict_batch(inputs, HORIZON, (0.1, 0.5, 0.9), "MS")):
        assert np.array_equal(x.mean, y.mean) and np.array_equal(x.quantiles, y.quantiles)


def test_lora_without_peft_is_refused_not_silently_full(model_dir, monkeypatch):
    import importlib.util as util

    real = util.find_spec
    monkeypatch.setattr(util, "find_spec", lambda name, *a: None if name == "peft" else real(name, *a))
    with pytest.raises(finetune.FineTuneError) as error:
        finetune.run(_spec(model_dir, "ft-a0aa00000002", steps=2, mode="lora"))
    assert error.value.code == "lora_unavailable" and "peft" in error.value.detail
    assert not (model_dir / "private" / "ft-a0aa00000002").exists()
