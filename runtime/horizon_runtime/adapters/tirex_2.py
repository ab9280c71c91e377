"""TiRex-2 (`tirex-2`): NX-AI's multivariate xLSTM forecaster through the official `tirex-2` package
(0.4.0, import `tirex2`; tirex-ts, the `tirex` id's library, imports as `tirex`, so both live in core).

Loading: `tirex2.load_model(<directory>, device=...)`, the library's one loader: it reads `config.json`
(TiRex2's constructor arguments: the whole architecture, so tiny test checkpoints load like the published
one), builds `TiRex2(**config)` and loads `model.safetensors` strictly, restoring the names of tensors its
modules share. A local directory never touches the Hub. `device` picks the recurrent kernels too: on the
CPU the pure-PyTorch ones (flashrnn's `vanilla` sLSTM, mlstm_kernels' `native` mLSTM); on CUDA flashrnn
compiles its fused sLSTM kernel with `nvcc` on the first forecast (tirex-2's FAQ: a CUDA toolkit on PATH
or CUDA_HOME, compute capability 8.0 or newer), which Horizon's CUDA image does not hold (UNVERIFIED: no
GPU was lent when this adapter was written).

torch.compile: tirex-2 decorates its `ResidualBlock` (the patch embeddings) with `@torch.compile`, which on
the CPU needs a C++ compiler at the first call of every new input shape (the image has none) and took
12-76 s per shape on a 2-core machine. Every call here runs under `torch.compiler.set_stance("force_eager")`:
the same modules without compilation, measured bitwise equal to the compiled forward
(runtime/tests/test_tirex_2.py holds the adapter to the library called plainly, which compiles).

Prediction: every series of a micro-batch is one `TimeseriesType` (target `(1, T)`, float32, NaN kept) in
one `model.forecast(..., prediction_length=H, output_type="numpy")` call, which returns per series
`(1, 9, H)`: the levels 0.1 … 0.9. The library puts each series in a group of its own (its attention
across variates is masked to the group, and skipped for a series without covariates), left-pads the
batch to its longest series and every row to its 2048-step context plus 320-step future window (NaN,
masked), and scales each row by itself: a series' forecast does not depend on its neighbours
(measured: runtime/tests/parity-tolerances.json). Longer histories are cut to the context by the library
(the catalog caps them at 2048, the context); horizons over the 320-step future window would be cut by
the library, so the catalog caps them at 320 (both from the full-size configuration of the tirex-2
repository's tests; `load` warns if a checkpoint's are smaller).

`mean` is the library's point forecast, its 0.5 output (index 4, what its dataframe and fev outputs call
the prediction). Other levels are linear between the nine (quantiles.interpolate_levels, each step's
levels sorted: the heads can cross), and levels outside 0.1-0.9 get the nearest one's values, with a
warning.

Covariates, natively (catalog: past and known-future, not static): a covariate with known future values
(`future_covariates[name]`) is one of the series' `future_covariates` rows, its history and future joined
`(n_f, T + H)`; a covariate with history only is a `past_covariates` row `(n_p, T)`; request order kept,
missing values NaN (the model masks them). Static covariates have no input in TiRex-2 (the worker warns).

Joint ("multivariate": true, `predict_joint`, without covariates): the request's series are the target
variates of one `TimeseriesType` `(N, T)`, shorter ones left-padded with NaN, so the variate attention
sees them all; at most 64 series (Horizon's choice: the library states no limit).
"""

from __future__ import annotations

import logging

import numpy as np

from ..quantiles import interpolate_levels
from ..torch_device import torch_device
from .base import Adapter, Prediction, SeriesInput

log = logging.getLogger(__name__)

MEDIAN = 0.5


def timeseries(series: SeriesInput, horizon: int):
    """One series as tirex2's TimeseriesType: target (1, T), past-only covariates (n_p, T), known-future (n_f, T + H)."""
    import torch
    from tirex2 import TimeseriesType

    def rows(arrays: list[np.ndarray]):
        return torch.from_numpy(np.stack(arrays).astype(np.float32)) if arrays else None

    past = [values for name, values in series.past_covariates.items() if name not in series.future_covariates]
    future = [np.concatenate([series.past_covariates[name], values]) for name, values in series.future_covariates.items()]
    return TimeseriesType(target=rows([series.target]), past_covariates=rows(past), future_covariates=rows(future))


class TiRex2Adapter(Adapter):
    supports_joint = True

    def load(self) -> None:
        directory = self.weights_directory()  # a 424 before the slow library import
        from tirex2 import load_model

        device = torch_device()
        self.model = load_model(str(directory), device=device)
        self.device = device
        self.levels = [round(float(q), 6) for q in self.model.quantiles]
        self.median = self.levels.index(MEDIAN)
        caps, network = self.caps, self.model.model
        if caps.max_context > network.context_len or caps.max_horizon > network.future_len:
            log.warning(
                "%s/%s: catalog caps %d / %d exceed the checkpoint's context_len %d / future_len %d; the library cuts longer ones",
                self.model_id, self.size, caps.max_context, caps.max_horizon, network.context_len, network.future_len,
            )
        self.predict_batch([SeriesInput(np.arange(1.0, 65.0), {}, {}, {})], 1, (0.5,), "D")  # warm-up

    def _forecast(self, items: list, horizon: int) -> list[np.ndarray]:
        """The library's forecast of `items` (TimeseriesType), uncompiled: per item (variates, 9, H) float64."""
        import torch

        with torch.compiler.set_stance("force_eager"):
            out = self.model.forecast(items, prediction_length=horizon, output_type="numpy", batch_size=max(1, len(items)))
        return [np.asarray(one, dtype=np.float64) for one in out]

    def _prediction(self, band: np.ndarray, quantiles: tuple[float, ...]) -> Prediction:
        """One target variate's (9, H) band as a Prediction: mean the 0.5 output, the requested levels interpolated."""
        rows, warnings = interpolate_levels(self.levels, band, quantiles)
        return Prediction(mean=np.ascontiguousarray(band[self.median]), quantiles=np.ascontiguousarray(rows), warnings=warnings)

    def predict_batch(
        self, series: list[SeriesInput], horizon: int, quantiles: tuple[float, ...], freq: str
    ) -> list[Prediction]:
        out = self._forecast([timeseries(one, horizon) for one in series], horizon)
        return [self._prediction(one[0], quantiles) for one in out]

    def predict_joint(
        self, series: list[SeriesInput], horizon: int, quantiles: tuple[float, ...], freq: str
    ) -> list[Prediction]:
        import torch
        from tirex2 import TimeseriesType

        if any(one.past_covariates or one.future_covariates for one in series):
            raise ValueError("tirex-2 forecasts series jointly without covariates")
        longest = max(len(one.target) for one in series)
        target = np.stack([np.concatenate([np.full(longest - len(one.target), np.nan), one.target]) for one in series])
        item = TimeseriesType(target=torch.from_numpy(target.astype(np.float32)), past_covariates=None, future_covariates=None)
        (out,) = self._forecast([item], horizon)
        return [self._prediction(band, quantiles) for band in out]
