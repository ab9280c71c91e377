"""TimesFM 2.5 (`timesfm-2`): the official `timesfm` package (3.0.2), `TimesFM_2p5_200M_torch`.

Loading: `from_pretrained(dir, torch_compile=False, local_files_only=True)` reads `model.safetensors`
(and `config.json`, which for the published checkpoint holds only `{"torch_compile": false}`). The
library hard-codes the architecture as the class attribute `TimesFM_2p5_200M_torch_module.config`
(the published 200M definition), so a checkpoint cannot describe itself. `TimesFM25` below is the
library's wrapper class with one change: its module is built from the definition under
`config.json["timesfm_2p5_definition"]` when that key is present (only the tiny test checkpoints of
`runtime/tests/fixtures/timesfm_2.py` write it) and from the library's own module class otherwise. The
definition is the class attribute of a private subclass made per load, so the library's classes are
never modified and any number of sizes and models can live in one process. The published checkpoint
therefore loads through the library's own module class, unchanged.

Forecasting: `compile(ForecastConfig(...))` then `forecast(horizon, inputs=[...])`, with the flags the
TimesFM README recommends (`FLAGS`: inputs normalised, continuous quantile head, flip invariance,
non-negative output for non-negative inputs, quantile crossing fixed). `load()` compiles once with the
catalog caps (max_context, max_horizon), which checks that the checkpoint can serve every request the
catalog allows (`compile` raises when context + horizon > 16384 or the horizon exceeds the 1024-step
quantile head).

A compiled model left-pads every series to `max_context` and always decodes `max_horizon` steps,
however short the request: with the caps (15360 / 1024) a 100-value series costs 480 input patches
instead of 4, and seven autoregressive steps it does not need. Padding is masked and positions are
relative to the first real patch, so the numbers do not depend on it beyond float32 rounding (measured
on the tiny checkpoint: at most 3e-7 relative between the caps and the request's own settings; the
max_horizon setting alone changed nothing, bitwise), but the time does: a full-size random-weight 200M
model, one 100-value series, horizon 12, fp32, one CPU thread here took 37 s compiled with the caps,
11 s with max_horizon 1024 and 1.1-2.8 s with (128, 128). So each prediction runs on a shallow copy
of the loaded model (same weights) compiled for

- `max_context` = `context_bucket(len)`: the series' length (after leading missing values) rounded
  up to a power of two, at least 128 and at most the catalog cap (so series of similar lengths share
  a forward pass), and
- `max_horizon` = the request's horizon rounded up to the 128-step output patch.

Series of a batch are grouped by bucket, so a series' numbers depend only on its own values and the
request (up to float32 rounding between batch sizes). The parity reference
(`runtime/tests/timesfm_reference.py`) compiles the library as its model card does (max_context 1024,
max_horizon 256, or more when a series or horizon needs it); the difference is float32 rounding, measured
and allowed in runtime/tests/parity-tolerances.json (docs/models.md).
Compilation here is plain Python (`torch_compile=False`): a copy and its `compile` cost microseconds,
and each prediction thread has its own copy, so concurrent batches share no mutable state.

Output: `forecast` returns point (B, H) and quantiles (B, H, 10) = [mean head, q0.1 … q0.9]. `mean` of
the response is the library's point forecast, which is its q0.5 output (channel 5); channel 0 (the
model's mean head) is not used. The other levels come from q0.1 … q0.9: between two of them linear in
the level, outside 0.1–0.9 the nearest one's values, with a warning (`quantiles.interpolate_levels`).

Missing values: the library drops leading missing values and interpolates the rest linearly (the
last known value after the end). Its normalisation leaves a series whose standard deviation is below
1e-6 unscaled, so such a series (e.g. values around 1e-9) gets a flat forecast; float32 also
flattens small changes on a large level (e.g. 1e9 + t).

Covariates: none (catalog flags all false; the library's `forecast_with_covariates` fits an external
ridge regression with jax and is not used). fp32 on CPU and CUDA: the library feeds the module float32
inputs and has no other precision. `HORIZON_DEVICE=cpu` on a GPU host keeps the module on the CPU (the
library alone always picks `cuda:0` when it sees one).
"""

from __future__ import annotations

import copy
import dataclasses
import math
from typing import Any

import numpy as np
import timesfm
import torch
from timesfm import configs
from timesfm.timesfm_2p5 import timesfm_2p5_base
from timesfm.timesfm_2p5.timesfm_2p5_torch import TimesFM_2p5_200M_torch, TimesFM_2p5_200M_torch_module

from ..quantiles import interpolate_levels_batch
from ..torch_device import torch_device
from .base import Adapter, Prediction, SeriesInput

Definition = timesfm_2p5_base.TimesFM_2p5_200M_Definition
DEFINITION_KEY = "timesfm_2p5_definition"  # config.json key of a non-published architecture

# The settings of the TimesFM README (and of google/timesfm-2.5-200m-pytorch's model card).
FLAGS = {
    "normalize_inputs": True,
    "use_continuous_quantile_head": True,
    "force_flip_invariance": True,
    "infer_is_positive": True,
    "fix_quantile_crossing": True,
}
MIN_CONTEXT_BUCKET = 128
# Values (context + horizon, padded) per forward pass: bounds the decode cache and the activations
# (about 150 MB per series at 15360 + 1024 with the 200M model), e.g. 16 series at the caps, 227 at 128 + 1024.
VALUES_PER_CALL = 1 << 18


