"""Yug (`house-tsfm`): the house model through the official `yug` package.

Loading: `YugPipeline.from_pretrained(<dir with config.json + model.safetensors>, device_map=...)` in
float32, the library's default, on the CPU and on CUDA (its RevIn and sampler work in float32; bf16 is
not something the library documents). Prediction settings are the library's defaults: 100 sampled
trajectories, the cached engine, context cut to the latest 2048 values (the training window; also the
catalog cap), left padding to whole patches.

Sampling and batch independence: Yug draws `num_samples` trajectories block by block (64 values per
forward pass) and returns the empirical quantiles 0.1 … 0.9 over them, so its numbers depend on the
random stream. `YugPipeline.predict` forecasts the series of a call one after another from ONE
`np.random.default_rng(seed)` stream that advances across series (pipeline.py, `predict`: "The stream
advances across series within one call"), so in a batched call a series' forecast depends on the
series before it (verified: runtime/tests/test_tirex_yug.py). Here each series is therefore its own
`predict([context], seed=series_seed(target))` call, with a seed derived from the series' target
values (blake2b of the float64 values, NaN included: the same derivation as Chronos-T5's
`chronos_t5.series_seed`). A series then gets the same forecast alone, in any batch and on every
request. This costs no batching: `predict` loops over series internally anyway (it batches the
sampled paths of one series, not series). The seed depends on the target only, so changing a
covariate changes the forecast through the model, not through another random stream. One call runs
at a time (a lock): the pipeline keeps its cached engine and forecaster on itself.

Frequency: `freq` is a model input (a learned embedding of 9 buckets, `yug/utils.py::FREQ_CORE`). The
contract's H, D, W, MS, Q, Y map to Yug's H, D, W, M, Q, A (`YUG_FREQ`); note that Yug's own
`normalize_freq` would leave "Y" as "Y", which `freq_id` puts into the "unknown" bucket.

Covariates — what Yug really takes (read in yug 0.1.1):
- Past covariates: yes. A 2-D array inside the context list is one series with covariates, row 0 the
  target and rows 1… covariates of the same length as the context (`YugPipeline._predict_one`,
  `_rollout_multivariate`; at most 128, else `ValueError`). Each series' `past_covariates` (every
  covariate's history, NaN where missing, masked by the model) are stacked under its target.
- Known-future covariates: NO — they cannot reach the model, so the catalog says future: false and the
  control plane drops them with a warning. Evidence: `YugPipeline.predict` has no input for future
  values; a covariate row must have the context's length (`_as_series_list` rejects ragged stacks);
  `Yug_Model` attends from target to covariate patches causally in time
  (`Yug_CrossAttention.forward`: `tril` mask; covariates share the target's patch axis), so the block
  forecast at the last context patch sees covariates only up to the end of the context; and for
  horizons beyond one block, `_rollout_multivariate` extends EVERY channel, covariates included, with
  the target's own sampled block (`np.tile(block[i], (paths[i].shape[0], 1))`), never with supplied
  covariate values. Feeding future values would mean replacing the library's rollout, which is not
  the official model behaviour. `YugForecaster.predict(series, variates=...)` is a single forward
  pass with variates of the series' length, and `YugPredictor` (GluonTS) passes only `target`.
- Static covariates: no. There is no static input; a constant covariate row is normalised by the
  causal RevIn to zeros over the context (its value carries nothing) and then overwritten by the
  target's samples in the rollout, so there is no faithful way to pass one. Catalog static: false.
Future or static covariates sent to the worker directly are ignored (the worker warns).

`mean` is the band's median (`QuantileForecast.median`, the 0.5 level): Yug returns no mean. Other
levels are interpolated linearly between the nine trained ones (quantiles.interpolate_levels); levels
outside 0.1-0.9 get the nearest trained level's values, with a warning. Missing target values (NaN)
are masked by the model; a constant series gets the library's flat forecast.
"""

from __future__ import annotations

import hashlib
import threading

import numpy as np

from ..quantiles import interpolate_levels
from ..torch_device import torch_device
from .base import Adapter, Prediction, SeriesInput

# Contract freq -> Yug frequency bucket (see the module docstring).
YUG_FREQ = {"H": "H", "D": "D", "W": "W", "MS": "M", "Q": "Q", "Y": "A"}
MAX_COVARIATES = 128  # yug raises beyond this (pipeline.py, _predict_one)


def series_seed(target: np.ndarray) -> int:
    """A seed from the series' values (missing ones included): equal series, equal seeds.
    The derivation of chronos_t5.series_seed, repeated here so that Yug does not import Chronos."""
    digest = hashlib.blake2b(np.ascontiguousarray(target, dtype=np.float64).tobytes(), digest_size=8).digest()
    return int.from_bytes(digest, "little") >> 1  # 63 bits


def yug_context(series: SeriesInput) -> tuple[np.ndarray, tuple[str, ...]]:
    """The context Yug takes for one series: the target alone (1-D), or the target stacked over its past
    covariates (2-D, target first); and the warnings."""
    names = list(series.past_covariates)
    if not names:
        return series.target, ()
    warnings: tuple[str, ...] = ()
    if len(names) > MAX_COVARIATES:
        warnings = (
            f"yug takes at most {MAX_COVARIATES} covariates; used the first {MAX_COVARIATES}, "
            f"ignored {', '.join(names[MAX_COVARIATES:])}",
        )
        names = names[:MAX_COVARIATES]
    return np.stack([series.target, *(series.past_covariates[name] for name in names)]), warnings


class YugAdapter(Adapter):
    def load(self) -> None:
        import torch
        from yug import YugPipeline

        directory = self.weights_directory()
        device = torch_device()
        self.pipeline = YugPipeline.from_pretrained(str(directory), device_map=device, dtype=torch.float32)
        self.device = device
        self.levels = list(self.pipeline.quantile_levels)
        self._lock = threading.Lock()
        self.predict_batch([SeriesInput(np.sin(np.arange(64.0)), {}, {}, {})], 1, (0.5,), "D")  # warm-up

    def predict_batch(
        self, series: list[SeriesInput], horizon: int, quantiles: tuple[float, ...], freq: str
    ) -> list[Prediction]:
        yug_freq = YUG_FREQ.get(freq, "U")
        median = int(np.argmin(np.abs(np.asarray(self.levels) - 0.5)))
        predictions = []
        with self._lock:
            for one in series:
                context, warnings = yug_context(one)
                band = self.pipeline.predict(
                    [context], prediction_length=horizon, freq=yug_freq, seed=series_seed(one.target)
                ).values[0]  # (9, horizon)
                rows, clamped = interpolate_levels(self.levels, band, quantiles)
                predictions.append(
                    Prediction(
                        mean=np.ascontiguousarray(band[median], dtype=np.float64),
                        quantiles=np.ascontiguousarray(rows),
                        warnings=warnings + clamped,
                    )
                )
        return predictions
