"""Fine-tuning worker: `python -m horizon_runtime.finetune SPEC.json` runs `Chronos2Pipeline.fit(...)`
of the pinned chronos-forecasting on a user's series and installs the result as a private model.

It is its own process, started by the control plane per fine-tuning job (src/runtime/fine-tuning.ts),
so training never shares a GIL, a device queue or an event loop with the inference workers. It prints
one JSON event per line on stdout (as pull.py does):

    {"event": "started", "device": "cpu", "base": ..., "train_series": N, "validation_series": M}
    {"event": "progress", "step": 40, "steps": 200, "loss": 0.71, "validation_loss": 0.69}
    {"event": "done", "model_id": "ft-...", "directory": "...", "summary": {...}}
    {"event": "error", "code": "...", "detail": "..."}

Atomic install: `fit` writes into HORIZON_MODEL_DIR/private/.tmp-<id>-<pid>/, the manifest is added
to its `finetuned-ckpt/`, and that directory is renamed to HORIZON_MODEL_DIR/private/<id>/ (one
rename on one file system): a private model directory is complete or absent. SIGTERM (cancel) raises
at the next training step, the temporary directory is removed and the process exits 3; SIGKILL leaves
the temporary directory, which the control plane removes (it knows the name).

Validation: each series' last `validation_windows` × horizon values are held out of training; the
library's own validation (`validation_inputs`, eval loss, best checkpoint) runs on them, and the WQL of
the 0.1…0.9 quantiles over those windows is computed before (base) and after (fine-tuned).
"""

from __future__ import annotations

import importlib.util
import hashlib
import json
import os
import shutil
import signal
import sys
import threading
import time
from pathlib import Path

import numpy as np

MANIFEST = "horizon-manifest.json"
PRIVATE_DIR = "private"
WQL_LEVELS = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9)
EXIT_CANCELLED = 3


class Cancelled(Exception):
    pass


class FineTuneError(Exception):
    def __init__(self, code: str, detail: str):
        super().__init__(detail)
        self.code, self.detail = code, detail


def private_root(model_dir: str | Path) -> Path:
    return Path(model_dir) / PRIVATE_DIR


def _series_input(raw: dict, cut: int | None, horizon: int):
    """The adapter's SeriesInput of one series cut to its first `cut` values (None: whole), with the
    known covariates' values of the `horizon` steps after the cut as its future covariates."""
    from .adapters.base import SeriesInput

    target = np.asarray([np.nan if v is None else v for v in raw["target"]], dtype=np.float64)
    n = len(target) if cut is None else cut
    hist = {k: np.asarray([np.nan if v is None else v for v in vals], dtype=np.float64) for k, vals in (raw.get("past_covariates") or {}).items()}
    known = set(raw.get("known_covariates") or ())
    past = {k: v[:n] for k, v in hist.items()}
    future = {k: v[n:n + horizon] for k, v in hist.items() if k in known and cut is not None}
    return SeriesInput(target[:n], past, future, dict(raw.get("static_covariates") or {}))


def _training_task(raw: dict, cut: int, horizon: int):
    """One series (its first `cut` values) as the PreparedInput `fit` takes: the library's own
    `from_list_of_dicts`, with the covariates known into the future named (their future values come
    from the history during training); static covariates as constant known covariates, as the
    chronos-2 adapter sends them at inference."""
    from chronos.chronos2 import preprocess

    from .adapters.chronos_2 import STATIC_PREFIX

    one = _series_input(raw, None, horizon)
    past = {k: v[:cut] for k, v in one.past_covariates.items()}
    known = [k for k in (raw.get("known_covariates") or ()) if k in past]
    for name, value in one.static_covariates.items():
        past[STATIC_PREFIX + name] = np.full(cut, value)
        known.append(STATIC_PREFIX + name)
    task = {"target": one.target[:cut]}
    if past:
        task["past_covariates"] = past
    return preprocess.from_list_of_dicts([task], prediction_length=horizon, known_covariates_names=known or None)[0]


def _windows(series: list[dict], horizon: int, windows: int) -> list[tuple[int, int]]:
    """(series index, cut) of every validation window: the context ends at `cut`, the actuals follow."""
    return [(i, len(s["target"]) - w * horizon) for i, s in enumerate(series) for w in range(windows, 0, -1)]