def definition_to_config(definition: Definition) -> dict:
    """The JSON form of a definition, as `DEFINITION_KEY` holds it (the fixtures write it)."""
    return dataclasses.asdict(definition)


def definition_from_config(config: dict | None) -> Definition | None:
    """The architecture written under `DEFINITION_KEY`, or None for the published one."""
    raw = (config or {}).get(DEFINITION_KEY)
    if raw is None:
        return None
    raw = dict(raw)
    stacked = dict(raw.pop("stacked_transformers"))
    stacked["transformer"] = configs.TransformerConfig(**stacked["transformer"])
    blocks = {
        name: configs.ResidualBlockConfig(**raw.pop(name))
        for name in ("tokenizer", "output_projection_point", "output_projection_quantiles")
    }
    return Definition(**blocks, stacked_transformers=configs.StackedTransformersConfig(**stacked), **raw)


class TimesFM25(TimesFM_2p5_200M_torch):
    """`TimesFM_2p5_200M_torch` whose module follows config.json's `DEFINITION_KEY` when present, and
    runs on `device` ("cpu" keeps it off a GPU the library would pick). Everything else — loading,
    `compile`, `forecast` — is the library's."""

    def __init__(self, torch_compile: bool = True, config: dict | None = None, device: str | None = None, **kwargs):
        # The library's __init__, with the module class chosen per instance.
        definition = definition_from_config(config)
        module_class = TimesFM_2p5_200M_torch_module
        if definition is not None:
            module_class = type("TimesFM_2p5_module", (TimesFM_2p5_200M_torch_module,), {"config": definition})
        self.model = module_class()
        if device == "cpu":
            self.model.device = torch.device("cpu")  # load_checkpoint moves the module there
            self.model.device_count = 1
        self.torch_compile = torch_compile
        if config is not None:
            self._hub_mixin_config = config


def load_model(directory, device: str) -> TimesFM25:
    return TimesFM25.from_pretrained(str(directory), torch_compile=False, local_files_only=True, device=device)


def forecast_config(max_context: int, max_horizon: int, batch_size: int = 1) -> timesfm.ForecastConfig:
    return timesfm.ForecastConfig(max_context=max_context, max_horizon=max_horizon, per_core_batch_size=batch_size, **FLAGS)


def strip_leading_missing(target: np.ndarray) -> np.ndarray:
    """What the library keeps of a target (its `strip_leading_nans`); at least one value is present."""
    return target[int(np.argmax(~np.isnan(target))):]


def context_bucket(length: int, max_context: int, patch: int = 32) -> int:
    """The max_context a series of `length` values runs with: a power of two >= length (at least
    MIN_CONTEXT_BUCKET), capped at max_context rounded up to the input patch."""
    cap = math.ceil(max_context / patch) * patch
    return min(max(MIN_CONTEXT_BUCKET, 1 << max(0, length - 1).bit_length()), cap)


def horizon_bucket(horizon: int, patch: int = 128) -> int:
    """The max_horizon a request runs with: its horizon rounded up to the output patch."""
    return math.ceil(horizon / patch) * patch


class TimesFM2Adapter(Adapter):
    def load(self) -> None:
        caps = self.caps
        device = torch_device()
        model = load_model(self.weights_directory(), device)
        # Once with the caps: raises if the checkpoint cannot serve a request the catalog allows.
        model.compile(forecast_config(caps.max_context, caps.max_horizon))
        self.model = model
        self.device = device
        self.input_patch = model.model.p
        self.output_patch = model.model.o
        self.levels = list(model.model.config.quantiles)
        self.predict_batch([SeriesInput(np.arange(1.0, 33.0), {}, {}, {})], 1, (0.5,), "D")  # warm-up

    def compiled(self, max_context: int, max_horizon: int, batch_size: int) -> TimesFM25:
        """A copy of the loaded model (same module) compiled for these settings."""
        runner = copy.copy(self.model)
        # forecast() pads a call to a multiple of per_core_batch_size x device_count with dummy series.
        per_core = math.ceil(batch_size / self.model.model.device_count)
        runner.compile(forecast_config(max_context, max_horizon, per_core))
        return runner

    def predict_batch(
        self, series: list[SeriesInput], horizon: int, quantiles: tuple[float, ...], freq: str
    ) -> list[Prediction]:
        caps = self.caps
        max_horizon = horizon_bucket(horizon, self.output_patch)
        targets = [strip_leading_missing(one.target) for one in series]
        buckets: dict[int, list[int]] = {}
        for index, target in enumerate(targets):
            buckets.setdefault(context_bucket(len(target), caps.max_context, self.input_patch), []).append(index)
        points: list[Any] = [None] * len(series)
        full: list[Any] = [None] * len(series)
        for max_context, indices in buckets.items():
            per_call = max(1, VALUES_PER_CALL // (max_context + max_horizon))
            for start in range(0, len(indices), per_call):
                chunk = indices[start:start + per_call]
                runner = self.compiled(max_context, max_horizon, len(chunk))
                point, quantile = runner.forecast(horizon, inputs=[targets[i] for i in chunk])
                for row, index in enumerate(chunk):
                    points[index], full[index] = point[row], quantile[row]
        # the levels of the whole batch in one pass (same arithmetic as per series)
        rows, warnings = interpolate_levels_batch(self.levels, np.stack(full)[:, :, 1:].transpose(0, 2, 1), quantiles)
        means = np.asarray(np.stack(points), dtype=np.float64)
        return [Prediction(mean=means[i], quantiles=rows[i], warnings=warnings) for i in range(len(series))]
