"""TimesFM 1.0 (`timesfm`, size 200m): the official `timesfm.TimesFm` of timesfm 1.3.0 (runtime group
timesfm1; on Python 3.11 without jax this is `TimesFmTorch`).

Loading. google/timesfm-1.0-200m-pytorch holds one `torch_model.ckpt`, a bare state dict: the
architecture is written nowhere, and `TimesFmHparams` defaults to the published one (20 layers, model
dims 1280, 16 heads). It is read off the state dict's shapes instead, so the published checkpoint and
any other (the tiny test fixture among them) go through the same code: model dims = the width of
`freq_emb.weight`, layers = the number of `stacked_transformer.layers.<i>` blocks, heads = model dims /
the length of the attention's per-dimension `scaling` vector (head_dim; `TimesFmTorch` builds
head_dim = model_dims // num_heads). For the published file this gives 20 / 1280 / 16. The
forecasting settings are the library's defaults, which are the published model's: context 512,
input patch 32, output patch 128, quantiles 0.1…0.9, positional embedding.

Per request. `horizon_len` and the batch size are hyper-parameters of the `TimesFm` object; the
library reads them from the instance at each call (`self.horizon_len`, `self.global_batch_size`).
Each call therefore uses a shallow copy of the loaded object with horizon_len = the requested
horizon and the batch size = the batch (in balanced chunks of at most MAX_CHUNK), sharing the one
loaded torch module. The numbers do not depend on horizon_len beyond its length: decoding is
autoregressive in 128-step output patches and the first k patches are the same computation for any
longer horizon (tested), so a short horizon does not pay for the catalog's max_horizon, and a
single series does not pay for a padded batch (the library pads a batch to a multiple of the batch
size by repeating the last series). Horizons beyond 128 are decoded autoregressively, as the
library does (catalog max_horizon 512 = 4 patches).

Inputs. The target goes to `forecast()` as is: the library drops leading NaNs, fills the other
NaNs by linear interpolation (`timesfm_base.strip_leading_nans`, `linear_interpolation`), keeps the
last 512 values and left-pads shorter series with a padding mask, each series on its own; attention
and normalisation are per series, so a forecast does not depend on the rest of the batch.
`normalize=False` (the library default; the model normalises each series itself by its first
patch). `freq` goes through the library's own `timesfm.freq_map`: H and D -> 0 (high frequency),
W and MS -> 1 (medium), Q and Y -> 2 (low), the three categories TimesFM 1.0 was trained with.

Outputs. `mean` is the library's point forecast with its default `point_forecast_mode="median"`,
i.e. the 0.5 quantile head (the mean head, output 0, is what the model feeds back between output
patches). Requested levels are interpolated from the nine trained levels (interpolate_levels): the
nine heads are sorted at each step (they can cross; the 1.0 model card calls its quantile heads
experimental), then linear between them, the nearest one outside 0.1-0.9 with a warning. `mean`
stays the unsorted median head, so where heads cross it can differ from the 0.5 level. No covariates (catalog flags false):
the library's `forecast_with_covariates` needs JAX, which must stay out of this venv.

Device: HORIZON_DEVICE/auto -> backend "gpu" (cuda:0) or "cpu"; always float32, the precision
`TimesFmTorch` runs in.
"""

from __future__ import annotations

import contextlib
import copy
import logging
import math
import re
import sys
from pathlib import Path

import numpy as np

from ..quantiles import interpolate_levels
from ..torch_device import torch_device
from .base import Adapter, Prediction, SeriesInput

log = logging.getLogger(__name__)

CHECKPOINT_FILE = "torch_model.ckpt"
CONTEXT_LEN = 512  # the context TimesFM 1.0 was trained with (TimesFmHparams default)
MAX_CHUNK = 256  # series per forward pass; larger batches go in balanced chunks
_LAYER = re.compile(r"^stacked_transformer\.layers\.(\d+)\.")


def import_timesfm():
    """`import timesfm`, whose __init__ prints two lines to stdout (the worker's stdout is its protocol
    channel for the READY line): they go to stderr instead."""
    with contextlib.redirect_stdout(sys.stderr):
        import timesfm
    return timesfm