def validation_wql(pipeline, series: list[dict], horizon: int, windows: list[tuple[int, int]], batch_size: int) -> float:
    """WQL of the 0.1…0.9 quantiles over the validation windows, pooled: 2 Σ pinball / (levels · Σ |y|), of the
    forecasts as the API serves them (levels sorted at each step)."""
    from .adapters.chronos_2 import chronos2_prepared
    from .quantiles import make_monotone

    losses, scale = 0.0, 0.0
    for start in range(0, len(windows), batch_size):
        chunk = windows[start:start + batch_size]
        tasks = [chronos2_prepared(_series_input(series[i], cut, horizon), horizon) for i, cut in chunk]
        q, _ = pipeline.predict_quantiles(tasks, prediction_length=horizon, quantile_levels=list(WQL_LEVELS), cross_learning=False)
        for (i, cut), task_q in zip(chunk, q):
            actual = np.asarray([np.nan if v is None else v for v in series[i]["target"][cut:cut + horizon]], dtype=np.float64)
            # (horizon, levels), made monotone in the level as the served forecasts are (quantiles.make_monotone)
            pred = make_monotone(task_q[0].float().cpu().numpy().astype(np.float64).T).T
            seen = ~np.isnan(actual)
            levels = np.asarray(WQL_LEVELS)
            diff = actual[seen, None] - pred[seen]
            losses += float(np.sum(np.maximum(levels * diff, (levels - 1) * diff)))
            scale += float(np.sum(np.abs(actual[seen])))
    return 2 * losses / (len(WQL_LEVELS) * scale) if scale > 0 else float("nan")


