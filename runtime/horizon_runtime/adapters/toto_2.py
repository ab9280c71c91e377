"""Toto-2 (`toto-2`, `toto-2-ft`): Datadog's Toto-2.0 through `toto2` (`timecopilot-toto-2` 0.1.1, the
same code as official toto-2 2.0.0 apart from a `NotRequired` import fallback). One class serves both
ids; `toto-2-ft` is the fine-tuned checkpoint, loaded the same way.

Calls: `Toto2Model.from_pretrained(dir)` once, then per batch one
`model.forecast({"target": (B, 1, T), "target_mask": (B, 1, T), "series_ids": zeros (B, 1)},
horizon=H, decode_block_size=None, has_missing_values=True)` -> (9, B, 1, H), quantile knots 0.1…0.9
(the README's call; `decode_block_size=None` decodes the whole horizon in one pass). Each series is
one univariate item (n_var = 1); Toto's multivariate mode is not used. The worker drops covariates the catalog marks unused (with a warning) before the adapter.

Batching: the series of a batch are left-padded to the longest one, rounded up to a multiple of the
patch size (the model reads whole 32-step patches), with `target_mask` False on the padding (value 0),
as the library's own GluonTS path pads (`TFTInstanceSplitter` + `past_is_pad`). Padding on the left
keeps every series' patch boundaries where they are alone, and nothing else of a series depends on
the padding length: the scaler (`PatchedCausalStdScaler`) accumulates only masked-in values, patches
with no observed value get group id -1 and are masked out of the other patches' attention, and RoPE
scores depend only on position differences. So a series' forecast is the same alone and inside a
batch of other lengths up to float rounding (tests measure it). `forecast` forces the mask of the
final context patch to True, so in a series shorter than one patch the zero padding of that patch
counts as observed (the library does the same on its GluonTS path).

Missing values: NaN targets get mask False and the value of the library's own `ffill_imputation`
(forward fill, leading NaN 0), which its GluonTS path uses by default; the model ignores masked
values except in the final context patch, whose mask `forecast` forces to True.

Limits: catalog 4096 / 1024. No hard context cap in code (RoPE tables grow); the checkpoints'
`residual_attn_ratio` corresponds to a 4096-step training context (third-party). Horizon: any.

Joint ("multivariate": true on a request, `predict_joint`): the request's series are the variates of one multivariate
item, `{"target": (1, N, T), "target_mask": (1, N, T), "series_ids": zeros (1, N)}` (the same left padding and masks),
so Toto-2's variate-wise attention layers attend across them (one series id: one group), as the library's own
multivariate input does; `forecast` answers (9, 1, N, H).

Covariates: none (catalog flags false; api-contract A.8 lists toto-2 without covariates). The model
has undocumented `known_dynamic*` inputs, which the README calls planned, not available; they are
not used.

`mean` is the median knot (0.5): Toto-2 predicts quantiles only. `forecast` sorts the knots per step
itself; other levels are interpolated linearly between the knots, levels outside 0.1-0.9 get the
nearest knot's values with a warning (`quantiles.interpolate_levels`).

Precision: float32 on every device (the model's scaler works in float64 and the outputs are
rescaled into the data's units; bf16 would cost precision on large-valued series).
"""

from __future__ import annotations

import math

import numpy as np

from ..quantiles import interpolate_levels
from ..torch_device import torch_device
from .base import Adapter, Prediction, SeriesInput

def toto_inputs(targets: list[np.ndarray], patch_size: int) -> tuple[np.ndarray, np.ndarray]:
    """(target (B, 1, T) float32, mask (B, 1, T) bool): NaN forward-filled by the library's
    `ffill_imputation` and masked out; every series left-padded with masked zeros to the longest one,
    rounded up to a multiple of the patch size."""
    from toto2.model import ffill_imputation

    length = max(patch_size, math.ceil(max(len(t) for t in targets) / patch_size) * patch_size)
    values = np.zeros((len(targets), 1, length), dtype=np.float32)
    mask = np.zeros((len(targets), 1, length), dtype=bool)
    for i, target in enumerate(targets):
        target = np.asarray(target, dtype=np.float64)
        values[i, 0, length - len(target):] = ffill_imputation(target.copy())
        mask[i, 0, length - len(target):] = ~np.isnan(target)
    return values, mask


class Toto2Adapter(Adapter):
    supports_joint = True

    def load(self) -> None:
        directory = self.weights_directory()  # a 424 before the slow library import
        from toto2 import Toto2Model

        device = torch_device()
        self.model = Toto2Model.from_pretrained(str(directory)).to(device).eval()
        self.device = device
        self.patch_size = self.model.config.patch_size
        self.knots = tuple(float(q) for q in self.model.output_head.knots)
        self.predict_batch([SeriesInput(np.arange(1.0, 33.0), {}, {}, {})], 1, (0.5,), "D")  # warm-up

    def predict_batch(
        self, series: list[SeriesInput], horizon: int, quantiles: tuple[float, ...], freq: str
    ) -> list[Prediction]:
        values, mask = toto_inputs([one.target for one in series], self.patch_size)
        return self._predictions(values, mask, horizon, quantiles, lambda knots: knots[:, :, 0, :])

    def predict_joint(
        self, series: list[SeriesInput], horizon: int, quantiles: tuple[float, ...], freq: str
    ) -> list[Prediction]:
        values, mask = toto_inputs([one.target for one in series], self.patch_size)
        # (N, 1, T) -> (1, N, T): one item whose variates are the request's series
        return self._predictions(values.transpose(1, 0, 2), mask.transpose(1, 0, 2), horizon, quantiles, lambda knots: knots[:, 0, :, :])

    def _predictions(self, values: np.ndarray, mask: np.ndarray, horizon: int, quantiles: tuple[float, ...], per_series) -> list[Prediction]:
        """values, mask (items, variates, T); per_series: knots (9, items, variates, H) -> (9, series, H)."""
        import torch

        inputs = {
            "target": torch.from_numpy(np.ascontiguousarray(values)).to(self.device),
            "target_mask": torch.from_numpy(np.ascontiguousarray(mask)).to(self.device),
            "series_ids": torch.zeros(values.shape[:2], dtype=torch.long, device=self.device),
        }
        knots = self.model.forecast(inputs, horizon=horizon, decode_block_size=None, has_missing_values=True)
        knots = per_series(knots).float().cpu().numpy().astype(np.float64)  # (9, series, H)
        series = range(knots.shape[1])
        median = self.knots.index(0.5)

        predictions = []
        for i in range(len(series)):
            ordered = np.sort(knots[:, i, :], axis=0)  # forecast() sorts already; kept for the monotone promise
            rows, clamped = interpolate_levels(self.knots, ordered, quantiles)
            predictions.append(
                Prediction(mean=np.ascontiguousarray(ordered[median]), quantiles=np.ascontiguousarray(rows), warnings=clamped)
            )
        return predictions