def architecture(state: dict) -> dict[str, int]:
    """num_layers, model_dims and num_heads of a TimesFM 1.0 state dict, from the tensors' shapes."""
    try:
        model_dims = int(state["freq_emb.weight"].shape[1])
        layers = {int(m.group(1)) for key in state if (m := _LAYER.match(key))}
        head_dim = int(state["stacked_transformer.layers.0.self_attn.scaling"].shape[0])
    except (KeyError, IndexError) as exc:
        raise ValueError(f"not a TimesFM 1.0 (PatchedTimeSeriesDecoder) state dict: no {exc}") from None
    if not layers or layers != set(range(len(layers))) or model_dims % head_dim:
        raise ValueError(f"not a TimesFM 1.0 state dict: layers {sorted(layers)}, dims {model_dims}, head dims {head_dim}")
    return {"num_layers": len(layers), "model_dims": model_dims, "num_heads": model_dims // head_dim}


def read_architecture(path: Path) -> dict[str, int]:
    import torch

    try:  # memory-mapped: only the shapes are read, the weights are loaded once, by the library
        state = torch.load(path, map_location="cpu", weights_only=True, mmap=True)
    except RuntimeError:  # a file in torch's legacy (non-zip) format cannot be mapped
        state = torch.load(path, map_location="cpu", weights_only=True)
    return architecture(state)


def chunk_size(n: int) -> int:
    """The batch size that splits n series into the fewest chunks of at most MAX_CHUNK, evenly."""
    return math.ceil(n / math.ceil(n / MAX_CHUNK))


class TimesFM1Adapter(Adapter):
    def load(self) -> None:
        timesfm = import_timesfm()
        path = self.weights_directory() / CHECKPOINT_FILE
        arch = read_architecture(path)
        device = torch_device()
        if self.caps.max_context > CONTEXT_LEN:
            log.warning(
                "%s/%s: catalog max_context %d exceeds TimesFM 1.0's context %d; the model sees the last %d values",
                self.model_id, self.size, self.caps.max_context, CONTEXT_LEN, CONTEXT_LEN,
            )
        with contextlib.redirect_stdout(sys.stderr):
            self.tfm = timesfm.TimesFm(
                hparams=timesfm.TimesFmHparams(
                    backend="gpu" if device == "cuda" else "cpu",
                    per_core_batch_size=1,
                    horizon_len=1,
                    context_len=CONTEXT_LEN,
                    **arch,
                ),
                checkpoint=timesfm.TimesFmCheckpoint(path=str(path)),
            )
        self.freq_map = timesfm.freq_map
        self.trained_levels = tuple(self.tfm.quantiles)
        self.device = device
        log.info("%s/%s: TimesFM 1.0 %s on %s", self.model_id, self.size, arch, device)
        self.predict_batch([SeriesInput(np.arange(1.0, 33.0), {}, {}, {})], 1, (0.5,), "D")  # warm-up

    def forecaster(self, horizon: int, batch: int):
        """The loaded TimesFm with this call's horizon_len and batch size (see the module docstring)."""
        tfm = copy.copy(self.tfm)
        tfm.horizon_len = horizon
        tfm.per_core_batch_size = tfm.global_batch_size = chunk_size(batch)
        return tfm

    def predict_batch(
        self, series: list[SeriesInput], horizon: int, quantiles: tuple[float, ...], freq: str
    ) -> list[Prediction]:
        category = self.freq_map(freq)
        point, full = self.forecaster(horizon, len(series)).forecast(
            [one.target for one in series], freq=[category] * len(series)
        )
        predictions = []
        for mean, outputs in zip(point, full):
            # outputs: (horizon, 1 + levels), column 0 the mean head, then q0.1…q0.9
            rows, warnings = interpolate_levels(self.trained_levels, outputs[:, 1:].T, quantiles)
            predictions.append(
                Prediction(mean=np.ascontiguousarray(mean, dtype=np.float64), quantiles=np.ascontiguousarray(rows), warnings=warnings)
            )
        return predictions