def forecast(pipeline, series: list[dict], horizon: int, quantiles: tuple[float, ...], batch_size: int) -> list[dict]:
    """The fine-tuned pipeline's forecast of each whole series, through the chronos-2 adapter's own
    predict_batch (the numbers a worker serving the installed model gives, bit for bit:
    runtime/tests/test_finetune.py), as {mean, quantiles: [values per level, in the order asked]}."""
    from .adapters.base import SeriesInput
    from .adapters.chronos_2 import Chronos2Adapter

    adapter = object.__new__(Chronos2Adapter)  # the prediction code only; the pipeline is the trained one
    adapter.pipeline = pipeline
    out = []
    for start in range(0, len(series), batch_size):
        inputs = []
        for raw in series[start:start + batch_size]:
            one = _series_input(raw, None, horizon)
            future = {k: np.asarray([np.nan if v is None else v for v in vals], dtype=np.float64) for k, vals in (raw.get("future_covariates") or {}).items()}
            inputs.append(SeriesInput(one.target, one.past_covariates, future, one.static_covariates))
        for p in adapter.predict_batch(inputs, horizon, quantiles, ""):
            out.append({"mean": p.mean.tolist(), "quantiles": p.quantiles.tolist(), "warnings": list(p.warnings)})
    return out


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _base_record(directory: Path) -> dict:
    """What `horizon models pull` recorded of the base (repo, revision, commit, file hashes), if it did."""
    try:
        return json.loads((directory / ".horizon-pull.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def _progress_callback(trainer_callback: type, progress: dict, steps: int, emit, cancelled: threading.Event) -> type:
    """The Trainer callback that keeps `progress` (step, losses), emits it and stops a cancelled run."""
    last_emit = [0.0]

    class Progress(trainer_callback):
        def on_step_end(self, args, state, control, **kwargs):
            progress["step"] = state.global_step
            if cancelled.is_set():
                raise Cancelled()
            now = time.monotonic()
            # at most one progress line a second: each is a write of the job row in the control plane,
            # CPU that the training's threads would otherwise have (on a small machine it shows)
            if now - last_emit[0] >= 1.0 or state.global_step >= steps:
                last_emit[0] = now
                emit({"event": "progress", **progress})

        def on_log(self, args, state, control, logs=None, **kwargs):
            logs = logs or {}
            if "loss" in logs:
                progress["loss"] = float(logs["loss"])
            if "eval_loss" in logs:
                progress["validation_loss"] = float(logs["eval_loss"])
            emit({"event": "progress", **progress})

    return Progress


def _merge_lora(tuned, checkpoint: Path, device: str):
    """fit saved a LoRA adapter that names the base by its absolute path; merged into the base weights it
    becomes a checkpoint of its own (served like a full fine-tune, survives a move of the model directory
    or removal of the base) and the pipeline answering is the one that was saved."""
    import torch
    from chronos import BaseChronosPipeline

    merged = type(tuned)(model=tuned.model.merge_and_unload())
    shutil.rmtree(checkpoint, ignore_errors=True)
    merged.save_pretrained(checkpoint)
    # read back: the merged tensors' memory layout in RAM differs from the saved ones, which moves a few
    # last bits of a forecast; the pipeline that validates (and answers inline) must be the saved one
    return BaseChronosPipeline.from_pretrained(str(checkpoint), device_map=device, dtype=torch.float32)


def _manifest(model_id: str, model, size: str, base_dir: Path, checkpoint: Path, summary: dict, torch_version: str) -> dict:
    """The fine-tuned model's manifest: its base (as pulled), libraries, files with their hashes, training summary."""
    pulled = _base_record(base_dir)
    return {
        "id": model_id,
        "base": {"model": model.id, "size": size, "adapter": model.adapter, "repo": pulled.get("repo", model.sizes[size].checkpoint),
                 "revision": pulled.get("revision", model.sizes[size].revision), "commit": pulled.get("commit"),
                 "files": pulled.get("files", [])},
        "library": {"chronos-forecasting": _version("chronos-forecasting"), "torch": torch_version},
        "files": [{"path": p.name, "size": p.stat().st_size, "sha256": _sha256(p)} for p in sorted(checkpoint.iterdir()) if p.is_file()],
        "training": summary,
        "created_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }


def run(spec: dict, emit=lambda event: None, cancelled: threading.Event | None = None):
    """Fine-tunes, installs, and returns (summary, fine-tuned pipeline). Raises Cancelled, FineTuneError."""
    import torch
    from chronos import BaseChronosPipeline
    from transformers.trainer_callback import TrainerCallback
    from transformers.utils import logging as transformers_logging

    from .catalog import load_catalog
    from .protocol import ProtocolError
    from .registry import weights_layout
    from .torch_device import torch_device
    from .weights import weights_directory

    transformers_logging.disable_progress_bar()
    transformers_logging.set_verbosity_error()
    cancelled = cancelled or threading.Event()
    catalog = load_catalog(spec["catalog"]) if spec.get("catalog") else load_catalog()
    model = catalog.models.get(spec["model"])
    if model is None or model.adapter != "chronos-2":
        raise FineTuneError("unsupported_model", f"fine-tuning supports chronos-2; got '{spec['model']}'")
    if spec.get("mode", "full") == "lora" and importlib.util.find_spec("peft") is None:
        # the library would fall back to full fine-tuning with a warning: a user who asked for LoRA gets told instead
        raise FineTuneError("lora_unavailable", "mode 'lora' needs the peft package in the core runtime (runtime/requirements/core.txt pins it); run scripts/setup.sh")
    size = spec["size"]
    model_dir = Path(spec["model_dir"])
    model_id = spec["model_id"]
    horizon, steps, windows_n = int(spec["horizon"]), int(spec["steps"]), int(spec.get("validation_windows", 1))
    batch_size = int(spec.get("batch_size", 256))
    series = spec["series"]
    try:
        caps = model.sizes[size]
        base_dir = weights_directory(model.id, size, caps.checkpoint, weights_layout(model.adapter), caps.revision)
    except ProtocolError as exc:
        raise FineTuneError(exc.code, exc.detail)

    device = spec.get("device") or torch_device()
    # fp32 master weights for training on every device (the Trainer's bf16 autocast applies on sm80+)
    base = BaseChronosPipeline.from_pretrained(str(base_dir), device_map=device, dtype=torch.float32)
    windows = _windows(series, horizon, windows_n)
    holdout = windows_n * horizon
    train = [_training_task(s, len(s["target"]) - holdout, horizon) for s in series]
    # validation_windows 0 (inline fine-tuning of one forecast request): all of each series trains, nothing validates
    validation = [_training_task(s, cut + horizon, horizon) for i, cut in windows for s in (series[i],)] or None
    emit({"event": "started", "device": device, "base": {"model": model.id, "size": size}, "train_series": len(train), "validation_windows": len(validation or ())})

    wql_before = validation_wql(base, series, horizon, windows, batch_size) if windows else None
    progress = {"step": 0, "steps": steps, "loss": None, "validation_loss": None}
    Progress = _progress_callback(TrainerCallback, progress, steps, emit, cancelled)

    root = private_root(model_dir)
    root.mkdir(parents=True, exist_ok=True)
    final = root / model_id
    tmp = root / f".tmp-{model_id}-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    started = time.perf_counter()
    # the Trainer seeds itself (seed= below), but a LoRA adapter is made before it, from the global generator:
    # seeded here too, so a LoRA fine-tuning gives the same model every time, as a full one does
    torch.manual_seed(int(spec.get("seed", 0)))
    try:
        tuned = base.fit(
            train, prediction_length=horizon, validation_inputs=validation, finetune_mode=spec.get("mode", "full"),
            learning_rate=float(spec.get("learning_rate", 1e-6)), num_steps=steps, batch_size=batch_size,
            output_dir=tmp, callbacks=[Progress()], remove_printer_callback=True,
            disable_tqdm=True, logging_steps=max(1, min(100, steps // 10)), seed=int(spec.get("seed", 0)),
        )
        train_seconds = time.perf_counter() - started
        if cancelled.is_set():
            raise Cancelled()
        checkpoint = tmp / "finetuned-ckpt"
        if spec.get("mode", "full") == "lora":
            tuned = _merge_lora(tuned, checkpoint, device)
        tuned.model.eval()  # the Trainer leaves it in training mode (dropout on); served models are in eval mode
        wql_after = validation_wql(tuned, series, horizon, windows, batch_size) if windows else None
        summary = {
            "series": len(series), "steps": steps, "mode": spec.get("mode", "full"), "learning_rate": float(spec.get("learning_rate", 1e-6)),
            "horizon": horizon, "validation_windows": len(windows),
            "validation_wql_before": wql_before, "validation_wql_after": wql_after,
            "final_loss": progress["loss"], "final_validation_loss": progress["validation_loss"],
            "train_seconds": round(train_seconds, 3), "steps_per_second": round(steps / train_seconds, 4) if train_seconds > 0 else None,
            "device": device,
        }
        if not spec.get("install", True):  # inline: forecast with the trained pipeline, keep nothing
            summary["predictions"] = forecast(tuned, series, horizon, tuple(spec["forecast_quantiles"]), batch_size)
            return summary, tuned
        manifest = _manifest(model_id, model, size, base_dir, checkpoint, summary, torch.__version__)
        (checkpoint / MANIFEST).write_text(json.dumps(manifest, indent=2), encoding="utf-8")
        if cancelled.is_set():
            raise Cancelled()
        shutil.rmtree(final, ignore_errors=True)  # a previous attempt killed right after its rename
        os.rename(checkpoint, final)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return summary, tuned


def _version(package: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(package)
    except PackageNotFoundError:
        return None


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m horizon_runtime.finetune SPEC.json", file=sys.stderr)
        return 2
    spec = json.loads(Path(argv[0]).read_text(encoding="utf-8"))
    cancelled = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: cancelled.set())
    # a control plane that dies (kill -9) leaves no training behind: its job is delivered again elsewhere
    parent = os.getppid()

    def watch_parent() -> None:
        while not cancelled.wait(1.0):
            if os.getppid() != parent:
                cancelled.set()

    threading.Thread(target=watch_parent, daemon=True).start()

    def emit(event: dict) -> None:
        sys.stdout.write(json.dumps(_finite(event)) + "\n")
        sys.stdout.flush()

    try:
        summary, _ = run(spec, emit, cancelled)
    except Cancelled:
        emit({"event": "cancelled"})
        return EXIT_CANCELLED
    except FineTuneError as exc:
        emit({"event": "error", "code": exc.code, "detail": exc.detail})
        return 1
    except Exception as exc:  # the job's error detail: the library's own message
        emit({"event": "error", "code": "fine_tuning_failed", "detail": f"{type(exc).__name__}: {exc}"})
        return 1
    emit({"event": "done", "model_id": spec["model_id"], "summary": _finite(summary)})
    return 0


def _finite(value):
    """JSON has no NaN: a loss or WQL that is not finite is written as null."""
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, float) and not np.isfinite(value):
        return None
    return value


if __name__ == "__main__":
    code = main(sys.argv[1:])
    sys.stdout.flush()
    sys.stderr.flush()
    # every file is written and closed (the model renamed into place): skip the interpreter's teardown of
    # torch, about a second the job would otherwise wait for (bench/README.md, fine-tuning)
    os._exit(code)
